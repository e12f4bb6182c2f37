import { UntilNextBucket } from "../../components/chart/until-next-bucket.server.ts";
import type { DashboardChart } from "./model.ts";

export { bucketEnd } from "../../components/chart/until-next-bucket.server.ts";

/*
 * The prepared charts of a (session, range, charted objects), kept until the traffic's last bucket
 * ends (UntilNextBucket): get-net-stats of every object is the page's one big cost (~0.6 MB of
 * JSON for 54 objects over a day) and its buckets only change when a new one begins. Never shared
 * between sessions (the key holds the session's token); the view after a change or Refresh (the
 * redirect's, followsChange) reads afresh and keeps what it read. A `?data=` view reads
 * afresh (the table needs every object) and stores its charts, so the chart and the table show the
 * same figures.
 */

const charts = new UntilNextBucket<DashboardChart[]>();
const keyOf = (token: string, key: string) => `${key} ${token}`;

export function cachedCharts(token: string, key: string, now = Date.now()): DashboardChart[] | null {
  return charts.get(keyOf(token, key), now);
}

/** Keeps the charts (without their table) until `expires` (the end of the newest bucket). */
export function storeCharts(token: string, key: string, prepared: DashboardChart[], expires: number, now = Date.now()) {
  charts.set(keyOf(token, key), prepared.map((c) => ({ ...c, table: null })), expires, now);
}
