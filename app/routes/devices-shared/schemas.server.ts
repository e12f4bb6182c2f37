import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { hiddenId } from "../../lib/form-fields.server.ts";
import { isIp } from "../../../platform/contract/net.ts";
import { announcementLimits, ddosFieldLabel, ddosFloods, ddosMax, ddosOrderMessages, deviceLimits, deviceMessages, perfTestHours, type DdosFlood, type DdosThreshold } from "../../../platform/contract/devices.ts";
import { maxMessage } from "../../../platform/lib/fields.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The forms of the dialogs both kinds share (spec 3 §5), one schema each, with the platform's
 * words (platform/contract/devices.ts). Server-only: zod stays out of the browser.
 */

export const deviceIdField = hiddenId(formMessages.deviceIdMissing);

export const AssignEntitySchema = z.object({
  device_id: deviceIdField,
  new_entity_name: z.string({ error: deviceMessages.selectEntity }).trim().min(1, deviceMessages.selectEntity).max(deviceLimits.name, maxMessage(deviceLimits.name)),
});

export const ResetLanSchema = z.object({
  device_id: deviceIdField,
  interface: z.string({ error: deviceMessages.chooseInterface }).trim().min(1, deviceMessages.chooseInterface).max(20, maxMessage(20)),
});

export const DeviceIdSchema = z.object({ device_id: deviceIdField });

export const IP_MESSAGE = "Enter a valid IP address.";
const ipAddress = z.string({ error: IP_MESSAGE }).trim().max(45, IP_MESSAGE).refine(isIp, IP_MESSAGE);

export const PingSchema = z.object({ device_id: deviceIdField, ip_address: ipAddress, tool: z.enum(["ping", "traceroute"]).default("ping") });

export const ShippingSchema = z.object({
  device_id: deviceIdField,
  // Saving nothing said "Shipping info updated." (issue 63 item 23): a tracking number is asked for.
  tracking_number: z.string({ error: "Enter a tracking number." }).trim().min(1, "Enter a tracking number.").max(deviceLimits.tracking, maxMessage(deviceLimits.tracking)),
});

/** Announcement: date, an hour 00:00–23:00 and a duration ≥ 1 hour; 'Please fill out all fields.' when one is missing (spec 3 §5). */
export const AnnouncementSchema = z
  .object({
    device_id: deviceIdField,
    date: z.string().trim().optional(),
    hour: z.string().trim().optional(),
    duration: z.string().trim().optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.date || !v.hour || !v.duration) {
      ctx.addIssue({ code: "custom", path: [], message: deviceMessages.fillAll });
      // Each missing field is marked too, its message beside it (issue 63 item 18).
      if (!v.date) ctx.addIssue({ code: "custom", path: ["date"], message: "Choose a date." });
      if (!v.hour) ctx.addIssue({ code: "custom", path: ["hour"], message: "Choose a time." });
      if (!v.duration) ctx.addIssue({ code: "custom", path: ["duration"], message: "Enter a duration." });
      return;
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v.date) || !Number.isFinite(Date.parse(`${v.date}T00:00:00Z`))) ctx.addIssue({ code: "custom", path: ["date"], message: "Enter a valid date." });
    const hour = Number(v.hour);
    if (!/^\d{1,2}$/.test(v.hour) || hour < perfTestHours.min || hour > perfTestHours.max) ctx.addIssue({ code: "custom", path: ["hour"], message: "Choose a time from 00:00 to 23:00." });
    const duration = Number(v.duration);
    const { minHours, maxHours } = announcementLimits;
    // Maintenance is left out of availability: a window in the past would erase outages (issue 63).
    if (hour >= 0 && Date.parse(`${v.date}T${String(hour).padStart(2, "0")}:00:00Z`) < Date.now()) ctx.addIssue({ code: "custom", path: ["date"], message: deviceMessages.announcementPast });
    if (!/^\d+$/.test(v.duration) || duration < minHours || duration > maxHours) ctx.addIssue({ code: "custom", path: ["duration"], message: `Duration must be a whole number of hours from ${minHours} to ${maxHours}.` });
  })
  .transform((v) => ({ device_id: v.device_id, start_time: `${v.date}T${String(Number(v.hour)).padStart(2, "0")}:00:00Z`, duration: Number(v.duration) }));

/** Delete: typing the device id (spec 3 §5). The phrase is the id the form names. */
export const removeSchema = (deviceId: string) => confirmPhraseSchema(deviceId, { device_id: deviceIdField });

/** The toggle dialogs' form (one for every switch): which toggle, the device, the switch. */
export const toggleFields = { device_id: deviceIdField, toggle: z.string() };

// DDoS mitigation: the switch and three threshold sets, alert ≤ block ≤ max, each message naming the field as the dialog labels it.
const threshold = (flood: DdosFlood, key: DdosThreshold) => {
  const message = `${ddosFieldLabel(flood, key)} must be a whole number from 0 to ${ddosMax}`;
  return z.coerce.number({ error: message }).int(message).min(0, message).max(ddosMax, message);
};
const thresholdSet = (flood: DdosFlood) =>
  z.object({
    alert_threshold: threshold(flood, "alert_threshold"),
    block_threshold: threshold(flood, "block_threshold"),
    max_threshold: threshold(flood, "max_threshold"),
  });

export const DdosSchema = z
  .object({
    device_id: deviceIdField,
    enabled: z.boolean().optional(),
    tcp_syn_flood_thresholds: thresholdSet("tcp_syn_flood_thresholds"),
    udp_thresholds: thresholdSet("udp_thresholds"),
    icmp_thresholds: thresholdSet("icmp_thresholds"),
  })
  .superRefine((v, ctx) => {
    for (const f of ddosFloods) {
      const t = v[f];
      if (t.alert_threshold > t.block_threshold) ctx.addIssue({ code: "custom", path: [f, "alert_threshold"], message: ddosOrderMessages.alert(f) });
      if (t.block_threshold > t.max_threshold) ctx.addIssue({ code: "custom", path: [f, "block_threshold"], message: ddosOrderMessages.block(f) });
    }
  });

/** The shared forms' HTML constraints (spread into the screen's own `formConstraints` result). */
export const deviceConstraints = formConstraints({
  assign: AssignEntitySchema,
  "reset-lan": ResetLanSchema,
  ping: PingSchema,
  shipping: ShippingSchema,
  ddos: DdosSchema,
});
