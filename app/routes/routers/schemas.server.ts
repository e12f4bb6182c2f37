import { z } from "zod";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { isIp } from "../../../platform/contract/net.ts";
import { cpeProductCodes, deviceLimits, scanInterval } from "../../../platform/contract/devices.ts";
import { cpeId } from "../../../platform/contract/devices-fields.shapes.ts";
import {
  ConfigurePerfTestBody,
  CreateCpeBody,
  networkRules,
  perfTestRules,
  SetCpeScanIntervalBody,
  StartCpeSpeedTestBody,
  UpdateCpeInfoBody,
  UpdateCpeIpMonitorTargetBody,
  UpdateCpeNetworkBody,
} from "../../../platform/contract/devices.shapes.ts";
import { text } from "../../../platform/lib/fields.ts";
import { deviceConstraints } from "../devices-shared/schemas.server.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The Internet NIDs screen's own forms (spec 3 §2.10, §5, §7.1), one schema each. Create Device,
 * Edit CPE Info, Edit Down Notification Interval and Edit IP Monitor Target are their calls'
 * requests (platform/contract/devices.shapes.ts); the requests are strict objects and a form also
 * posts its intent and CSRF token, so a form takes the request's fields (`.shape`) in a plain
 * object, overriding a field whose words the dialog keeps. The others keep schemas of their own
 * (docs/decisions/2026-12-03-contract.md, "Form schemas"). The dialogs both kinds share have
 * theirs in devices-shared/schemas.server.ts. Server-only: zod stays out of the browser.
 */

// The dialogs' sentences, with their full stop (issue 63 item 23), where the request's have none.
const name = text(deviceLimits.name, { min: 1, minMessage: formMessages.nameRequired });
// The request's limit: its site_address is a device name (200 characters) piped to the address's 500.
const siteAddress = text(deviceLimits.name, { min: 1, minMessage: "Site Address is required." });

const number = (what: string, min: number, max: number) =>
  z.coerce.number({ error: `${what} must be a number from ${min} to ${max}.` }).min(min, `${what} must be a number from ${min} to ${max}.`).max(max, `${what} must be a number from ${min} to ${max}.`);
const whole = (what: string, min: number, max: number) => number(what, min, max).int(`${what} must be a whole number from ${min} to ${max}.`);

// why the cast: z.enum wants a non-empty tuple; the product codes are a constant list of four.
// The select left at its placeholder says 'Select a product.' (the request's words are a JSON client's).
const product = z.enum(cpeProductCodes as [string, ...string[]], { error: "Select a product." });

/** Create Device: the request without the site's coordinates (the dialog has none; the platform places the site). */
export const CreateCpeSchema = requestForm(z.object({ ...CreateCpeBody.shape, prod_code: product, cpe_name: name, site_address: siteAddress }).omit({ latitude: true, longitude: true }));

/**
 * Edit CPE Info: the request's fields the dialog shows (the coordinates and shipping address are
 * Edit Site's, the contact the detail's; left out, the platform keeps them). An unchecked box posts
 * nothing: off.
 */
export const UpdateCpeInfoSchema = requestForm(
  z
    .object({
      ...UpdateCpeInfoBody.shape,
      cpe_name: name,
      site_address: siteAddress,
      ping_email_notification: UpdateCpeInfoBody.shape.ping_email_notification.default(false),
      ping_webhook_notification: UpdateCpeInfoBody.shape.ping_webhook_notification.default(false),
    })
    .omit({ latitude: true, longitude: true, shipping_address: true, contact_name: true, contact_email: true, contact_phone: true }),
);

/**
 * Edit Site: the request's site fields (the rest of update_cpe_info is sent as the device has it,
 * route.tsx). A blank coordinate is none (null), not a number.
 */
export const EditSiteSchema = requestForm(
  z.object({ ...UpdateCpeInfoBody.shape, site_address: siteAddress }).pick({ cpe_id: true, site_address: true, shipping_address: true, latitude: true, longitude: true }),
  { blankAsNull: ["latitude", "longitude"] },
);

/**
 * Edit Network Info: the request and its rules (static addressing, ROUTER mode). The DNS servers
 * are typed comma-separated; the request's field checks each and gives the list.
 */
export const NetworkInfoSchema = requestForm(z.object(UpdateCpeNetworkBody.shape).superRefine(networkRules));

/**
 * Edit Daily Performance Test: the request and its rule (Start needs a peer region and an hour,
 * spec 3 §5), each Start or Stop confirmed first (`confirmed`). The form posts Start or Stop
 * (`enable`); a select left at its placeholder is missing, as the request's rule reads it, so the
 * form keeps Conform's reading of a blank (not a request form's "").
 */
const perfFields = { ...ConfigurePerfTestBody.shape, enable: z.enum(["start", "stop"]).transform((v) => v === "start") };
export const PerfTestSchema = z.object({ ...perfFields, confirmed: z.literal("yes").optional() }).superRefine(perfTestRules);

// The dialog's words ('must be a number from 1 to 60.' for any entry that is none; the request's
// 'must be a whole number' is a JSON client's) and the input's min and max (the request's field
// takes a string too, so its JSON Schema has no range).
export const ScanIntervalSchema = requestForm(z.object({ ...SetCpeScanIntervalBody.shape, scan_interval: whole("Down notification interval", scanInterval.min, scanInterval.max) }));

// One sentence for a blank entry and a wrong one (the request's 'Not a valid IP address: …' quotes it).
export const MonitorTargetSchema = requestForm(
  z.object({
    ...UpdateCpeIpMonitorTargetBody.shape,
    ip_monitor_target: z.string({ error: "IP monitor target must be an IP address." }).trim().max(45, "IP monitor target must be an IP address.").refine(isIp, "IP monitor target must be an IP address."),
  }),
);

/**
 * Run Speed Test: ookla by default, or an iPerf3 server, checked as the request's test_type (a
 * host name or an IP address) with the dialog's sentence.
 */
const speedTestForm = z
  .object({ cpe_id: StartCpeSpeedTestBody.shape.cpe_id, test_kind: z.enum(["ookla", "host"]).default("ookla"), host: z.string().trim().max(253).optional() })
  .superRefine((v, ctx) => {
    if (v.test_kind === "host" && !(v.host && v.host !== "ookla" && StartCpeSpeedTestBody.shape.test_type.safeParse(v.host).success))
      ctx.addIssue({ code: "custom", path: ["host"], message: "Enter the iPerf3 server's host name or IP address." });
  });
export const SpeedTestSchema = speedTestForm.transform((v) => ({ cpe_id: v.cpe_id, test_type: v.test_kind === "host" ? v.host! : "ookla" }));

/** Activate Service (the row menu) and Stop Service (its confirmation): the call's id, the button's choice of call. */
export const ServiceSchema = requestForm(z.object({ cpe_id: cpeId(), service: z.enum(["activate", "stop"]) }));

export const constraints = {
  ...deviceConstraints,
  ...formConstraints({
    create: CreateCpeSchema,
    info: UpdateCpeInfoSchema,
    site: EditSiteSchema,
    network: NetworkInfoSchema,
    // The choice's controls (the confirmation's `confirmed` is hidden and carries none).
    perf: z.object(perfFields),
    "speed-test": speedTestForm,
    service: ServiceSchema,
    scan: ScanIntervalSchema,
    target: MonitorTargetSchema,
  }),
};
