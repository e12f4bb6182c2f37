import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { DialogCancel, UrlDialog } from "../../components/dialog.tsx";
import { useHydrated } from "../../components/hooks.ts";
import { ANALYSIS_FAILED } from "../../lib/messages.ts";
import { openEventStream, type StreamState } from "../../lib/live/event-stream.ts";
import { POST_MORTEM_EVENTS } from "../../../platform/contract/monitoring.ts";
import { MARKDOWN_CLASSES, POST_MORTEM_TITLE, postMortemPageHref, postMortemPdfHref, postMortemStreamHref } from "./post-mortem-links.ts";
import { monitoringMessages } from "../../../platform/contract/messages.ts";

/*
 * The post-mortem dialog (`?dialog=post-mortem&id=<outage_id>`): the analysis streamed from the
 * platform (server-sent events, resumed after a lost connection) and rendered as markdown as it
 * arrives (markdown.ts, loaded with the first chunk), then Download (analysis.pdf, made on the
 * server) and Close. Before JavaScript runs the dialog links to the page with the whole text.
 */

type Markdown = typeof import("./markdown.ts");

function useStreamedText(url: string | null) {
  const [text, setText] = useState("");
  const [state, setState] = useState<StreamState | null>(null);
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!url) return;
    setText("");
    setDone(false);
    const handle = openEventStream({
      url,
      onMessage: (m) => {
        if (m.event === POST_MORTEM_EVENTS.chunk) setText((t) => t + (JSON.parse(m.data) as string));
        if (m.event === POST_MORTEM_EVENTS.end) setDone(true);
      },
      isFinal: (m) => m.event === POST_MORTEM_EVENTS.end,
      onState: setState,
    });
    return () => handle.close();
  }, [url]);
  return { text, state, done };
}

function useMarkdown() {
  const [md, setMd] = useState<Markdown | null>(null);
  useEffect(() => {
    let live = true;
    void import("./markdown.ts").then((m) => live && setMd(m));
    return () => {
      live = false;
    };
  }, []);
  return md;
}

function StreamedAnalysis({ deviceId, outageId }: { deviceId: string; outageId: string }) {
  const { text, state, done } = useStreamedText(postMortemStreamHref(deviceId, outageId));
  const md = useMarkdown();
  const failed = state?.kind === "closed" && state.reason === "refused";
  const status = failed
    ? state.status === 404
      ? monitoringMessages.outageNotFound
      : ANALYSIS_FAILED
    : done
      ? "Analysis complete."
      : state?.kind === "retrying"
        ? `Connection lost: reconnecting in ${Math.round(state.delayMs / 1000)} s…`
        : "Writing the analysis…";
  return (
    <>
      <p role="status" className={`text-sm ${failed ? "text-error" : ""}`} data-testid="post-mortem-status">
        {status}
      </p>
      <div className={MARKDOWN_CLASSES} aria-busy={!done} data-testid="post-mortem-text" data-done={done ? "true" : "false"}>
        {md ? <div dangerouslySetInnerHTML={{ __html: md.markdownHtml(text, 2) }} /> : <pre className="whitespace-pre-wrap">{text}</pre>}
      </div>
    </>
  );
}

export function PostMortemDialog({ deviceId }: { deviceId: string }) {
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const outageId = params.get("id");
  if (!outageId) return null;
  return (
    <UrlDialog name="post-mortem" title={POST_MORTEM_TITLE} size="lg">
      {hydrated ? (
        <StreamedAnalysis deviceId={deviceId} outageId={outageId} key={outageId} />
      ) : (
        <p>
          <a href={postMortemPageHref(deviceId, outageId)} className="link link-primary">
            Read the whole analysis
          </a>
        </p>
      )}
      <div className="modal-action flex-wrap">
        <a href={postMortemPdfHref(deviceId, outageId)} download="analysis.pdf" className="btn btn-outline">
          Download
        </a>
        <DialogCancel className="btn btn-primary">Close</DialogCancel>
      </div>
    </UrlDialog>
  );
}
