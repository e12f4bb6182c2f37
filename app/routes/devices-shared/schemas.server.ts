import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { toggleSchema } from "../../components/toggle.server.ts";
import { deviceLimits, deviceMessages, perfTestHours } from "../../../platform/contract/devices.ts";
import { announcementFields, assignEntityFields, shippingFields, thresholdOrder, ThresholdsBody, toggleSwitch } from "../../../platform/contract/devices-fields.shapes.ts";
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

/** cpe_add_announcement's (metro_add_announcement's) start time and duration: their limits and words. */
const AnnouncementRequest = z.object(announcementFields);

/**
 * Announcement (spec 3 §5): 'Please fill out all fields.' when the date, time or duration is
 * missing, each marked beside it too (issue 63 item 18). The call's start_time is the form's date
 * and hour (UTC, on the hour): they are composed here and checked, with the duration, by the
 * request's own fields (AnnouncementRequest), which stay the source of the limits and words.
 */
const announcementForm = z.object({
  device_id: deviceIdField,
  // Form-only: the date input and the hour select that make start_time.
  date: z.string().trim(),
  hour: z.string().trim(),
  // The request's duration, read as the text the input posts (a blank one has the dialog's words).
  duration: z.string().trim(),
});
export const AnnouncementSchema = requestForm(
  announcementForm
    .transform((v, ctx) => {
      if (!v.date || !v.hour || !v.duration) {
        ctx.addIssue({ code: "custom", path: [], message: deviceMessages.fillAll });
        if (!v.date) ctx.addIssue({ code: "custom", path: ["date"], message: "Choose a date." });
        if (!v.hour) ctx.addIssue({ code: "custom", path: ["hour"], message: "Choose a time." });
        if (!v.duration) ctx.addIssue({ code: "custom", path: ["duration"], message: "Enter a duration." });
        return z.NEVER;
      }
      const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
      const hour = Number(v.hour);
      const start_time = `${v.date}T${String(hour).padStart(2, "0")}:00:00Z`;
      // The time's own refusal, if any: one message for the date or the hour.
      const refused: [string, string] | null =
        !/^\d{4}-\d{2}-\d{2}$/.test(v.date) || !Number.isFinite(Date.parse(`${v.date}T00:00:00Z`))
          ? ["date", "Enter a valid date."]
          : !/^\d{1,2}$/.test(v.hour) || hour < perfTestHours.min || hour > perfTestHours.max
            ? ["hour", "Choose a time from 00:00 to 23:00."]
            : // Maintenance is left out of availability: a window in the past would erase outages
              // (issue 63; the call refuses it too, in the domain).
              Date.parse(start_time) < Date.now()
              ? ["date", deviceMessages.announcementPast]
              : null;
      if (refused) issue(...refused);
      const when = !refused;
      const request = AnnouncementRequest.safeParse({ start_time, duration: v.duration });
      // The request's refusal of the start time (past the last the database holds) is the date's.
      for (const i of request.error?.issues ?? []) if (i.path[0] === "duration") issue("duration", i.message);
      else if (when) issue("date", i.message);
      if (!request.success || !when) return z.NEVER;
      return { device_id: v.device_id, start_time, duration: request.data.duration };
    }),
);

/** Delete: remove_cpe's (remove_metro's) request, its id under the form's name, and typing that id (spec 3 §5; form-only). */
export const removeSchema = (deviceId: string) => requestForm(confirmPhraseSchema(deviceId, { device_id: deviceIdField }));

/**
 * The toggle dialogs' form (one for every switch, toggle.server.ts's toggleSchema): the calls'
 * request (the device under the form's name, the switch the bodies' `enabled`) and which toggle
 * (form-only: the dialog's row of toggles.ts).
 */
export const toggleFields = { device_id: deviceIdField, toggle: z.string(), ...toggleSwitch() };

/**
 * DDoS mitigation: the switch (toggle-*-denial-of-service's, read from a checkbox: one turned off
 * posts nothing, which is off) and the call's three threshold sets, alert ≤ block ≤ max
 * (set_*_denial_of_service_thresholds).
 */
export const DdosSchema = requestForm(z.object({ device_id: deviceIdField, enabled: toggleSwitch().enabled.default(false), ...ThresholdsBody.shape }).superRefine(thresholdOrder));

/** The shared forms' HTML constraints (spread into the screen's own `formConstraints` result). */
const announcement = formConstraints({ form: announcementForm, request: AnnouncementRequest });
export const deviceConstraints = {
  ...formConstraints({
    assign: AssignEntitySchema,
    "reset-lan": ResetLanSchema,
    ping: PingSchema,
    shipping: ShippingSchema,
    ddos: DdosSchema,
    // Every toggle dialog's (the value now changes only the refusal, not the constraints).
    toggle: toggleSchema(false, "enabled", toggleFields),
  }),
  // The form's fields; the duration input's limits are the request's (the form checks its text with it).
  announcement: { ...announcement.form, duration: { ...announcement.request.duration, required: true } },
};
