import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { announcementLimits, deviceLimits, deviceMessages, perfTestHours } from "../../../platform/contract/devices.ts";
import { assignEntityFields, shippingFields, thresholdOrder, ThresholdsBody } from "../../../platform/contract/devices-fields.shapes.ts";
import { ResetInterfaceBody, ToolQuery } from "../../../platform/contract/devices.shapes.ts";
import { text } from "../../../platform/lib/fields.ts";

/*
 * The forms of the dialogs both kinds share (spec 3 §5), one schema each. Assign Entity, Reset LAN
 * Ports, Track Shipping and DDoS Mitigation are their calls' requests (platform/contract/
 * devices-fields.shapes.ts, devices.shapes.ts), so each says the platform's words within its
 * limits. Every form names its device `device_id`: the kinds' bodies differ only in the id's name
 * (cpe_id, metro_id), which the intent sets (intents.server.ts). Server-only: zod stays out of the
 * browser.
 */

/**
 * The device under the forms' one name: the node calls' `node_id` (run_ping, reset_node: either
 * kind's id), whose limits the kinds' `cpe_id` and `metro_id` share (devices-fields.shapes.ts).
 */
export const deviceIdField = ToolQuery.shape.node_id;

export const AssignEntitySchema = requestForm(z.object({ device_id: deviceIdField, ...assignEntityFields() }));

/** reset_interface's request, the device under the form's name (the call's node_id). */
export const ResetLanSchema = requestForm(z.object({ device_id: deviceIdField, interface: ResetInterfaceBody.shape.interface }));

export const DeviceIdSchema = requestForm(z.object({ device_id: deviceIdField }));

/** run_ping's (run_traceroute's) query, the device under the form's name; which tool is the button pressed (form-only). */
export const PingSchema = requestForm(z.object({ device_id: deviceIdField, ip_address: ToolQuery.shape.ip_address, tool: z.enum(["ping", "traceroute"]).default("ping") }));

export const ShippingSchema = requestForm(
  z.object({
    device_id: deviceIdField,
    ...shippingFields(),
    // Saving nothing said "Shipping info updated." (issue 63 item 23): the dialog asks for a
    // tracking number, which the call (a JSON client may clear it) does not.
    tracking_number: text(deviceLimits.tracking, { min: 1, minMessage: "Enter a tracking number." }),
  }),
);

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

/** Delete: remove_cpe's (remove_metro's) request, its id under the form's name, and typing that id (spec 3 §5; form-only). */
export const removeSchema = (deviceId: string) => requestForm(confirmPhraseSchema(deviceId, { device_id: deviceIdField }));

/** The toggle dialogs' form (one for every switch): which toggle, the device, the switch. */
export const toggleFields = { device_id: deviceIdField, toggle: z.string() };

/** DDoS mitigation: the switch and the call's three threshold sets, alert ≤ block ≤ max (set_*_denial_of_service_thresholds). */
export const DdosSchema = requestForm(z.object({ device_id: deviceIdField, enabled: z.boolean().optional(), ...ThresholdsBody.shape }).superRefine(thresholdOrder));

/** The shared forms' HTML constraints (spread into the screen's own `formConstraints` result). */
export const deviceConstraints = formConstraints({
  assign: AssignEntitySchema,
  "reset-lan": ResetLanSchema,
  ping: PingSchema,
  shipping: ShippingSchema,
  ddos: DdosSchema,
});
