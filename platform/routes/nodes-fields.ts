import { z } from "@hono/zod-openapi";
import { isIpv4 } from "../contract/net.ts";
import { formFactors, nodeLimits, nodeMessages } from "../contract/nodes.ts";
import { deploymentMessages } from "../contract/messages.ts";
import { awsRegions } from "../domain/regions.ts";
import { expects, idField, line, maxMessage, text } from "../lib/fields.ts";

/*
 * The request fields of the nodes calls (spec 2 §5): IPv4 addresses, an address with its prefix
 * (LAN interface, VPC CIDR), the form factor and its fields.
 */

/**
 * How an empty value reads: "required" (`what` is required), or "absent" for a field that is
 * required only in some states (an address when a switch is on): the body's own rule says so
 * once, and an empty value with the switch off is no address at all (issue 63 item 26).
 */
type Empty = "required" | "absent";

/** One IPv4 address. */
export const ipv4Field = (what: string, empty: Empty = "required") =>
  line(15).superRefine((s, ctx) => {
    if (s === "") {
      if (empty === "required") ctx.addIssue({ code: "custom", message: `${what} is required` });
    } else if (!isIpv4(s)) ctx.addIssue({ code: "custom", message: `Not a valid IPv4 address: ${s}` });
  });

const prefixed = /^([^/]+)\/(\d{1,2})$/;

/** An IPv4 address with its prefix length, e.g. 192.168.1.1/24 (a host address on the LAN) or 10.0.0.0/24 (a network, when `network`). */
export const ipv4WithPrefix = (what: string, network = false, empty: Empty = "required") =>
  line(18).superRefine((s, ctx) => {
    if (s === "") return empty === "required" ? void ctx.addIssue({ code: "custom", message: `${what} is required` }) : undefined;
    const m = prefixed.exec(s);
    const prefix = m ? Number(m[2]) : -1;
    if (!m || !isIpv4(m[1]!) || prefix < 0 || prefix > 32) {
      return void ctx.addIssue({ code: "custom", message: `${what} must be an IPv4 address with its prefix, such as ${network ? "10.0.0.0/24" : "192.168.1.1/24"}: ${s.slice(0, 40)}` });
    }
    if (network) {
      const n = m[1]!.split(".").reduce((a, o) => a * 256 + Number(o), 0);
      const hostBits = 2 ** (32 - prefix);
      if (n % hostBits !== 0) ctx.addIssue({ code: "custom", message: `${what} must be a network address (host bits zero), such as 10.0.0.0/${prefix}: ${s}` });
    }
  });

const awsRegionIds = awsRegions.map((r) => r.region);

/** The hosted form factor's four fields (spec 2 §3 hosted_*). */
export const hostedFields = {
  hosted_region: z
    .string({ error: expects("a valid string") })
    .trim()
    .max(40, maxMessage(40))
    .superRefine((s, ctx) => {
      if (s === "") ctx.addIssue({ code: "custom", message: deploymentMessages.regionRequired });
      else if (!awsRegionIds.includes(s)) ctx.addIssue({ code: "custom", message: "Choose a region of list-aws-regions" });
    }),
  hosted_vpc_cidr: ipv4WithPrefix("VPC CIDR", true),
  hosted_peer_ip: ipv4Field("Peer IP"),
  hosted_peer_prefix: z
    .number({ error: (iss) => (iss.input === undefined ? "Field required" : "Peer prefix must be a whole number from 1 to 32") })
    .int("Peer prefix must be a whole number from 1 to 32")
    .min(1, "Peer prefix must be a whole number from 1 to 32")
    .max(32, "Peer prefix must be a whole number from 1 to 32"),
};

export const formFactorField = () =>
  z.enum(formFactors, { error: (iss) => (iss.input === undefined ? "Field required" : `Form factor must be one of: ${formFactors.join(", ")}`) });

/** set-*-form-factor: the form factor and its fields (hw: shipping_addr; hosted_aws: the hosted_* four). */
export const formFactorBody = (name: string) =>
  z
    .object({
      node_id: idField("Node id"),
      form_factor: formFactorField(),
      shipping_addr: text(nodeLimits.shippingAddr, { multiline: true }).optional(),
      hosted_region: hostedFields.hosted_region.optional(),
      hosted_vpc_cidr: hostedFields.hosted_vpc_cidr.optional(),
      hosted_peer_ip: hostedFields.hosted_peer_ip.optional(),
      hosted_peer_prefix: hostedFields.hosted_peer_prefix.optional(),
    })
    .strict()
    .superRefine((b, ctx) => {
      const need = (v: unknown, path: string, message: string) => {
        if (v === undefined || v === "") ctx.addIssue({ code: "custom", path: [path], message });
      };
      if (b.form_factor === "hw") need(b.shipping_addr, "shipping_addr", nodeMessages.shippingAddressRequired);
      if (b.form_factor === "hosted_aws") {
        need(b.hosted_region, "hosted_region", deploymentMessages.regionRequired);
        need(b.hosted_vpc_cidr, "hosted_vpc_cidr", nodeMessages.vpcCidrRequired);
        need(b.hosted_peer_ip, "hosted_peer_ip", nodeMessages.peerIpRequired);
        need(b.hosted_peer_prefix, "hosted_peer_prefix", nodeMessages.peerPrefixRequired);
      }
    })
    .openapi(name, { description: "hw: shipping_addr required; hosted_aws: hosted_region (list-aws-regions), hosted_vpc_cidr (default 10.100.0.0/24), hosted_peer_ip and hosted_peer_prefix required; fields of other form factors are ignored." });
