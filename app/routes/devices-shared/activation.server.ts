import { z } from "zod";
import { formConstraints } from "../../components/constraints.server.ts";
import { submitForm } from "../../lib/action.server.ts";
import { apiGet, callPlatformRaw, detailText } from "../../lib/api.server.ts";

import { blankAsMissing, requestForm } from "../../lib/form-fields.server.ts";
import { criteriaFields } from "../../../platform/contract/devices-fields.shapes.ts";
import { metroPeerRule, startMetroFields } from "../../../platform/contract/devices.shapes.ts";
import { deviceIdField } from "./schemas.server.ts";
import { SseParser } from "../../lib/live/event-stream.ts";
import { getUser } from "../../lib/session.server.ts";
import {
  activationDialogs,
  DEFAULT_Y1564_PERFORMANCE_DURATION,
  deviceMessages,
  idField,
  REFRESH_PARAM,
  REFRESH_SECONDS,
  SSE_PARAM,
  testState,
  y1564PerformanceDurations,
  type ActivationEvent,
  type ActivationReport,
  type DeviceKind,
} from "./activation.ts";
import { SESSION_ENDED } from "../../lib/messages.ts";
import { deviceKinds } from "./kind.ts";

/*
 * The activation test's server half, for both screens: the start form's schema and intent, and
 * what the loader reads for the open dialog (the live view's events so far, the last report).
 *
 *   // route.tsx
 *   const activation = await activationDialogData(request, "metro", dialog, dialogId);
 *   export const action = intentAction({ …, "activation-test": startActivationIntent("metro") });
 *   export const headers = activationHeaders;   // the no-JS live view's Refresh
 */

/** An acceptance criterion left blank is left out (the call's default); its limits and words are the request's. */
const criteria = {
  ftd_max_ms: blankAsMissing(criteriaFields.ftd_max_ms),
  fdv_max_ms: blankAsMissing(criteriaFields.fdv_max_ms),
  flr_max_pct: blankAsMissing(criteriaFields.flr_max_pct),
  availability_min_pct: blankAsMissing(criteriaFields.availability_min_pct),
};

// Form-only: the radio group's value (a string), the request's `performance_duration_s` in the body.
const durationChoices = y1564PerformanceDurations.map(String) as [string, ...string[]]; // why: z.enum wants a non-empty tuple; the list is a constant of three
const performanceDuration = z
  .enum(durationChoices, { error: "Choose 15 minutes, 2 hours or 24 hours." })
  .default(String(DEFAULT_Y1564_PERFORMANCE_DURATION));

/**
 * Start Activation Test: start_<kind>_test's request (spec 3 §5), one form for both kinds: the
 * layer (form-only; an Internet NID's test is L3) says which peer is sent, and the call's own rule
 * (`metroPeerRule`, the CPE's L3 alike) checks it: the peer IP, or the peer MAC and VLAN (a metro only).
 */
export const StartActivationSchema = (kind: DeviceKind) =>
  requestForm(
    z
      .object({
        device_id: deviceIdField,
        layer: kind === "metro" ? z.enum(["l3", "l2"]).default("l3") : z.literal("l3").default("l3"),
        peer_ip: startMetroFields.peer_ip,
        peer_mac: startMetroFields.peer_mac,
        vlan_id: startMetroFields.vlan_id,
        performance_duration_s: performanceDuration,
        ...criteria,
      })
      .superRefine((v, ctx) => metroPeerRule(v.layer === "l2" ? { peer_mac: v.peer_mac ?? "", vlan_id: v.vlan_id ?? "" } : { peer_ip: v.peer_ip ?? "" }, ctx)),
  );

export const activationConstraints = formConstraints({ [activationDialogs.start]: StartActivationSchema("metro") });

/** The action's intent: start_<kind>_test, then the live view of the test (its sse_id in the URL). */
export const startActivationIntent = (kind: DeviceKind) => (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: StartActivationSchema(kind),
    call: deviceKinds[kind].calls.startTest,
    body: (v) => {
      const { device_id, layer, peer_ip, peer_mac, vlan_id, performance_duration_s, ...limits } = v;
      // A limit left blank is undefined: JSON leaves it out.
      const test = { ...limits, performance_duration_s: y1564PerformanceDurations.find((d) => String(d) === performance_duration_s) };
      // The schema asked for the layer's peer: L3 its IP; L2 (a metro only) its MAC and VLAN.
      if (kind === "cpe") return { cpe_id: device_id, peer_ip: peer_ip ?? "", ...test };
      return layer === "l2" ? { metro_id: device_id, peer_mac: peer_mac ?? "", vlan_id: Number(vlan_id), ...test } : { metro_id: device_id, peer_ip: peer_ip ?? "", ...test };
    },
    fields: ["peer_ip", "peer_mac", "vlan_id", "performance_duration_s", "ftd_max_ms", "fdv_max_ms", "flr_max_pct", "availability_min_pct"],
    // Spec 3 §8: the server's status, or a default text.
    toast: (answer) => answer.status || deviceMessages.testStarted,
    redirect: (answer, v) => ({ dialog: activationDialogs.progress, id: v.device_id, [SSE_PARAM]: answer.sse_id }),
  });

export type ActivationDialogData =
  | { dialog: "progress"; deviceId: string; sseId: string; events: ActivationEvent[]; error: string | null; refresh: boolean }
  | { dialog: "report"; deviceId: string; report: ActivationReport | null; error: string | null }
  | null;

/**
 * The events of a test so far, read from the platform's stream: it sends every message written
 * up to now at once, then waits for the next step (seconds away). So: read until the final
 * message, or until the stream is quiet for `quietMs` after its burst, at most `maxMs`.
 */
export async function testEventsSoFar(request: Request, kind: DeviceKind, deviceId: string, sseId: string, quietMs = 300, maxMs = 2500) {
  const user = await getUser(request);
  if (!user) return { events: [], error: SESSION_ENDED };
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  request.signal.addEventListener("abort", onAbort, { once: true });
  const events: ActivationEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => abort.abort(), ms);
  };
  try {
    stop(maxMs);
    const upstream = await callPlatformRaw(user.access_token, "GET", `check-test-status/${kind}`, {
      query: { [idField(kind)]: deviceId, sse_id: sseId },
      headers: { accept: "text/event-stream" },
      signal: abort.signal,
    });
    if (!upstream.ok || !upstream.body) {
      await upstream.body?.cancel().catch(() => undefined);
      return { events, error: upstream.status === 404 ? "This test does not exist." : `The test's progress cannot be read (${upstream.status}).` };
    }
    const parser = new SseParser();
    const reader = upstream.body.pipeThrough(new TextDecoderStream()).getReader();
    // An aborted fetch does not always end a body already handed over (the platform thread's):
    // cancelling the reader ends the pending read.
    abort.signal.addEventListener("abort", () => void reader.cancel().catch(() => undefined), { once: true });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const m of parser.push(value)) {
        events.push(JSON.parse(m.data) as ActivationEvent); // why: the platform's ActivationEvent as JSON (devices.shapes.ts)
        stop(quietMs);
      }
      if (testState(events).done) break;
    }
    abort.abort();
    return { events, error: null };
  } catch (error) {
    if (abort.signal.aborted) return { events, error: null }; // the quiet window ended the read
    return { events, error: `The test's progress cannot be read (${(error as Error).message}).` };
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", onAbort);
  }
}

/** What the open activation dialog needs (null for any other dialog). */
export async function activationDialogData(request: Request, kind: DeviceKind, dialog: string | null, deviceId: string | null): Promise<ActivationDialogData> {
  if (!deviceId) return null;
  const params = new URL(request.url).searchParams;
  if (dialog === activationDialogs.progress) {
    const sseId = params.get(SSE_PARAM) ?? "";
    if (!sseId) return { dialog: "progress", deviceId, sseId, events: [], error: "This test does not exist.", refresh: false };
    const { events, error } = await testEventsSoFar(request, kind, deviceId, sseId);
    const refresh = !error && !testState(events).done && params.get(REFRESH_PARAM) !== "off";
    return { dialog: "progress", deviceId, sseId, events, error, refresh };
  }
  if (dialog === activationDialogs.report) {
    const res = await apiGet(request, deviceKinds[kind].calls.testReport, deviceKinds[kind].id(deviceId));
    if (res.ok) return { dialog: "report", deviceId, report: res.data, error: null };
    return { dialog: "report", deviceId, report: null, error: detailText(res.detail) || deviceMessages.noTestData };
  }
  return null;
}

/** The loader's headers for the live view without JavaScript: reload until the test is done. */
export const activationRefreshHeaders = (data: ActivationDialogData): Record<string, string> =>
  data?.dialog === "progress" && data.refresh ? { Refresh: String(REFRESH_SECONDS) } : {};

/** A route's `headers` export: the parent's (the shell's cache policy) plus the live view's Refresh. */
export function activationHeaders({ loaderHeaders, parentHeaders }: { loaderHeaders: Headers; parentHeaders: Headers }) {
  const out = new Headers(parentHeaders);
  for (const name of ["Refresh", "Cache-Control"]) {
    const value = loaderHeaders.get(name);
    if (value) out.set(name, value);
  }
  return out;
}
