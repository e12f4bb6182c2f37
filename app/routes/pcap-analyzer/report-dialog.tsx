import { Link, useLocation } from "react-router";
import { endpoint, formatDuration, formatTime, pcapClientRuleSentence, pcapMirrorSessionText, ZOOM_DEFAULT, ZOOM_MAX, ZOOM_MIN, ZOOM_STEP, type FlowReport } from "../../lib/pcap.ts";
import { hrefWith, hrefWithout } from "../../lib/url.ts";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";

/*
 * The flow analysis report of one session (spec 1 §2: 'a report dialog with a PDF preview, zoom
 * and Download'; §3 'Flow analysis report'; §8 'There is no test data.'). Opened by URL:
 * `?…&session=ID&dialog=report[&zoom=125]`. The PDF comes from /pcap-analyzer/report.pdf (inline
 * for the preview, `download=1` for Download), so everything here works without JavaScript.
 */

export type ReportState = { ok: true; report: FlowReport } | { ok: false; message: string };

export function reportPdfHref(key: string, session: string, download = false) {
  const q = new URLSearchParams({ key, session });
  if (download) q.set("download", "1");
  return `/pcap-analyzer/report.pdf?${q.toString()}`;
}

/** The report's PDF: inline for the preview, `download` for the Download button (the PCAP analyzer's: reportPdfHref; the dashboard's flow report has its own). */
export type PdfHref = (download: boolean) => string;

export function ReportDialog({ pdfHref, zoom, state }: { pdfHref: PdfHref; zoom: number; state: ReportState }) {
  const location = useLocation();
  const close = hrefWithout(location, ["dialog", "session", "zoom", "id"]);
  return (
    <div className="contents sm:[&_.modal-box]:max-w-5xl">
      <UrlDialog name="report" title="Flow Analysis Report" closeHref={close} size="lg" open>
        {state.ok ? (
          <ReportBody pdfHref={pdfHref} zoom={zoom} report={state.report} />
        ) : (
          <div role="alert" className="alert alert-warning alert-soft text-base-content my-2">
            <span>{state.message}</span>
          </div>
        )}
        <DialogActions cancelLabel="Close" />
      </UrlDialog>
    </div>
  );
}

function ReportBody({ pdfHref, zoom, report }: { pdfHref: PdfHref; zoom: number; report: FlowReport }) {
  const location = useLocation();
  const degraded = report.summary.performance_degradation === "yes";
  const info = report.general_info;
  const inline = pdfHref(false);
  const zoomHref = (z: number) => hrefWith(location, { zoom: z === ZOOM_DEFAULT ? null : z });
  return (
    <div className="flex flex-col gap-4">
      <section aria-labelledby="report-summary-title" className="flex flex-col gap-2">
        <h3 id="report-summary-title" className="font-semibold">
          Summary
        </h3>
        <dl className="grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-[auto_1fr] sm:gap-y-1 [&>dd]:mb-2 sm:[&>dd]:mb-0">
          <dt className="font-medium">Performance degradation</dt>
          <dd>
            <span
              className={`inline-flex rounded-full border px-2 py-0.5 text-xs font-semibold ${
                degraded ? "border-red-700 bg-red-50 text-red-900" : "border-green-700 bg-green-50 text-green-900"
              }`}
            >
              {degraded ? "yes" : "no"}
            </span>
          </dd>
          <dt className="font-medium">Comment</dt>
          <dd data-testid="report-comment">{report.summary.comment || "—"}</dd>
          {info ? (
            <>
              <dt className="font-medium">Session</dt>
              <dd className="break-words">
                {endpoint(info.client.addr, info.client.port)} → {endpoint(info.server.addr, info.server.port)} ({info.protocol.toUpperCase()}
                {info.app_name ? `, ${info.app_name}` : ""})
              </dd>
              {info.mirror_session ? (
                <>
                  <dt className="font-medium">Mirror session</dt>
                  <dd className="break-words" data-testid="report-mirror-session">
                    {pcapMirrorSessionText(info.mirror_session)}
                  </dd>
                </>
              ) : null}
              {info.client_chosen_by ? (
                <>
                  <dt className="font-medium">Client and server</dt>
                  <dd>{pcapClientRuleSentence(info.client_chosen_by)}</dd>
                </>
              ) : null}
              <dt className="font-medium">Time</dt>
              <dd>
                {formatTime(info.start_time)}
                {info.duration_seconds !== null ? ` (${formatDuration(info.duration_seconds)})` : ""}
              </dd>
            </>
          ) : null}
        </dl>
      </section>

      <section aria-labelledby="report-preview-title" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="report-preview-title" className="font-semibold">
            Report preview
          </h3>
          <div className="flex flex-wrap items-center gap-2">
            <div role="group" aria-label="Zoom" className="join">
              {zoom > ZOOM_MIN ? (
                <Link to={zoomHref(zoom - ZOOM_STEP)} className="btn btn-sm join-item" preventScrollReset replace>
                  <span aria-hidden="true">−</span>
                  <span className="sr-only">Zoom out</span>
                </Link>
              ) : (
                <span className="btn btn-sm join-item btn-disabled" aria-disabled="true">
                  <span aria-hidden="true">−</span>
                  <span className="sr-only">Zoom out</span>
                </span>
              )}
              <Link
                to={zoomHref(ZOOM_DEFAULT)}
                className="btn btn-sm join-item min-w-20 tabular-nums"
                preventScrollReset
                replace
                aria-label={`Zoom ${zoom}%, reset to 100%`}
              >
                {zoom}%
              </Link>
              {zoom < ZOOM_MAX ? (
                <Link to={zoomHref(zoom + ZOOM_STEP)} className="btn btn-sm join-item" preventScrollReset replace>
                  <span aria-hidden="true">+</span>
                  <span className="sr-only">Zoom in</span>
                </Link>
              ) : (
                <span className="btn btn-sm join-item btn-disabled" aria-disabled="true">
                  <span aria-hidden="true">+</span>
                  <span className="sr-only">Zoom in</span>
                </span>
              )}
            </div>
            <a href={pdfHref(true)} className="btn btn-primary btn-sm" download>
              Download
              <span className="sr-only"> the report (PDF)</span>
            </a>
          </div>
        </div>
        <object
          key={zoom}
          data={`${inline}#zoom=${zoom}`}
          type="application/pdf"
          title="Performance insights report (PDF)"
          aria-label="Performance insights report (PDF)"
          className="border-base-300 bg-base-200 h-[50vh] min-h-64 w-full rounded border"
          data-testid="report-preview"
        >
          <div className="flex h-full flex-col items-center justify-center gap-2 p-6 text-center text-sm">
            <p>This browser cannot show the PDF here.</p>
            <a href={inline} className="link link-primary" target="_blank" rel="noopener">
              Open the report (PDF)<span className="sr-only"> in a new tab</span>
            </a>
          </div>
        </object>
        <p className="text-base-content/80 text-sm">
          Preview empty?{" "}
          <a href={inline} className="link link-primary" target="_blank" rel="noopener">
            Open the report (PDF)<span className="sr-only"> in a new tab</span>
          </a>
        </p>
      </section>
    </div>
  );
}
