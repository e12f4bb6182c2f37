import { APPS, EPHEMERAL_LOW, EPHEMERAL_SPAN, type AppEntry } from "./apps.ts";
import { M, mix32, u01 } from "./hash.ts";
import type { Prepared } from "./model.ts";
import { resolveAddress } from "./paths.ts";
import type { Traffic } from "./series.ts";
import { iso } from "./time.ts";
import type { TopTalker } from "../contract/app-services.shapes.ts";
import type { EndpointSession, NetflowRow } from "../contract/endpoints.shapes.ts";

// The rows the platform answers: each shape is declared once, in platform/contract.
export type { TopTalker, NetflowRow, EndpointSession };

/*
 * Flows: what an object's traffic is made of. Every byte of the traffic series is accounted for
 * by exactly one netflow row of the same bucket, so the rows add up to the chart.
 */

/** Bytes in a bucket: its average rate × its length, whole bytes. */
export function bucketBytes(rate: number, stepMs: number): number {
  return Math.round((rate * stepMs) / 1000);
}

export function totals(tr: Traffic, stepMs: number): { tx: number; rx: number } {
  let tx = 0;
  let rx = 0;
  for (let i = 0; i < tr.t.length; i++) {
    tx += bucketBytes(tr.tx[i]!, stepMs);
    rx += bucketBytes(tr.rx[i]!, stepMs);
  }
  return { tx, rx };
}

/** The object's apps by bytes, most first: the catalogue's weights × bytes per hit, perturbed per object. */
export function appOrder(p: Prepared, salt: number): AppEntry[] {
  return APPS.map((a, i) => ({ a, s: a.weight * Math.sqrt(a.kb) * (0.35 + u01(p.key, M.apps, i + salt * 1000)) }))
    .sort((x, y) => y.s - x.s)
    .map((x) => x.a);
}

/** The endpoint's private address (endpoints are users' machines behind the service). */
export function endpointAddress(p: Prepared): string {
  const h = mix32(p.key ^ 0xe9);
  return `10.${(h >>> 8) & 255}.${(h >>> 16) & 255}.${2 + (h % 250)}`;
}

/**
 * The endpoint's netflows over the window: 1–3 flows per bucket that carried traffic, sharing
 * the bucket's bytes (the last flow takes the rounding remainder, so the sums are exact).
 */
export function netflows(p: Prepared, tr: Traffic, stepMs: number): NetflowRow[] {
  const apps = appOrder(p, 1).slice(0, 12);
  const src = endpointAddress(p);
  const rows: NetflowRow[] = [];
  for (let i = 0; i < tr.t.length; i++) {
    const tx = bucketBytes(tr.tx[i]!, stepMs);
    const rx = bucketBytes(tr.rx[i]!, stepMs);
    if (tx === 0 && rx === 0) continue;
    const t0 = tr.t[i]!;
    const m = Math.floor(t0 / 60000);
    const k = 1 + Math.floor(u01(p.key, M.flows, m) * 3);
    const weights: number[] = [];
    let sum = 0;
    for (let j = 0; j < k; j++) {
      const w = 0.2 + u01(p.key, M.flows, m * 8 + j + 1);
      weights.push(w);
      sum += w;
    }
    let txLeft = tx;
    let rxLeft = rx;
    for (let j = 0; j < k; j++) {
      const last = j === k - 1;
      const ftx = last ? txLeft : Math.floor((tx * weights[j]!) / sum);
      const frx = last ? rxLeft : Math.floor((rx * weights[j]!) / sum);
      txLeft -= ftx;
      rxLeft -= frx;
      // Zipf-like choice of the app: low ranks far more often.
      const r = u01(p.key, M.session, m * 8 + j);
      const app = apps[Math.min(apps.length - 1, Math.floor(apps.length * r * r * r))]!;
      const startOff = Math.floor(u01(p.key, M.session, m * 8 + j + 4) * stepMs * 0.3);
      const endOff = stepMs - Math.floor(u01(p.key, M.session, m * 8 + j + 5) * stepMs * 0.2);
      rows.push({
        start_time: iso(t0 + startOff),
        end_time: iso(t0 + endOff - 1),
        src_addr: src,
        dst_addr: resolveAddress(`${app.app_name}.${(m + j) % 7}`),
        src_port: EPHEMERAL_LOW + (mix32(p.key ^ (m * 8 + j)) % EPHEMERAL_SPAN),
        dst_port: app.port,
        proto: app.protocol,
        app_name: app.app_name,
        tx_bytes: ftx,
        rx_bytes: frx,
      });
    }
  }
  return rows;
}

export function currentSessions(rows: readonly NetflowRow[]): EndpointSession[] {
  return rows.map((r) => ({
    src_address: r.src_addr,
    dst_address: r.dst_addr,
    protocol: r.proto,
    ports: `${r.src_port} → ${r.dst_port}`,
    tx_bytes: r.tx_bytes,
    rx_bytes: r.rx_bytes,
    established: r.start_time,
  }));
}

/** Session (spec 3 §3) and Application visibility row (spec 1 §3): one row per application seen. */
export interface AppSession {
  node_id: string;
  start_time: string;
  performance: "good" | "not good";
  app_name: string;
  description: string;
  port: number;
  protocol: string;
  hits: number;
  bytes: number;
}

/** App visibility (spec 3 §3). */
export interface AppVisibility {
  top_app_by_hits: { app_name: string; hits: number }[];
  top_app_by_bytes: { app_name: string; bytes: number }[];
  total_apps: number;
  total_visits: number;
  total_bytes: number;
  sessions: AppSession[];
}

/**
 * Application visibility of a device over the window: its bytes (the traffic series' bytes)
 * shared among 12–25 applications with Zipf-like shares; hits likewise but in another order
 * (DNS and NTP are many small hits). Performance is 'not good' for real-time apps when the
 * link had loss, and for a few others at random.
 */
export function appVisibility(p: Prepared, tr: Traffic, stepMs: number, windowStart: number, lossy: boolean): AppVisibility {
  const { tx, rx } = totals(tr, stepMs);
  const totalBytes = tx + rx;
  const k = 12 + Math.floor(u01(p.key, M.apps, 999) * 14);
  const byBytes = appOrder(p, 2).slice(0, k);
  const zipf = byBytes.map((_, i) => 1 / (i + 1) ** 1.1);
  const zsum = zipf.reduce((a, b) => a + b, 0);
  const bytes = new Map<string, number>();
  let left = totalBytes;
  byBytes.forEach((a, i) => {
    const b = i === byBytes.length - 1 ? left : Math.floor((totalBytes * zipf[i]!) / zsum);
    left -= b;
    bytes.set(a.app_name, b);
  });
  // Hits: by how common the app is over its bytes per hit (DNS and NTP are many small hits), perturbed.
  const hitScore = (a: AppEntry) => (a.weight / Math.sqrt(a.kb)) * (0.5 + u01(p.key, M.appShare, a.port));
  const hitsOrder = [...byBytes].sort((a, b) => hitScore(b) - hitScore(a));
  const visits = Math.round(totalBytes / 45_000);
  const hits = new Map<string, number>();
  hitsOrder.forEach((a, i) => hits.set(a.app_name, Math.round((visits * (1 / (i + 1) ** 1.05)) / zsum)));
  const sessions: AppSession[] = byBytes.map((a, i) => {
    const realtime = a.protocol === "UDP" && a.port !== 53 && a.port !== 123;
    const bad = (lossy && realtime) || u01(p.key, M.session, 7000 + i) < 0.08;
    return {
      node_id: p.id,
      start_time: iso(windowStart + Math.floor(u01(p.key, M.session, 8000 + i) * 3600_000)),
      performance: bad ? "not good" : "good",
      app_name: a.app_name,
      description: a.description,
      port: a.port,
      protocol: a.protocol,
      hits: hits.get(a.app_name)!,
      bytes: bytes.get(a.app_name)!,
    };
  });
  const totalVisits = sessions.reduce((s, x) => s + x.hits, 0);
  return {
    top_app_by_hits: [...sessions].sort((a, b) => b.hits - a.hits).slice(0, 10).map((s) => ({ app_name: s.app_name, hits: s.hits })),
    top_app_by_bytes: sessions.slice(0, 10).map((s) => ({ app_name: s.app_name, bytes: s.bytes })),
    total_apps: sessions.length,
    total_visits: totalVisits,
    total_bytes: totalBytes,
    sessions,
  };
}
