import { z } from "@hono/zod-openapi";
import { announcementLimits, ddosFieldLabel, ddosFloods, ddosMax, ddosOrderMessages, deviceLimits, deviceMessages, perfTestHours, vlanRange, y1564PerformanceDurations, type DdosFlood } from "./devices.ts";
import { isCidr, isFqdn, isIp } from "./net.ts";
import { fieldMessages } from "./messages.ts";
import { body, bool, email, expects, idField, line, maxMessage, multiline, phone, requiredName, TIME_MAX, plainText, textPattern } from "../lib/fields.ts";
import { ipField } from "../lib/net-fields.ts";

/*
 * The request fields of the device calls (spec 3 §5, §7.1, §7.2), shared by routes/cpe.ts,
 * routes/metro.ts and routes/devices.ts: one wording per rule. In the contract so the console's
 * device forms are these fields too (app/routes/devices-shared, routers: schemas.server.ts); a
 * body that differs per kind (cpe_id or metro_id) is built per kind (routes/device-kind.ts) from
 * the kind's id and the fields here.
 */

export const cpeId = () => idField("CPE id", "cpe-7m3q9w5e1r8t");
export const metroId = () => idField("Metro id", "metro-6y2u8i4o0p3a");
export const nodeId = () => idField("Node id", "cpe-7m3q9w5e1r8t");

/** An optional IP address, or '' for none ('{what} must be an IP address.': the device dialogs' sentence). */
export const optionalIp = (what: string) =>
  line(45).refine((s) => s === "" || isIp(s), `${what} must be an IP address.`);

/** A whole number in a range (JSON numbers; a numeric string from a form is taken too): `what` names it. */
export const wholeIn = (what: string, min: number, max: number) => {
  const message = `${what} must be a whole number from ${min} to ${max}.`;
  return z.preprocess(
    (v) => (typeof v === "string" && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: (iss) => (iss.input === undefined ? "Field required" : message) })
      .int(message)
      .min(min, message)
      .max(max, message),
  );
};

/** A VLAN id (IEEE 802.1Q: 1–4094). */
export const vlanId = (what: string) => wholeIn(what, vlanRange.min, vlanRange.max);

/** A rate in Mbps: a number ≥ 0 (spec 3 §5: "must be numeric"), with the dialogs' stop. */
export const rateMbps = (what: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : v),
    z
      .number({ error: (iss) => (iss.input === undefined ? "Field required" : `${what} must be numeric.`) })
      .min(0, `${what} must be at least 0.`)
      .max(100_000, `${what} must be at most 100000.`),
  );

/** A number in a range, one sentence for anything else (Edit Site's coordinates, with the dialog's stop). */
const numberIn = (what: string, min: number, max: number) => {
  const message = `${what} must be a number from ${min} to ${max}.`;
  return z.number({ error: message }).min(min, message).max(max, message);
};
export const latitude = () => numberIn("Latitude", -90, 90);
export const longitude = () => numberIn("Longitude", -180, 180);

export const optionalText = (max: number) => line(max).optional();
export const contactFields = {
  contact_name: optionalText(deviceLimits.contact),
  contact_email: z.union([z.literal(""), email(undefined, { keepCase: true })]).optional(),
  contact_phone: z.union([z.literal(""), phone()]).optional(),
};

/** The device's name ('{what} is required.' when blank). */
export const deviceName = (what: string) => requiredName(what, deviceLimits.name);
export const description = () => multiline(deviceLimits.description);

/** test_type: 'ookla' or an iPerf3 server (a host name or an IP address). */
export const testType = () =>
  z
    .string({ error: expects("a valid string") })
    .trim()
    .min(1, fieldMessages.required("Test type"))
    .max(253, maxMessage(253))
    .refine((s) => s === "ookla" || isIp(s) || isFqdn(s) || /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(s), "Test type must be ookla or a host name or IP address")
    .openapi({ example: "ookla", pattern: textPattern() });

/** A toggle body's switch, beside the device's id (the console's toggle dialogs read it from a checkbox: toggleSchema). */
export const toggleSwitch = () => ({ enabled: bool() });

/** A toggle dialog's body. */
// why the cast: a computed key loses its name in TypeScript; the object has exactly these two fields.
export const toggleBody = <I extends "cpe_id" | "metro_id">(idName: I, name: string) =>
  body({ [idName]: idName === "cpe_id" ? cpeId() : metroId(), ...toggleSwitch() } as Record<I, ReturnType<typeof cpeId>> & ReturnType<typeof toggleSwitch>)
    .strict()
    .openapi(name);

/** Entity assignment: 'Select Entity Name' when none is chosen (spec 3 §5). */
export const entityNameChoice = () =>
  z
    .string({ error: (iss) => (iss.input === undefined ? deviceMessages.selectEntity : "Input should be a valid string") })
    .trim()
    .min(1, deviceMessages.selectEntity)
    .max(deviceLimits.name, maxMessage(deviceLimits.name))
    .apply(plainText);

// ---------------------------------------------------------------------------------------------
// DDoS thresholds: alert ≤ block ≤ max, each message naming the field as the dialog labels it

const thresholdSet = (flood: DdosFlood) =>
  z
    .object({
      alert_threshold: wholeIn(ddosFieldLabel(flood, "alert_threshold"), 0, ddosMax),
      block_threshold: wholeIn(ddosFieldLabel(flood, "block_threshold"), 0, ddosMax),
      max_threshold: wholeIn(ddosFieldLabel(flood, "max_threshold"), 0, ddosMax),
    })
    .strict();

type Thresholds = Record<DdosFlood, { alert_threshold: number; block_threshold: number; max_threshold: number }>;

/** Each flood's alert ≤ block ≤ max, the message beside the field that breaks it (the call's and the DDoS dialog's check). */
export function thresholdOrder(v: Thresholds, ctx: z.core.$RefinementCtx) {
  for (const f of ddosFloods) {
    const t = v[f];
    if (t.alert_threshold > t.block_threshold) ctx.addIssue({ code: "custom", path: [f, "alert_threshold"], message: ddosOrderMessages.alert(f) });
    if (t.block_threshold > t.max_threshold) ctx.addIssue({ code: "custom", path: [f, "block_threshold"], message: ddosOrderMessages.block(f) });
  }
}

export const ThresholdsBody = body({
  tcp_syn_flood_thresholds: thresholdSet("tcp_syn_flood_thresholds"),
  udp_thresholds: thresholdSet("udp_thresholds"),
  icmp_thresholds: thresholdSet("icmp_thresholds"),
})
  .strict()
  .superRefine(thresholdOrder)
  .openapi("SetDdosThresholds", { description: "Packets per second; alert ≤ block ≤ max for each flood" });

// ---------------------------------------------------------------------------------------------
// Announcements (spec 3 §5)

const fillAll = (what: string) => z.string({ error: (iss) => (iss.input === undefined ? deviceMessages.fillAll : `${what} must be a string`) });

const LATEST_ANNOUNCEMENT_START = Math.floor((TIME_MAX - announcementLimits.maxHours * 3_600_000) / 3_600_000) * 3_600_000;

export const announcementFields = {
  start_time: fillAll("Start time")
    .trim()
    .min(1, deviceMessages.fillAll)
    .max(40, maxMessage(40))
    .transform((s, ctx) => {
      const d = new Date(s);
      if (!/^\d{4}-\d{2}-\d{2}T/.test(s) || !Number.isFinite(d.getTime())) {
        ctx.addIssue({ code: "custom", message: "Start time must be an ISO 8601 time in UTC" });
        return z.NEVER;
      }
      if (d.getUTCMinutes() !== 0 || d.getUTCSeconds() !== 0 || d.getUTCMilliseconds() !== 0) {
        ctx.addIssue({ code: "custom", message: "Start time must be on the hour (00:00 to 23:00 UTC)" });
        return z.NEVER;
      }
      // The longest announcement must end where the database still holds a time (issue 63 item 24:
      // 9999-12-31T23:00Z answered 500, its end in the year 10000).
      if (d.getTime() > LATEST_ANNOUNCEMENT_START) {
        ctx.addIssue({ code: "custom", message: `Start time must be at the latest ${new Date(LATEST_ANNOUNCEMENT_START).toISOString().slice(0, 16).replace("T", " ")} UTC` });
        return z.NEVER;
      }
      return d;
    })
    .openapi({ type: "string", format: "date-time", example: "2026-12-01T02:00:00Z", description: "UTC, on the hour" }),
  duration: z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v === "" ? undefined : v),
    z
      .number({ error: (iss) => (iss.input === undefined ? deviceMessages.fillAll : deviceMessages.announcementDuration) })
      .int(deviceMessages.announcementDuration)
      .min(announcementLimits.minHours, deviceMessages.announcementDuration)
      .max(announcementLimits.maxHours, deviceMessages.announcementDuration)
      .openapi({ description: "Hours, at least 1" }),
  ),
};

export const trackingNumber = () => line(deviceLimits.tracking);

// The fields of the kinds' Assign Entity and Track Shipping beside the kind's id (device-kind.ts).
export const assignEntityFields = () => ({ new_entity_name: entityNameChoice() });
export const shippingFields = () => ({ tracking_number: trackingNumber() });

// ---------------------------------------------------------------------------------------------
// Network fields

export const ipTarget = (what: string) => ipField(what);
export const cidrField = (what: string) =>
  z
    .string({ error: expects("a valid string") })
    .trim()
    .max(49, maxMessage(49))
    .refine((s) => s === "" || isCidr(s), `${what} must be an address with its prefix (192.0.2.10/24).`);

export const hourOfDay = () => wholeIn("Hour of day", perfTestHours.min, perfTestHours.max);

/** A MAC address (six hex pairs, ':' or '-'). */
export const macField = () =>
  z
    .string({ error: expects("a valid string") })
    .trim()
    .max(17, maxMessage(17))
    .refine((s) => /^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$/.test(s), "Peer MAC must be a MAC address (00:11:22:33:44:55)");

/** Optional acceptance criteria of an activation test (defaults: FTD 10 ms, FDV 5 ms, FLR 0.01 %, availability 99.9 %). */
const delayMs = (what: string) =>
  z
    .number({ error: `${what} must be a number.` })
    .positive(`${what} must be above 0.`)
    .max(10_000, `${what} must be at most 10000.`)
    .optional();
const percent = (what: string) =>
  z
    .number({ error: `${what} must be a number.` })
    .min(0, `${what} must be 0–100.`)
    .max(100, `${what} must be 0–100.`)
    .optional();
export const criteriaFields = {
  ftd_max_ms: delayMs("Frame transfer delay"),
  fdv_max_ms: delayMs("Frame delay variation"),
  flr_max_pct: percent("Frame loss ratio"),
  availability_min_pct: percent("Availability"),
};

/** The service performance test's duration (ITU-T Y.1564: 15 min, 2 h or 24 h; default 15 min). */
export const performanceDurationField = () =>
  z
    .literal(y1564PerformanceDurations, { error: `Service performance test duration must be one of ${y1564PerformanceDurations.join(", ")} seconds (15 min, 2 h, 24 h)` })
    // why the override: the generator writes only the first value of a literal of several.
    .openapi({ type: "integer", enum: [...y1564PerformanceDurations], description: "The service performance test's duration, seconds: 900 (15 min, the default), 7200 (2 h) or 86400 (24 h), as ITU-T Y.1564 names them" })
    .optional();
