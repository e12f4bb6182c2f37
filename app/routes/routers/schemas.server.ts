import { z } from "zod";
import { formConstraints } from "../../components/constraints.server.ts";
import { hiddenId, optionalText, requestForm } from "../../lib/form-fields.server.ts";
import { isCidr, isFqdn, isIp } from "../../../platform/contract/net.ts";
import { cpeModes, cpeProductCodes, deviceLimits, deviceMessages, perfTestHours, scanInterval, wanAddressing } from "../../../platform/contract/devices.ts";
import { CreateCpeBody, SetCpeScanIntervalBody, UpdateCpeInfoBody, UpdateCpeIpMonitorTargetBody } from "../../../platform/contract/devices.shapes.ts";
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

const cpeId = hiddenId(formMessages.deviceIdMissing);
// The dialogs' sentences, with their full stop (issue 63 item 23), where the request's have none.
const name = text(deviceLimits.name, { min: 1, minMessage: formMessages.nameRequired });
// The request's limit: its site_address is a device name (200 characters) piped to the address's 500.
const siteAddress = text(deviceLimits.name, { min: 1, minMessage: "Site Address is required." });
const address = optionalText(deviceLimits.address);

const optionalIp = (what: string) =>
  z
    .string()
    .trim()
    .max(45, `${what} must be an IP address.`)
    .refine((s) => isIp(s), `${what} must be an IP address.`)
    .optional();
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

export const EditSiteSchema = z.object({
  cpe_id: cpeId,
  site_address: siteAddress,
  shipping_address: address,
  latitude: number("Latitude", -90, 90).optional(),
  longitude: number("Longitude", -180, 180).optional(),
});

const cidr = (what: string) =>
  z
    .string()
    .trim()
    .max(49, `${what} must be an address with its prefix (192.0.2.10/24).`)
    .refine((s) => isCidr(s), `${what} must be an address with its prefix (192.0.2.10/24).`)
    .optional();

export const NetworkInfoSchema = z
  .object({
    cpe_id: cpeId,
    mode: z.enum(cpeModes, { error: "Choose a mode." }),
    wan_addressing: z.enum(wanAddressing, { error: "Choose the WAN addressing." }),
    wan_cidr: cidr("WAN address"),
    wan_gateway: optionalIp("WAN gateway"),
    dns_servers: z
      .string()
      .trim()
      .max(400, "DNS servers must be IP addresses, separated by commas.")
      .refine((s) => s.split(",").every((x) => isIp(x.trim())), "DNS servers must be IP addresses, separated by commas.")
      .optional(),
    lan_cidr: cidr("LAN address"),
  })
  .superRefine((v, ctx) => {
    if (v.wan_addressing === "static") {
      if (!v.wan_cidr) ctx.addIssue({ code: "custom", path: ["wan_cidr"], message: "WAN address is required for static addressing." });
      if (!v.wan_gateway) ctx.addIssue({ code: "custom", path: ["wan_gateway"], message: "WAN gateway is required for static addressing." });
    }
    if (v.mode === "ROUTER" && !v.lan_cidr) ctx.addIssue({ code: "custom", path: ["lan_cidr"], message: "LAN address is required in ROUTER mode." });
  });

/** Edit Daily Performance Test: Start needs a peer region and an hour (spec 3 §5); each asks for a confirmation first. */
export const PerfTestSchema = z
  .object({
    cpe_id: cpeId,
    enable: z.enum(["start", "stop"]),
    peer_region: z.string().trim().max(20).optional(),
    hour_of_day: z.string().trim().optional(),
    confirmed: z.literal("yes").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.enable !== "start") return;
    const hour = Number(v.hour_of_day);
    if (!v.peer_region || v.hour_of_day === undefined || !Number.isInteger(hour) || hour < perfTestHours.min || hour > perfTestHours.max) {
      ctx.addIssue({ code: "custom", path: [v.peer_region ? "hour_of_day" : "peer_region"], message: deviceMessages.selectPeerRegion });
    }
  });

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

/** Run Speed Test: ookla by default, or an iPerf3 server (a host name or an IP address). */
export const SpeedTestSchema = z
  .object({ cpe_id: cpeId, test_kind: z.enum(["ookla", "host"]).default("ookla"), host: z.string().trim().max(253).optional() })
  .superRefine((v, ctx) => {
    if (v.test_kind === "host" && !(v.host && (isIp(v.host) || isFqdn(v.host)))) ctx.addIssue({ code: "custom", path: ["host"], message: "Enter the iPerf3 server's host name or IP address." });
  })
  .transform((v) => ({ cpe_id: v.cpe_id, test_type: v.test_kind === "host" ? v.host! : "ookla" }));

export const ServiceSchema = z.object({ cpe_id: cpeId, service: z.enum(["activate", "stop"]) });

export const constraints = {
  ...deviceConstraints,
  ...formConstraints({
    create: CreateCpeSchema,
    info: UpdateCpeInfoSchema,
    site: EditSiteSchema,
    network: NetworkInfoSchema,
    scan: ScanIntervalSchema,
    target: MonitorTargetSchema,
  }),
};
