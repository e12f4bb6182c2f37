import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { DeviceMonitoring, LanInterfaceRow, NodeToken } from "../contract/devices.shapes.ts";
import type { MonitoringRange } from "../contract/devices.ts";
import { deviceMessages } from "../contract/devices.ts";
import { fleetOf } from "../fleet/runtime.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { randomToken, sha256 } from "../lib/crypto.ts";
import { ApiError, badRequest } from "../lib/errors.ts";
import { execRows } from "../lib/list.ts";
import { deviceLanPorts, deviceTables, eventsOf, fleetObjectOf, kindOfId, requireNode, storedDevice, storedNode, updateDevice, type DeviceKind } from "./devices.ts";
import { computeNow, type Remember } from "../lib/auth.ts";
import { deviceWindow, resolveWindow } from "./availability.ts";

/*
 * What a device answers when asked (spec 3 §7.1: run_ping, run_traceroute, run_health_check,
 * get_*_lan_interfaces, reset_interface, reset_node, generate_node_token): the fleet's answer for
 * this device now, with its stored events (announcements, resets). Resets are stored, so the
 * fleet keeps the device down while it reboots and the op state follows.
 */

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config">;

/** run_ping / run_traceroute: the tool's text. */
export async function runTool(deps: Deps, accountId: string, nodeId: string, tool: "ping" | "traceroute", address: string, now = Date.now()): Promise<{ result: string }> {
  const { d, events } = await storedNode(deps.db, accountId, nodeId);
  const fleet = fleetOf(deps);
  const obj = fleetObjectOf(d);
  return { result: tool === "ping" ? fleet.pingOutput(obj, address, now, events) : fleet.tracerouteOutput(obj, address, now, events) };
}

/**
 * run_health_check: the device's diagnostics as a JSON string (spec 3 §7.1: "response data is a
 * JSON string"); '' when the device does not answer (it is down): the console then says 'No
 * diagnostic data available to download.'
 */
export async function diagnostics(deps: Deps, accountId: string, nodeId: string, now = Date.now()): Promise<string> {
  const { d, events } = await storedNode(deps.db, accountId, nodeId);
  const fleet = fleetOf(deps);
  const obj = fleetObjectOf(d);
  if (fleet.isDown(obj, now, events)) return "";
  const data = fleet.diagnostics(obj, now, { events, target: d.ipMonitorTarget ?? undefined });
  return JSON.stringify({ ...data, name: d.name, prod_code: d.prodCode, health: fleet.healthCheck(obj, now, events) });
}

/** get_cpe_lan_interfaces / get_metro_lan_interfaces: the device's own LAN ports (deviceLanPorts). */
export async function lanInterfaces(deps: Deps, accountId: string, kind: DeviceKind, id: string, now = Date.now()): Promise<LanInterfaceRow[]> {
  const { d, events } = await storedDevice(deps.db, accountId, kind, id);
  return deviceLanPorts(deps, d, events, now).map((p) => p.port);
}

/** reset_interface: one of the device's own LAN ports goes down for a few seconds (the fleet's INTERFACE_RESET_MS); another is refused. */
export async function resetInterface(deps: Deps, accountId: string, nodeId: string, intf: string, now = Date.now()): Promise<void> {
  const d = await requireNode(deps.db, accountId, nodeId);
  const ports = deviceLanPorts(deps, d, await eventsOf(deps.db, d), now);
  const found = ports.find(({ port }) => port.intf === intf || port.name === intf);
  if (!found) {
    const msg = deviceMessages.unknownInterface(intf.slice(0, 40), ports.map(({ port }) => port.name));
    throw badRequest([{ loc: ["body", "interface"], msg, type: "value_error" }]);
  }
  await updateDevice(deps.db, accountId, d.kind, d.id, { interface_resets: { ...d.interfaceResets, [found.fleetIntf]: now } });
}

/** reset_node (hard): the device reboots; kept are the last 20 resets. */
export async function resetNode(deps: Deps, accountId: string, nodeId: string, now = Date.now()): Promise<{ down_from: string; up_at: string }> {
  const d = await requireNode(deps.db, accountId, nodeId);
  const effect = fleetOf(deps).resetEffect(fleetObjectOf(d), now);
  await updateDevice(deps.db, accountId, d.kind, d.id, { resets: [...d.resets.filter((r) => r > now - 30 * 86_400_000), now].slice(-20) });
  return effect;
}

/** How long a registration token can be used. */
export const TOKEN_TTL_MS = 7 * 86_400_000;

/** generate_node_token: a new registration token, stored hashed; the previous one stops working. */
export async function generateNodeToken(deps: Deps, accountId: string, nodeId: string, now = Date.now()): Promise<NodeToken> {
  const d = await requireNode(deps.db, accountId, nodeId);
  const token = `lwnt_${randomToken(24)}`;
  await updateDevice(deps.db, accountId, d.kind, d.id, { token_hash: sha256(token), token_issued_at: new Date(now), token_expires_at: new Date(now + TOKEN_TTL_MS) });
  return { node_id: d.id, token, expires_at: new Date(now + TOKEN_TTL_MS).toISOString(), detail: deviceMessages.tokenGenerated };
}

/**
 * register_node (the device's side, no bearer): a device presents its registration token. Only
 * the newest token of a device works, until it expires; the device is then registered.
 */
export async function registerNode(db: Db, token: string, now = Date.now()): Promise<{ node_id: string; detail: string }> {
  const hash = sha256(token);
  for (const kind of ["cpe", "metro"] as const) {
    const t = deviceTables[kind];
    const rows = await execRows<{ id: string }>(
      db,
      sql`update ${sql.identifier(t.table)} set state = 'registered' where token_hash = ${hash} and token_expires_at > ${new Date(now).toISOString()} returning ${sql.identifier(t.id)} as id`,
    );
    if (rows[0]) return { node_id: rows[0].id, detail: "Device registered." };
  }
  throw new ApiError(401, "Invalid or expired registration token");
}

/**
 * get_device_monitoring: the Monitoring tab of either kind: WAN health, RTT, loss, utilization and
 * uptime over a range. The device's rows go through `remember` (the read cache); the figures are
 * the fleet's now.
 */
export async function deviceMonitoring(deps: Deps, accountId: string, nodeId: string, range: MonitoringRange, remember: Remember = computeNow, now = Date.now()): Promise<DeviceMonitoring> {
  const { d, events, announcements, registered } = await remember(() => storedNode(deps.db, accountId, nodeId));
  const fleet = fleetOf(deps);
  const obj = fleetObjectOf(d);
  const win = resolveWindow({ range }, now);
  return {
    node_id: d.id,
    range,
    // The availability figure of the same window (one record: docs/decisions/2026-12-03-device-record-start.md).
    uptime_percent: deviceWindow(fleet, obj, { events, target: d.ipMonitorTarget ?? undefined }, win.start, win.end, now).figures.uptime_percent,
    // Never registered: no op state ('N/A'), as the device tables show it.
    op_state: registered ? (fleet.isDown(obj, now, events) ? "down" : "up") : null,
    health: fleet.wanHealth(obj, range, now, events),
    utilization: fleet.utilization(obj, range, now, events),
    announcements,
  };
}

export { kindOfId };
