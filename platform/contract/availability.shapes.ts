import { z } from "@hono/zod-openapi";
import { isoTime } from "./common.shapes.ts";

/*
 * The answers of the availability calls (platform/routes/availability.ts), once each. The console
 * imports their types only (platform/contract/availability.ts).
 */

const minutes = (description: string) => z.number().openapi({ description: `${description}, minutes (3 decimals)` });

/** The figures of one window (a device's, or an entity's devices added up). */
export const AvailabilityFigures = z
  .object({
    window_minutes: minutes("The window counted (from the device's creation, to now at most)"),
    maintenance_minutes: minutes("Announced maintenance inside the window"),
    downtime_minutes: minutes("Outage time outside announced maintenance"),
    outages: z.number().int().openapi({ description: "Outages with time outside announced maintenance" }),
    uptime_percent: z
      .number()
      .nullable()
      .openapi({ description: "(window − downtime − maintenance) / (window − maintenance) × 100, 3 decimals; null when the whole window was maintenance" }),
    slo_percent: z.number().openapi({ example: 99.9 }),
    slo_budget_minutes: minutes("The downtime the SLO allows over the window"),
    slo_met: z.boolean().nullable(),
  })
  .openapi("AvailabilityFigures");
export type AvailabilityFigures = z.infer<typeof AvailabilityFigures>;

const MaintenanceWindow = z.object({ start: isoTime(), end: isoTime() }).openapi("MaintenanceWindow");

export const DeviceAvailability = AvailabilityFigures.extend({
  node_id: z.string(),
  kind: z.enum(["cpe", "metro"]),
  name: z.string(),
  counted_from: isoTime().openapi({ description: "The window's start, or the device's creation when later" }),
  maintenance: z.array(MaintenanceWindow).openapi({ description: "Announced maintenance overlapping the window (the charts' bands)" }),
}).openapi("DeviceAvailability");
export type DeviceAvailability = z.infer<typeof DeviceAvailability>;

/** get_availability. */
export const Availability = AvailabilityFigures.extend({
  scope: z.enum(["device", "entity"]),
  id: z.string(),
  name: z.string(),
  window: z.string().openapi({ description: "The range name or the month asked for" }),
  start: isoTime(),
  end: isoTime().openapi({ description: "The window's end, now at most" }),
  label: z.string().openapi({ example: "excl. maintenance" }),
  devices: z.array(DeviceAvailability),
}).openapi("Availability");
export type Availability = z.infer<typeof Availability>;

export const SlaOutage = z
  .object({
    node_id: z.string(),
    name: z.string(),
    outage_id: z.string(),
    start_time: isoTime(),
    end_time: isoTime().nullable(),
    counted_minutes: minutes("Time in the month outside announced maintenance"),
    announced: z.boolean(),
    self_diagnosis: z.string(),
  })
  .openapi("SlaOutage");
export type SlaOutage = z.infer<typeof SlaOutage>;

/** get_sla_report: a calendar month's availability and its outages. */
export const SlaReport = Availability.extend({
  month: z.string().openapi({ example: "2026-11" }),
  generated_at: isoTime(),
  outage_list: z.array(SlaOutage),
}).openapi("SlaReport");
export type SlaReport = z.infer<typeof SlaReport>;

/** A row of the Outage History table (spec 3 §2.14): Timestamp, Status, Self Diagnosis; the outage it belongs to. */
export const OutageHistoryEntry = z
  .object({ timestamp: isoTime(), status: z.enum(["down", "up"]), self_diagnosis: z.string(), outage_id: z.string() })
  .openapi("AvailabilityOutageHistoryEntry");
export type OutageHistoryEntry = z.infer<typeof OutageHistoryEntry>;

const Hop = z.object({ hop: z.number().int(), hostname: z.string().nullable(), ip: z.string().nullable() }).openapi("OutageHop");

/** get_outage: one outage, the whole story. */
export const OutageRecord = z
  .object({
    outage_id: z.string(),
    node_id: z.string(),
    kind: z.enum(["cpe", "metro"]),
    name: z.string(),
    start_time: isoTime(),
    end_time: isoTime().nullable().openapi({ description: "null while under way" }),
    duration_s: z.number().int(),
    cause: z.string(),
    self_diagnosis: z.string(),
    recovery: z.string().nullable(),
    announced: z.boolean().openapi({ description: "Began inside announced maintenance: no alert, not counted" }),
    destination: z.string().openapi({ description: "The address the device monitors" }),
    path_at_failure: z.array(Hop).openapi({ description: "The hops that answered at the time (empty: the gateway was unreachable)" }),
    path_today: z.array(Hop),
    affected: z.object({ app_services: z.array(z.string()), endpoints: z.array(z.string()) }),
    sla_impact: z.object({
      month: z.string(),
      minutes: minutes("The outage's time outside maintenance in that month"),
      percentage_points: z.number().openapi({ description: "Of that month's uptime percentage, 3 decimals" }),
    }),
  })
  .openapi("OutageRecord");
export type OutageRecord = z.infer<typeof OutageRecord>;
