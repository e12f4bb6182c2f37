import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { DetailsTable } from "../../components/details-table.tsx";
import { DialogActions, DialogCancel, UrlDialog } from "../../components/dialog.tsx";
import { useHydrated } from "../../components/hooks.ts";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { formatTime } from "../../lib/format.ts";
import { openEventStream, type StreamState } from "../../lib/live/event-stream.ts";
import { hrefWith } from "../../lib/url.ts";
import {
  accelerationText,
  activationDialogs,
  activationReportHref,
  activationStream,
  activationStreamHref,
  durationText,
  figure,
  REFRESH_PARAM,
  REFRESH_SECONDS,
  testState,
  verdictLabel,
  type ActivationEvent,
  type ActivationLinkSpeed,
  type ActivationReport,
  type DeviceKind,
  type Y1564Step,
} from "./activation.ts";
import type { ActivationDialogData } from "./activation.server.ts";
import { StartActivationDialog } from "./activation-start.tsx";
import { reportMessages } from "../../../platform/contract/messages.ts";

/*
 * The activation test's dialogs, for both screens (spec 3 §4, §5, §8, §9). One entry point:
 *
 *   <ActivationDialogs kind="metro" dialog={dialog} device={{ id, name } | null} data={loaderData.activation} lastResult={result} />
 *
 * - Start Activation Test (`?dialog=activation-test&id=`): the peer (L3 IP; a metro also L2 MAC and
 *   VLAN), the service performance test's duration (15 min, 2 h, 24 h) and the Y.1564 acceptance
 *   criteria, overridable. Success → the live view.
 * - The live view (`?dialog=activation-progress&id=&sse_id=`): the messages so far from the
 *   server; with JavaScript it follows the event stream 3 s after the start and reconnects with
 *   backoff (app/lib/live/event-stream.ts); without, the page reloads itself until the test is done.
 * - Retrieve Activation Test Report (`?dialog=activation-report&id=`): the last test's verdicts, its
 *   link speed samples and the PDF's download link ('There is no test data.' when none).
 */

type Result = SubmissionResult<string[]> | null | undefined;
export interface ActivationDevice {
  id: string;
  name: string;
}

export function ActivationDialogs({
  kind,
  dialog,
  device,
  data,
  lastResult,
}: {
  kind: DeviceKind;
  dialog: string | null;
  /** The dialog's device (null: it no longer exists). */
  device: ActivationDevice | null;
  data: ActivationDialogData;
  lastResult: Result;
}) {
  if (dialog === activationDialogs.start) return <StartActivationDialog kind={kind} device={device} lastResult={lastResult} />;
  if (dialog === activationDialogs.progress && data?.dialog === "progress") return <ActivationProgressDialog kind={kind} device={device} data={data} />;
  if (dialog === activationDialogs.report && data?.dialog === "report") return <ActivationReportDialog kind={kind} data={data} />;
  return null;
}

/* The live view ---------------------------------------------------------------------------------- */

const stepColumns: SimpleColumn<Y1564Step>[] = [
  { id: "label", header: "Step", cell: (s) => s.label },
  { id: "rate", header: "Offered / IR", unit: "Mbps", cell: (s) => `${figure(s.offered_mbps)} / ${figure(s.ir_mbps)}` },
  { id: "flr", header: "FLR", unit: "%", cell: (s) => figure(s.flr_pct) },
  { id: "ftd", header: "FTD min/avg/max", unit: "ms", cell: (s) => `${figure(s.ftd_min_ms)} / ${figure(s.ftd_avg_ms)} / ${figure(s.ftd_max_ms)}` },
  { id: "fdv", header: "FDV", unit: "ms", cell: (s) => figure(s.fdv_ms) },
  { id: "result", header: "Result", cell: (s) => <Verdict value={s.result} reasons={s.reasons} /> },
];

/** Spec 3 §3's link speed test sample (timestamp, tx.mbps, rx.mbps) and what was running; an accelerated test's times to the millisecond. */
const linkSpeedColumns = (accelerated: boolean): SimpleColumn<ActivationLinkSpeed>[] => [
  { id: "time", header: "Time (UTC)", cell: (x) => <time dateTime={x.timestamp}>{x.timestamp.slice(11, accelerated ? 23 : 19)}</time> },
  { id: "phase", header: "During", cell: (x) => x.phase },
  { id: "tx", header: "TX", unit: "Mbps", cell: (x) => figure(x["tx.mbps"]) },
  { id: "rx", header: "RX", unit: "Mbps", cell: (x) => figure(x["rx.mbps"]) },
];

/** The steps' table; a focusable region, as a narrow dialog may have to scroll it. */
function StepsTable({ steps, empty }: { steps: readonly Y1564Step[]; empty: string }) {
  return <SimpleTable caption="Service configuration test" showCaption columns={stepColumns} rows={steps} getRowId={(s) => s.step} emptyMessage={empty} scrollRegion="Service configuration test steps" />;
}

function Verdict({ value, reasons = [] }: { value: "pass" | "fail" | null; reasons?: readonly string[] }) {
  return (
    <span>
      <strong className={value === "fail" ? "text-error" : undefined}>{verdictLabel(value)}</strong>
      {reasons.length ? <span className="block text-xs">{reasons.join("; ")}</span> : null}
    </span>
  );
}

/** The events so far, then (with JavaScript) the stream's: resumes after the last one the server rendered. */
function useLiveEvents(kind: DeviceKind, deviceId: string, sseId: string, initial: ActivationEvent[]) {
  const [events, setEvents] = useState(initial);
  const [state, setState] = useState<StreamState | null>(null);
  const initiallyDone = testState(initial).done;
  const lastSeq = initial.at(-1)?.seq ?? 0;
  useEffect(() => {
    setEvents(initial);
    if (initiallyDone) return;
    let handle: { close(): void } | null = null;
    // Spec 3 §4, §9: the progress stream starts 3 s after the start succeeded.
    const timer = setTimeout(() => {
      handle = openEventStream({
        url: activationStreamHref(kind, deviceId, sseId),
        lastEventId: lastSeq ? String(lastSeq) : null,
        backoff: { startMs: activationStream.backoffStartMs, maxMs: activationStream.backoffMaxMs },
        onMessage: (m) => {
          const event = JSON.parse(m.data) as ActivationEvent; // why: the platform's ActivationEvent as JSON
          setEvents((prev) => (prev.some((e) => e.seq === event.seq) ? prev : [...prev, event]));
        },
        isFinal: (m) => (JSON.parse(m.data) as ActivationEvent).status !== "running",
        onState: setState,
      });
    }, activationStream.startDelayMs);
    return () => {
      clearTimeout(timer);
      handle?.close();
    };
    // The stream is (re)opened for a test, not for each render of its first events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, deviceId, sseId]);
  return { events, state };
}

function streamText(state: StreamState | null, done: boolean): string {
  if (done) return "";
  if (!state) return "Following the test…";
  switch (state.kind) {
    case "connecting":
      return state.attempt ? "Reconnecting…" : "Connecting…";
    case "open":
      return "Following the test live.";
    case "retrying":
      return `Connection lost. Reconnecting in ${Math.round(state.delayMs / 1000)} s…`;
    case "closed":
      return state.reason === "refused" ? "The test can no longer be followed." : "The stream ended before the test did: reload to see its end.";
  }
}

export function ActivationProgressDialog({ kind, device, data }: { kind: DeviceKind; device: ActivationDevice | null; data: Extract<ActivationDialogData, { dialog: "progress" }> }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const { events, state } = useLiveEvents(kind, data.deviceId, data.sseId, data.events);
  const { done, progress, status, result } = testState(events);
  const steps = events.flatMap((e) => (e.step ? [e.step] : []));
  const performance = events.find((e) => e.performance)?.performance ?? null;
  const last = events.at(-1);
  const refreshing = new URLSearchParams(location.search).get(REFRESH_PARAM) !== "off";
  return (
    <UrlDialog name={activationDialogs.progress} title="Activation Test" size="lg">
      {device ? (
        <p className="mb-2">
          <strong>{device.name}</strong> <span className="text-base-content/70 text-sm">({device.id})</span>
        </p>
      ) : null}
      {data.error ? (
        <p className="alert alert-error mb-2" role="alert">
          {data.error}
        </p>
      ) : null}
      <div className="mb-2">
        <label htmlFor="activation-progress" className="text-sm font-medium">
          Progress: {progress} %
        </label>
        <progress id="activation-progress" className="progress progress-primary w-full" max={100} value={progress} />
      </div>
      <p role="status" className="mb-2 text-sm">
        {done ? (
          <>
            {status === "completed" ? "Test completed: " : "Test failed: "}
            <Verdict value={result} />
          </>
        ) : hydrated ? (
          streamText(state, done)
        ) : (
          last?.message ?? "Starting the test…"
        )}
      </p>
      {!hydrated && !done && !data.error ? (
        <p className="mb-2 text-sm">
          {refreshing ? `This page reloads itself every ${REFRESH_SECONDS} seconds until the test is done. ` : "Reloading stopped. "}
          <Link className="link link-primary" to={hrefWith(location, { [REFRESH_PARAM]: refreshing ? "off" : null })} preventScrollReset>
            {refreshing ? "Stop reloading" : "Resume reloading"}
          </Link>{" "}
          <Link className="link link-primary" to={location.pathname + location.search} reloadDocument>
            Reload now
          </Link>
        </p>
      ) : null}
      <h3 className="mt-3 text-lg font-semibold">Messages</h3>
      <ol className="mb-3 list-decimal pl-6 text-sm" aria-label="Test messages">
        {events.map((e) => (
          <li key={e.seq}>
            <time dateTime={e.timestamp} className="text-base-content/70">
              {e.timestamp.slice(11, 19)}
            </time>{" "}
            {e.message}
          </li>
        ))}
      </ol>
      <StepsTable steps={steps} empty="No step measured yet." />
      {performance ? (
        <div className="mt-3">
          <h3 className="text-lg font-semibold">Service performance test</h3>
          <PerformanceDetails performance={performance} />
        </div>
      ) : null}
      <DialogActions cancelLabel="Close">
        {done ? (
          <a className="btn btn-primary" href={activationReportHref(kind, data.deviceId)} download>
            Download report (PDF)
          </a>
        ) : null}
      </DialogActions>
    </UrlDialog>
  );
}

function PerformanceDetails({ performance: p }: { performance: NonNullable<ActivationReport["performance"]> }) {
  return (
    <DetailsTable
      items={[
        { label: "Duration", value: durationText(p.duration_s) },
        { label: "IR", value: `${figure(p.ir_mbps)} Mbps` },
        { label: "FLR", value: `${figure(p.flr_pct)} %` },
        { label: "FTD min/avg/max", value: `${figure(p.ftd_min_ms)} / ${figure(p.ftd_avg_ms)} / ${figure(p.ftd_max_ms)} ms` },
        { label: "FDV", value: `${figure(p.fdv_ms)} ms` },
        { label: "Availability", value: `${figure(p.availability_pct)} %` },
        { label: "Result", value: verdictLabel(p.result) + (p.reasons.length ? ` (${p.reasons.join("; ")})` : "") },
      ]}
    />
  );
}

/* The report ------------------------------------------------------------------------------------- */

export function ActivationReportDialog({ kind, data }: { kind: DeviceKind; data: Extract<ActivationDialogData, { dialog: "report" }> }) {
  const r = data.report;
  return (
    <UrlDialog name={activationDialogs.report} title="Retrieve Activation Test Report" size="lg">
      {!r ? (
        <>
          <p role="alert">{data.error}</p>
          <DialogActions cancelLabel="Close" />
        </>
      ) : (
        <>
          <DetailsTable
            items={[
              { label: "Device", value: `${r.device_name} (${r.device_id})` },
              { label: "Product", value: r.prod_code },
              { label: "Peer", value: r.peer },
              { label: "MEG level", value: r.meg_level === null ? "N/A" : String(r.meg_level) },
              { label: "Sold as", value: `CIR ${figure(r.cir_mbps)} Mbps, EIR ${figure(r.eir_mbps)} Mbps` },
              { label: "Started", value: formatTime(r.started_at) },
              { label: "Finished", value: r.finished_at ? formatTime(r.finished_at) : "" },
              { label: "Service performance test", value: `${durationText(r.performance_duration_s)} at CIR` },
              { label: "Clock", value: accelerationText(r) ?? "Real time" },
              { label: "Overall result", value: verdictLabel(r.result) + (r.detail ? ` (${r.detail})` : "") },
            ]}
          />
          <div className="mt-3">
            <StepsTable steps={r.configuration} empty={reportMessages.noStep} />
          </div>
          {r.performance ? (
            <div className="mt-3">
              <h3 className="text-lg font-semibold">Service performance test</h3>
              <PerformanceDetails performance={r.performance} />
            </div>
          ) : null}
          {r.link_speed.length ? (
            <div className="mt-3">
              <SimpleTable
                caption="Link speed"
                showCaption
                columns={linkSpeedColumns(r.accelerated !== null)}
                rows={r.link_speed}
                getRowId={(x) => x.phase}
                emptyMessage={reportMessages.noSample}
                scrollRegion="Link speed samples"
              />
            </div>
          ) : null}
          <div className="modal-action">
            <DialogCancel>Close</DialogCancel>
            <a className="btn btn-primary" href={activationReportHref(kind, data.deviceId)} download>
              Download report (PDF)
            </a>
          </div>
        </>
      )}
    </UrlDialog>
  );
}
