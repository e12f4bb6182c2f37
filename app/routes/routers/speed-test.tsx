import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { DialogActions } from "../../components/dialog.tsx";
import { DetailsTable } from "../../components/details-table.tsx";
import { ConformForm, FieldErrors, HiddenFields, TextField, useForm } from "../../components/forms.tsx";
import { useConstraint } from "../../components/hooks.ts";
import { showToast } from "../../components/toaster.tsx";
import { fetchSpeedTestResult, pollSpeedTest } from "../../lib/live/speed-test.ts";
import { hrefWithout } from "../../lib/url.ts";
import { deviceMessages } from "../../../platform/contract/devices.ts";
import { DeviceDialog, DeviceFormActions, DeviceLine } from "../devices-shared/device-dialog.tsx";
import { RUN_PARAMS, type CpeDetail, type SpeedTestAnswer, type SpeedTestRun } from "./model.ts";

/*
 * Run Speed Test (spec 3 §4, §8, §9): the test type (Ookla by default, or an iPerf3 server), then
 * the running test with its progress bar, then 'Speed test completed' with download, upload,
 * latency, jitter and the result URL, or 'Speed test timed out'. The running state is in the URL
 * (`&type=…&started=…&until=…`, set by the start's redirect). With JavaScript the poller
 * (app/lib/live/speed-test.ts) follows it; without, the server reads the result on every load and
 * the page reloads itself every 3 s while the test runs (and offers a link to do it now).
 */

type Result = SubmissionResult<string[]> | null | undefined;

export function SpeedTestDialog({ cpe, run, lastResult }: { cpe: CpeDetail | null; run: SpeedTestRun | null; lastResult: Result }) {
  return (
    <DeviceDialog name="speed-test" title="Run Speed Test" device={cpe}>
      {(d) => (run ? <SpeedTestRunView key={run.state === "running" ? run.startedAt : run.state} cpeId={d.cpe_id} run={run} /> : <StartForm cpe={d} lastResult={lastResult} />)}
    </DeviceDialog>
  );
}

function StartForm({ cpe, lastResult }: { cpe: CpeDetail; lastResult: Result }) {
  const [form, fields] = useForm<Record<string, string>>({ id: `speed-test-${cpe.cpe_id}`, lastResult, constraint: useConstraint("speed-test"), defaultValue: { test_kind: "ookla" } });
  const kind = fields.test_kind!;
  const chosen = String(kind.value ?? kind.initialValue ?? "ookla");
  return (
    <ConformForm form={form} intent="speed-test">
      <HiddenFields fields={{ cpe_id: cpe.cpe_id }} />
      <DeviceLine device={cpe}>measures its Internet link (speed tester {cpe.speed_test_ip || "N/A"}).</DeviceLine>
      <fieldset className="fieldset">
        <legend className="fieldset-legend">Test type</legend>
        <label className="label text-base-content cursor-pointer justify-start gap-2">
          <input type="radio" name="test_kind" value="ookla" className="radio" defaultChecked={chosen !== "host"} />
          Ookla (default)
        </label>
        <label className="label text-base-content cursor-pointer justify-start gap-2">
          <input type="radio" name="test_kind" value="host" className="radio" defaultChecked={chosen === "host"} />
          An iPerf3 server
        </label>
        <FieldErrors field={kind} />
      </fieldset>
      <TextField field={fields.host!} label="iPerf3 server" autoComplete="off" hint="For an iPerf3 test: the server's host name or IP address." />
      <DeviceFormActions intent="speed-test">Start</DeviceFormActions>
    </ConformForm>
  );
}

function SpeedTestRunView({ cpeId, run: initial }: { cpeId: string; run: SpeedTestRun }) {
  const location = useLocation();
  const [run, setRun] = useState(initial);
  const running = initial.state === "running" ? initial : null;
  useEffect(() => {
    if (!running) return;
    const url = `/routers/speed-test-result?id=${encodeURIComponent(cpeId)}&type=${encodeURIComponent(running.type)}`;
    const poller = pollSpeedTest({
      startedAt: Date.parse(running.startedAt),
      finishesAt: Date.parse(running.finishesAt),
      fetchResult: () => fetchSpeedTestResult(url),
      onProgress: (progress) => setRun((r) => (r.state === "running" ? { ...r, progress } : r)),
      onDone: (answer) => {
        setRun({ state: "done", type: running.type, answer });
        showToast(answer.status === "completed" ? { type: "success", message: deviceMessages.speedDone } : { type: "error", message: answer.detail ?? "Speed test failed" });
      },
      onTimeout: () => {
        setRun({ state: "timeout", type: running.type });
        showToast({ type: "error", message: deviceMessages.speedTimedOut });
      },
      onError: (message) => setRun({ state: "error", type: running.type, message }),
    });
    return poller.stop;
  }, [cpeId, running]);
  const again = (
    <Link to={hrefWithout(location, [...RUN_PARAMS])} className="btn btn-primary" preventScrollReset>
      Run again
    </Link>
  );
  return (
    <div aria-live="polite">
      {run.state === "running" ? (
        <>
          {/* Without JavaScript the page reloads itself while the test runs (inside noscript: the poller does it otherwise). */}
          <noscript>
            <meta httpEquiv="refresh" content="3" />
          </noscript>
          {/* The focus comes here from Start, whose form this replaces (UrlDialog: never <body>). */}
          <p tabIndex={-1} data-dialog-focus="">
            Speed test running ({run.type === "ookla" ? "Ookla" : `iPerf3 ${run.type}`}): {run.progress} %
          </p>
          <progress className="progress progress-primary mt-2 w-full" max={100} value={run.progress} aria-label="Speed test progress" />
          <noscript>
            <p className="mt-2 text-sm">
              This page reloads itself every 3 seconds until the test is done. <a href={`${location.pathname}${location.search}`} className="link">Check now</a>
            </p>
          </noscript>
          <DialogActions cancelLabel="Close" />
        </>
      ) : run.state === "done" ? (
        <>
          <p role="status" className="font-semibold" tabIndex={-1} data-dialog-focus="">
            {run.answer.status === "completed" ? deviceMessages.speedDone : (run.answer.detail ?? "Speed test failed")}
          </p>
          <progress className="progress progress-primary mt-2 w-full" max={100} value={100} aria-label="Speed test progress" />
          {run.answer.data ? <SpeedTestFigures data={run.answer.data} /> : null}
          <DialogActions cancelLabel="Close">{again}</DialogActions>
        </>
      ) : (
        <>
          <p role="alert" className="text-error" tabIndex={-1} data-dialog-focus="">
            {run.state === "timeout" ? deviceMessages.speedTimedOut : run.message}
          </p>
          <DialogActions cancelLabel="Close">{again}</DialogActions>
        </>
      )}
    </div>
  );
}

function SpeedTestFigures({ data }: { data: NonNullable<SpeedTestAnswer["data"]> }) {
  return (
    <DetailsTable
      className="mt-3"
      items={[
        { label: "Download", value: `${data.download_speed_mbps} Mbps` },
        { label: "Upload", value: `${data.upload_speed_mbps} Mbps` },
        { label: "Latency", value: `${data.ping_latency_ms} ms` },
        { label: "Jitter", value: `${data.ping_jitter_ms} ms` },
        { label: "Packet loss", value: data.packet_loss === null ? "N/A" : `${data.packet_loss} %` },
        { label: "Server", value: data.server },
        {
          label: "Result URL",
          value: data.result_url ? (
            <a href={data.result_url} className="link link-primary break-all" rel="noreferrer noopener" target="_blank">
              {data.result_url}
            </a>
          ) : (
            "N/A"
          ),
        },
      ]}
    />
  );
}
