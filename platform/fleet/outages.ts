import { normalise, overlap, type CauseCode, type Interval, type OutageFacts, type Prepared } from "./model.ts";
import { pathTo, wanAddresses, type Hop } from "./paths.ts";
import { iso } from "./time.ts";
import { monitoringMessages } from "../contract/messages.ts";

/*
 * Outages as the product shows them: the self-diagnosis the device made, the path at the time,
 * what recovered it, what it affected, and the post-mortem written from those facts.
 */

/** What an outage affected: the app services and endpoints served through the device or node. */
export interface Affected {
  app_services: string[];
  endpoints: string[];
}

export interface Outage {
  outage_id: string;
  node_id: string;
  start_time: string;
  /** null while the outage is under way. */
  end_time: string | null;
  duration_s: number;
  cause: CauseCode;
  self_diagnosis: string;
  recovery: string | null;
  gw_pingable: "yes" | "no";
  /** Inside an announced maintenance window: no alert was sent. */
  announced: boolean;
  /** The traceroute at the time: hops that answered before the path stopped. */
  down_hops: Hop[];
  start: number;
  end: number;
}

/** The default monitor target of a device (its ip_monitor_target when set). */
export const DEFAULT_TARGET = "8.8.8.8";

function hopName(h: Hop | undefined): string {
  return h ? `${h.hostname ?? "Unknown Host"} (${h.ip ?? "No IP"})` : "an unknown hop";
}

function describe(p: Prepared, o: OutageFacts, target: string): { diagnosis: string; recovery: string; downHops: Hop[] } {
  const path = pathTo(p, target);
  const { gateway } = wanAddresses(p);
  const at = path[o.failedHop - 1];
  const pick = <T>(xs: T[]) => xs[Math.floor(o.recoveryPick * xs.length)]!;
  switch (o.cause) {
    case "gateway_unreachable":
      return {
        diagnosis: `Default gateway ${gateway} unreachable: no ARP reply on the WAN interface`,
        recovery: pick(["The WAN interface was re-initialised by the watchdog and the gateway answered ARP again", "The provider's access router was restarted and the gateway answered again"]),
        downHops: [],
      };
    case "wan_carrier_lost":
      return {
        diagnosis: "WAN carrier lost on wan0: no link at the physical layer",
        recovery: pick(["Carrier restored after the access switch port was re-enabled", "Carrier restored after the fibre patch at the street cabinet was repaired"]),
        downHops: [],
      };
    case "upstream_routing_failure":
      return {
        diagnosis: `Upstream routing failure at hop ${o.failedHop}, ${hopName(at)}: no route to ${target}`,
        recovery: pick([`The BGP session on ${at?.hostname ?? "the router"} was re-established and its routes re-learned`, `The backbone rerouted traffic around ${at?.hostname ?? "the router"}`]),
        downHops: path.slice(0, o.failedHop),
      };
    case "upstream_packet_loss":
      return {
        diagnosis: `Packet loss above 50 % beyond hop ${o.failedHop}, ${hopName(at)}: link declared down by the monitor`,
        recovery: pick([`The congested link at ${at?.hostname ?? "the router"} was relieved by rerouting`, `A faulty line card at ${at?.hostname ?? "the router"} was taken out of service`]),
        downHops: path.slice(0, o.failedHop),
      };
    case "device_reset":
      return { diagnosis: "Device reset requested by the user: rebooting", recovery: "The device finished booting and registered again", downHops: [] };
  }
}

export function presentOutage(p: Prepared, o: OutageFacts, now: number, target: string, maintenance?: readonly Interval[]): Outage {
  const d = describe(p, o, target);
  const ongoing = o.end >= now;
  return {
    outage_id: o.outage_id,
    node_id: o.node_id,
    start_time: iso(o.start),
    end_time: ongoing ? null : iso(o.end),
    duration_s: Math.round((Math.min(o.end, now) - o.start) / 1000),
    cause: o.cause,
    self_diagnosis: d.diagnosis,
    recovery: ongoing ? null : d.recovery,
    gw_pingable: o.cause === "gateway_unreachable" || o.cause === "wan_carrier_lost" || o.cause === "device_reset" ? "no" : "yes",
    announced: overlap(normalise(maintenance), o.start, o.start + 1) > 0,
    down_hops: d.downHops,
    start: o.start,
    end: o.end,
  };
}

/** A row of the Outage History table: one 'down' row at the start, one 'up' row at the end. */
export interface OutageHistoryRow {
  timestamp: string;
  status: "down" | "up";
  self_diagnosis: string;
  outage_id: string;
}

export function historyRows(outages: readonly Outage[]): OutageHistoryRow[] {
  const rows: OutageHistoryRow[] = [];
  for (const o of outages) {
    if (o.end_time) rows.push({ timestamp: o.end_time, status: "up", self_diagnosis: `Link restored: ${o.recovery}`, outage_id: o.outage_id });
    rows.push({ timestamp: o.start_time, status: "down", self_diagnosis: o.self_diagnosis, outage_id: o.outage_id });
  }
  // Newest first, as the table shows them.
  return rows.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
}

/** Route (spec 3 §3): the current path (up hops) beside the path at the last outage (down hops). */
export interface Route {
  destination: string;
  up_timestamp_utc: string;
  down_timestamp_utc: string | null;
  up_hops: { hop: number; hostname: string | null; ip: string | null }[];
  down_hops: { hop: number; hostname: string | null; ip: string | null }[];
}

const plainHop = (h: Hop) => ({ hop: h.hop, hostname: h.hostname, ip: h.ip });

export function route(p: Prepared, target: string, now: number, last: Outage | undefined, downNow: boolean): Route {
  const current = pathTo(p, target);
  return {
    destination: target,
    up_timestamp_utc: iso(downNow && last ? last.start : now),
    down_timestamp_utc: last ? last.start_time : null,
    // While the device is down, the current path is where it stops.
    up_hops: (downNow && last ? last.down_hops : current).map(plainHop),
    down_hops: (last?.down_hops ?? []).map(plainHop),
  };
}

function duration(s: number): string {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return [h ? `${h} h` : "", m ? `${m} min` : "", !h && sec ? `${sec} s` : ""].filter(Boolean).join(" ") || "0 s";
}

/** The post-mortem analysis of an outage, as markdown (the spec renders it and makes analysis.pdf of it). */
export function postMortemMarkdown(p: Prepared, o: Outage, affected: Affected, target: string, deviceName?: string): string {
  const name = deviceName ? `${deviceName} (${p.id})` : p.id;
  const path = pathTo(p, target);
  const lines: string[] = [];
  lines.push(`# Post-mortem: outage of ${name}`, "");
  lines.push("## Summary", "");
  lines.push(
    o.end_time
      ? `The WAN link of **${name}** was down for **${duration(o.duration_s)}**, from ${o.start_time} to ${o.end_time} (UTC).`
      : `The WAN link of **${name}** has been down since ${o.start_time} (UTC), **${duration(o.duration_s)}** so far.`,
    "",
  );
  if (o.announced) lines.push("The outage began inside an announced maintenance window: no alert was sent and it does not count against the uptime.", "");
  lines.push("## What failed first", "", o.self_diagnosis + ".", "");
  lines.push("## Where", "");
  if (o.down_hops.length === 0) {
    lines.push(`The path stopped before the first hop: the device could not reach its default gateway, ${path[0]?.ip}, at the provider's ${p.pop.city} point of presence.`, "");
  } else {
    const last = o.down_hops[o.down_hops.length - 1]!;
    lines.push(`The traceroute towards ${target} at the time answered up to hop ${last.hop}, ${last.hostname ?? "Unknown Host"} (${last.ip ?? "No IP"}), and stopped there.`, "");
  }
  lines.push("| Hop | Host | IP | At the time |", "|---|---|---|---|");
  for (const h of path) {
    const answered = o.down_hops.some((d) => d.hop === h.hop);
    lines.push(`| ${h.hop} | ${h.hostname ?? "Unknown Host"} | ${h.ip ?? "No IP"} | ${answered ? "answered" : "no answer"} |`);
  }
  lines.push("");
  lines.push("## How long", "", `${duration(o.duration_s)}${o.end_time ? "" : " (still under way)"}.`, "");
  lines.push("## What recovered it", "", `${o.recovery || monitoringMessages.notRecovered}.`, "");
  lines.push("## What it affected", "");
  if (!affected.app_services.length && !affected.endpoints.length) lines.push("No app service or endpoint is served through this device.", "");
  else {
    if (affected.app_services.length) lines.push(`- App services: ${affected.app_services.join(", ")}`);
    if (affected.endpoints.length) lines.push(`- Endpoints: ${affected.endpoints.join(", ")}`);
    lines.push("");
  }
  lines.push("## Timeline (UTC)", "");
  lines.push(`- ${o.start_time}: the monitor lost the link (${o.cause.replace(/_/g, " ")}); op state down.`);
  if (o.end_time) lines.push(`- ${o.end_time}: ${o.recovery}; op state up.`);
  lines.push("");
  return lines.join("\n");
}

/** The markdown in chunks, as the analysis stream sends it. */
export function* chunks(text: string, size = 200): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}
