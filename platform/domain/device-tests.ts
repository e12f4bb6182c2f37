import { and, desc, eq, sql } from "drizzle-orm";
import { pgErrorCode, type DbOrTx } from "../db/client.ts";
import { deviceTestEvents, deviceTests } from "../db/schema.ts";
import { DEFAULT_Y1564_PERFORMANCE_DURATION, deviceMessages, durationText, SERVICE_PRODUCT, y1564StepLabels, type Y1564PerformanceDuration } from "../contract/devices.ts";
import type { ActivationEvent, ActivationLinkSpeed, ActivationReport, ActivationStarted, Y1564Criteria, Y1564Performance, Y1564Step } from "../contract/devices.shapes.ts";
import { SAT_PERFORMANCE_FROM_MS, serviceActivationPlan, type SatLinkSample, type SatPlanItem } from "../fleet/index.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { forgetCachedReads } from "../lib/auth.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { execRows } from "../lib/list.ts";
import { eventsOf, fleetObjectOf, requireDevice, stateConflict, updateDevice, type DeviceKind } from "./devices.ts";
import { notifyTest, waitForTest } from "./device-test-waker.ts";
import { defaultCriteria, gradePerformance, gradeStep, overallVerdict } from "./y1564.ts";

/*
 * The activation test (ITU-T Y.1564) of a CPE or a metro, as rows: the test (device_tests) and one
 * row per progress message (device_test_events, one per step), written once by whichever instance
 * reaches a step's time first (the fleet's plan is a pure function of the start). So a test started
 * through one instance streams from any other, and its messages and report survive a restart.
 * A write NOTIFYs `linkwise_device_tests` (device-test-waker.ts) so other instances' streams wake.
 */

type Deps = PlatformDeps;
export interface Peer {
  peer_ip?: string;
  peer_mac?: string;
  vlan_id?: number;
}

const peerText = (p: Peer) => p.peer_ip ?? `${p.peer_mac} on VLAN ${p.vlan_id}`;

type TestRow = typeof deviceTests.$inferSelect;

/** What a test's start may choose beside its peer: the acceptance criteria, the service performance test's duration (default 15 min). */
export interface TestChoices {
  criteria?: Partial<Y1564Criteria>;
  performanceS?: Y1564PerformanceDuration;
}

/** A test started before the duration could be chosen ran a 20 s service performance test. */
const LEGACY_PERFORMANCE_S = 20;

/** start_cpe_test / start_metro_test. One test at a time per device (409 while one runs). */
export async function startTest(deps: Deps, accountId: string, kind: DeviceKind, id: string, peer: Peer, choices: TestChoices = {}, now = Date.now()): Promise<ActivationStarted> {
  const performanceS = choices.performanceS ?? DEFAULT_Y1564_PERFORMANCE_DURATION;
  const d = await requireDevice(deps.db, accountId, kind, id);
  if (d.prodCode === SERVICE_PRODUCT && d.adminState !== "active") throw stateConflict(deviceMessages.notActive);
  const [last] = await deps.db.select().from(deviceTests).where(eq(deviceTests.deviceId, id)).orderBy(desc(deviceTests.startedAt)).limit(1);
  if (last && last.status === "running") {
    await advance(deps, last.sseId, now);
    const [again] = await deps.db.select({ status: deviceTests.status }).from(deviceTests).where(eq(deviceTests.sseId, last.sseId));
    if (again?.status === "running") throw stateConflict(deviceMessages.testRunning);
  }
  const obj = fleetObjectOf(d);
  const down = fleetOf(deps).isDown(obj, now, await eventsOf(deps.db, d));
  const sseId = newId("sse");
  // The check above answers the common case; two starts at once both pass it, and the partial
  // unique index (one running test per device) refuses the second.
  try {
    await deps.db.insert(deviceTests).values({
      sseId,
      accountId,
      deviceId: id,
      kind,
      deviceName: d.name,
      prodCode: d.prodCode,
      peer,
      megLevel: d.megLevel,
      cirMbps: d.cir,
      eirMbps: d.eir,
      criteria: { ...defaultCriteria(), ...choices.criteria },
      performanceS,
      // Kept with the test: every instance replays it at the same pace, and its report says it was accelerated.
      configurationSpeed: deps.config.fleetTestSpeed,
      performanceSpeed: deps.config.fleetPerformanceSpeed,
      startedAt: new Date(now),
      fleetObject: { id: d.id, kind, lat: d.lat, lon: d.lon, contractedMbps: obj.contractedMbps ?? null, down },
    });
  } catch (err) {
    if (pgErrorCode(err) === "23505") throw stateConflict(deviceMessages.testRunning);
    throw err;
  }
  await updateDevice(deps.db, accountId, kind, id, { test_status: "running" });
  await advance(deps, sseId, now);
  return { status: deviceMessages.testStarted, sse_id: sseId, started_at: new Date(now).toISOString(), performance_duration_s: performanceS };
}

const performanceOf = (t: TestRow) => t.performanceS ?? LEGACY_PERFORMANCE_S;

/**
 * The fleet's plan of the test in real time: the link checks and the configuration steps divided
 * by the test's configuration speed, the service performance test by its performance speed
 * (FLEET_TEST_SPEED, FLEET_SERVICE_PERFORMANCE_SPEED when it started; 1: real time).
 */
function planOf(deps: Deps, t: TestRow): SatPlanItem[] {
  const o = t.fleetObject;
  const plan = serviceActivationPlan(deps.config.fleetSeed, { id: o.id, kind: o.kind, lat: o.lat, lon: o.lon, contractedMbps: o.contractedMbps }, {
    cirMbps: t.cirMbps,
    eirMbps: t.eirMbps,
    peer: peerText(t.peer),
    startedAt: t.startedAt.getTime(),
    down: o.down,
    performanceS: performanceOf(t),
  });
  const first = t.configurationSpeed;
  const then = t.performanceSpeed;
  if (first === 1 && then === 1) return plan;
  const from = SAT_PERFORMANCE_FROM_MS;
  return plan.map((item) => ({ ...item, at: Math.round(item.at <= from ? item.at / first : from / first + (item.at - from) / then) }));
}

/** The test ran faster than real time (null: it did not). */
const accelerationOf = (t: TestRow) => (t.configurationSpeed === 1 && t.performanceSpeed === 1 ? null : { configuration: t.configurationSpeed, performance: t.performanceSpeed });

/** The progress message of a plan item, graded. */
function eventOf(t: TestRow, item: SatPlanItem, seq: number, total: number, graded: { steps: Y1564Step[] }): ActivationEvent {
  const timestamp = new Date(t.startedAt.getTime() + item.at).toISOString();
  const sampleOf = (phase: string, x: SatLinkSample): ActivationLinkSpeed => ({ timestamp, "tx.mbps": x.tx_mbps, "rx.mbps": x.rx_mbps, phase });
  // Progress in real time: over a 15-minute performance test the steps are its first few percent.
  const base = { seq, timestamp, progress: Math.min(100, Math.floor((item.at / total) * 100)), step: null, performance: null, link_speed: null, result: null };
  const sold = { cir_mbps: t.cirMbps, eir_mbps: t.eirMbps };
  if (item.kind === "step") {
    const step = gradeStep(item.step, item.measurement, sold, t.criteria);
    graded.steps.push(step);
    const m = item.measurement;
    const n = graded.steps.length;
    return {
      ...base,
      status: "running",
      step,
      link_speed: sampleOf(y1564StepLabels[item.step], item.sample),
      message: `Step ${n}/6, ${y1564StepLabels[item.step]} (${m.offered_mbps} Mbps offered): IR ${m.ir_mbps} Mbps, FLR ${m.flr_pct} %, FTD ${m.ftd_min_ms}/${m.ftd_avg_ms}/${m.ftd_max_ms} ms, FDV ${m.fdv_ms} ms: ${step.result.toUpperCase()}`,
    };
  }
  if (item.kind === "performance_progress") {
    return { ...base, status: "running", link_speed: sampleOf(`Service performance test, ${durationText(item.elapsed_s)} of ${durationText(item.duration_s)}`, item.sample), message: item.message };
  }
  if (item.kind === "performance") {
    const performance = gradePerformance(item.measurement, sold, t.criteria);
    const result = overallVerdict(graded.steps, performance);
    const m = item.measurement;
    return {
      ...base,
      progress: 100,
      status: "completed",
      performance,
      link_speed: sampleOf(`Service performance test, ${durationText(m.duration_s)} of ${durationText(m.duration_s)}`, item.sample),
      result,
      message: `Service performance test (${durationText(m.duration_s)} at CIR): IR ${m.ir_mbps} Mbps, FLR ${m.flr_pct} %, FTD ${m.ftd_avg_ms} ms, FDV ${m.fdv_ms} ms, availability ${m.availability_pct} %: ${performance.result.toUpperCase()}. Test completed: ${result.toUpperCase()}`,
    };
  }
  if (item.kind === "failed") return { ...base, progress: 100, status: "failed", result: "fail", message: item.message };
  return { ...base, status: "running", message: item.message };
}

/** Every message of the plan with its time (ms since the epoch). */
function eventsOfPlan(t: TestRow, plan: SatPlanItem[]): { at: number; event: ActivationEvent }[] {
  const total = plan[plan.length - 1]!.at || 1;
  const graded = { steps: [] as Y1564Step[] };
  return plan.map((item, i) => ({ at: t.startedAt.getTime() + item.at, event: eventOf(t, item, i + 1, total, graded) }));
}

/**
 * Writes the messages that are due at `now` (once: a conflict means another instance wrote it),
 * and the result when the last is due; wakes the streams. Answers when the next message is due
 * (null: the test is over).
 */
export async function advance(deps: Deps, sseId: string, now = Date.now()): Promise<number | null> {
  const [t] = await deps.db.select().from(deviceTests).where(eq(deviceTests.sseId, sseId));
  if (!t || t.status !== "running") return null;
  const all = eventsOfPlan(t, planOf(deps, t));
  const due = all.filter((e) => e.at <= now);
  let wrote = 0;
  if (due.length) {
    const rows = await execRows<{ seq: number }>(
      deps.db,
      sql`insert into device_test_events (sse_id, seq, at, data) values ${sql.join(
        due.map((e) => sql`(${sseId}, ${e.event.seq}, ${new Date(e.at).toISOString()}, ${JSON.stringify(e.event)})`),
        sql`, `,
      )} on conflict do nothing returning seq`,
    );
    wrote = rows.length;
  }
  const last = all[all.length - 1]!;
  if (last.at <= now) {
    const report = reportFrom(t, all.map((e) => e.event));
    const done = await execRows<{ sse_id: string }>(
      deps.db,
      sql`update device_tests set status = ${report.status}, finished_at = ${new Date(last.at).toISOString()}, result = ${report.result}, report = ${JSON.stringify(report)}
        where sse_id = ${sseId} and status = 'running' returning sse_id`,
    );
    if (done.length) {
      await deps.db.execute(
        sql`update ${sql.identifier(t.kind === "cpe" ? "cpes" : "metros")} set test_status = ${report.result === "pass" ? "passed" : "failed"} where ${sql.identifier(t.kind === "cpe" ? "cpe_id" : "metro_id")} = ${t.deviceId}`,
      );
      await forgetCachedReads(deps, [t.accountId]);
    }
    if (wrote || done.length) await notifyTest(deps, sseId);
    return null;
  }
  if (wrote) await notifyTest(deps, sseId);
  return all.find((e) => e.at > now)!.at;
}

function reportFrom(t: TestRow, events: ActivationEvent[]): ActivationReport {
  const failed = events.find((e) => e.status === "failed");
  const configuration = events.flatMap((e) => (e.step ? [e.step] : []));
  const performance: Y1564Performance | null = events.find((e) => e.performance)?.performance ?? null;
  const finishedAt = t.finishedAt ?? (events.length ? new Date(events[events.length - 1]!.timestamp) : null);
  const over = Boolean(failed) || performance !== null;
  return {
    sse_id: t.sseId,
    device_id: t.deviceId,
    device_name: t.deviceName,
    kind: t.kind === "cpe" ? "cpe" : "metro",
    prod_code: t.prodCode,
    peer: peerText(t.peer),
    meg_level: t.megLevel,
    cir_mbps: t.cirMbps,
    eir_mbps: t.eirMbps,
    started_at: t.startedAt.toISOString(),
    finished_at: over && finishedAt ? finishedAt.toISOString() : null,
    status: failed ? "failed" : performance ? "completed" : "running",
    criteria: t.criteria,
    configuration,
    performance,
    performance_duration_s: performanceOf(t),
    accelerated: accelerationOf(t),
    // Messages written before the samples existed have none.
    link_speed: events.flatMap((e) => (e.link_speed ? [e.link_speed] : [])),
    result: failed ? "fail" : performance ? overallVerdict(configuration, performance) : null,
    detail: failed?.message ?? null,
  };
}

/** The test of this device of the account (404 otherwise). */
async function requireTest(deps: Deps, accountId: string, kind: DeviceKind, deviceId: string, sseId: string): Promise<TestRow> {
  const [t] = await deps.db
    .select()
    .from(deviceTests)
    .where(and(eq(deviceTests.sseId, sseId), eq(deviceTests.accountId, accountId), eq(deviceTests.deviceId, deviceId), eq(deviceTests.kind, kind)));
  if (!t) throw notFound("Test not found");
  return t;
}

const eventsAfter = (db: DbOrTx, sseId: string, after: number) =>
  db
    .select({ seq: deviceTestEvents.seq, data: deviceTestEvents.data })
    .from(deviceTestEvents)
    .where(and(eq(deviceTestEvents.sseId, sseId), sql`${deviceTestEvents.seq} > ${after}`))
    .orderBy(deviceTestEvents.seq);

/** Checks the test is the caller's (404 before the stream starts). */
export const openTestStream = (deps: Deps, accountId: string, kind: DeviceKind, deviceId: string, sseId: string) => requireTest(deps, accountId, kind, deviceId, sseId);

/**
 * check-test-status: every message after `after` (Last-Event-ID), each once, as it is written by
 * any instance; ends after the final one. Waits for the next due time or a NOTIFY, whichever first.
 */
export async function* testEvents(deps: Deps, sseId: string, after: number, signal: AbortSignal, clock: () => number = Date.now): AsyncGenerator<ActivationEvent> {
  let last = after;
  while (!signal.aborted) {
    const next = await advance(deps, sseId, clock());
    for (const e of await eventsAfter(deps.db, sseId, last)) {
      last = e.seq;
      const event = e.data as unknown as ActivationEvent; // why: the row holds what eventOf made (ActivationEvent as JSON)
      yield event;
      if (event.status !== "running") return;
    }
    const [t] = await deps.db.select({ status: deviceTests.status }).from(deviceTests).where(eq(deviceTests.sseId, sseId));
    if (!t || (t.status !== "running" && next === null)) {
      // Over, and every message sent (a final one is always written before the status changes).
      const rest = await eventsAfter(deps.db, sseId, last);
      if (rest.length === 0) return;
      continue;
    }
    const wait = next === null ? 1000 : Math.max(10, next - clock());
    await waitForTest(deps, sseId, Math.min(wait, 15_000), signal);
  }
}

/** get_*_test_report: the last finished test of the device ('There is no test data.' when none). */
export async function testReport(deps: Deps, accountId: string, kind: DeviceKind, deviceId: string, now = Date.now()): Promise<ActivationReport> {
  await requireDevice(deps.db, accountId, kind, deviceId);
  const running = await deps.db
    .select({ sseId: deviceTests.sseId })
    .from(deviceTests)
    .where(and(eq(deviceTests.deviceId, deviceId), eq(deviceTests.accountId, accountId), eq(deviceTests.status, "running")));
  for (const r of running) await advance(deps, r.sseId, now);
  const [t] = await deps.db
    .select({ report: deviceTests.report })
    .from(deviceTests)
    .where(and(eq(deviceTests.deviceId, deviceId), eq(deviceTests.accountId, accountId), sql`${deviceTests.report} is not null`))
    .orderBy(desc(deviceTests.startedAt))
    .limit(1);
  if (!t?.report) throw notFound(deviceMessages.noTestData);
  return t.report as unknown as ActivationReport; // why: the column holds what reportFrom made (ActivationReport as JSON)
}
