import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { formatBytes } from "../../lib/format.ts";
import { messages, type PcapAnalysisProgress } from "../../lib/pcap.ts";
import { useHydrated } from "../../components/hooks.ts";

/*
 * A capture whose analysis is queued or running (analyze-s3-pcap answered 202): it is a job on the
 * platform's queue, taken by any of its instances (docs/decisions/2026-12-03-pcap-analyses-on-the-queue.md).
 * With JavaScript the page asks again every second (the platform's Retry-After) and shows the
 * sessions, or the failure, once there; without, a Refresh link asks again (no automatic refresh
 * of the whole page: WCAG 2.2.1).
 */

/** How often the page asks again while the analysis is queued or running (analyze-s3-pcap's Retry-After). */
const POLL_MS = 1000;

export function AnalysisProgress({ name, progress, refreshHref }: { name: string; progress: Pick<PcapAnalysisProgress, "state" | "size">; refreshHref: string }) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [revalidator]);

  const status = progress.state === "queued" ? messages.analysisQueued : messages.analyzing;
  return (
    <section aria-labelledby="pcap-analysis-title" className="flex flex-col gap-3" data-testid="pcap-analysis">
      <h2 id="pcap-analysis-title" className="text-base font-semibold break-all">
        <span className="sr-only">Analysis of </span>
        {name}
      </h2>
      <p role="status" className="flex items-center gap-2 font-medium" data-testid="pcap-analysis-status">
        <span className="loading loading-dots loading-sm" aria-hidden="true" />
        {status}
      </p>
      {/* No value: how far the analyzer has read is not known here. */}
      <progress className="progress progress-primary h-3 w-full" aria-label="Analysis progress" />
      <p className="text-base-content/80 text-sm">
        {messages.beingAnalyzed}
        {progress.size ? ` (${formatBytes(progress.size)})` : ""}. {hydrated ? messages.sessionsAppear : messages.refreshToSee}
      </p>
      <p>
        <a href={refreshHref} className="btn btn-sm btn-outline">
          Refresh<span className="sr-only"> the analysis of {name}</span>
        </a>
      </p>
    </section>
  );
}
