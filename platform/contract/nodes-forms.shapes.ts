import { z } from "@hono/zod-openapi";
import { isIpv4 } from "./net.ts";
import { formFactors, nodeLimits, nodeMessages, secondaryIpMessages } from "./nodes.ts";
import { deploymentMessages } from "./messages.ts";
import { awsRegions } from "../domain/regions.ts";
import { body, bool, expects, idField, line, maxMessage, multiline, plainText, text } from "../lib/fields.ts";

/*
 * The nodes calls' requests the console's forms are (spec 2 §5; issue 61 item 1): their fields
 * (IPv4 addresses, an address with its prefix, the form factor and its fields) and bodies. The
 * platform validates with them (platform/routes/nodes*.ts); the console's node forms are built from
 * them (app/routes/service-nodes/node-schemas.server.ts).
 */

/**
 * How an empty value reads: its message (`… is required.`), or "absent" for a field that is
 * required only in some states (an address when a switch is on): the body's own rule says so
 * once, and an empty value with the switch off is no address at all (issue 63 item 26).
 */
type Empty = string | "absent";

/** One IPv4 address. */
export const ipv4Field = (empty: Empty) =>
  line(15).superRefine((s, ctx) => {
    if (s === "") {
      if (empty !== "absent") ctx.addIssue({ code: "custom", message: empty });
    } else if (!isIpv4(s)) ctx.addIssue({ code: "custom", message: `Not a valid IPv4 address: ${s}` });
  });

const prefixed = /^([^/]+)\/(\d{1,2})$/;

/** An IPv4 address with its prefix length, e.g. 192.168.1.1/24 (a host address on the LAN) or 10.0.0.0/24 (a network, when `network`). */
export const ipv4WithPrefix = (what: string, network: boolean, empty: Empty) =>
  line(18).superRefine((s, ctx) => {
    if (s === "") return empty !== "absent" ? void ctx.addIssue({ code: "custom", message: empty }) : undefined;
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

/** The hosted peer prefix's range (spec 2 §3 hosted_peer_prefix). */
export const peerPrefixRange = { min: 1, max: 32 } as const;
const peerPrefixMessage = `Peer prefix must be a whole number from ${peerPrefixRange.min} to ${peerPrefixRange.max}.`;

/** The hosted region: one of list-aws-regions. */
const hostedRegion = (empty: Empty) =>
  z
    .string({ error: expects("a valid string") })
    .trim()
    .max(40, maxMessage(40))
    .superRefine((s, ctx) => {
      if (s === "") {
        if (empty !== "absent") ctx.addIssue({ code: "custom", message: empty });
      } else if (!awsRegionIds.includes(s)) ctx.addIssue({ code: "custom", message: "Choose a region of list-aws-regions" });
    });

/** The hosted form factor's four fields (spec 2 §3 hosted_*). */
export const hostedFields = {
  hosted_region: hostedRegion(deploymentMessages.regionRequired),
  hosted_vpc_cidr: ipv4WithPrefix("VPC CIDR", true, nodeMessages.vpcCidrRequired),
  hosted_peer_ip: ipv4Field(nodeMessages.peerIpRequired),
  hosted_peer_prefix: z
    .number({ error: (iss) => (iss.input === undefined ? nodeMessages.peerPrefixRequired : peerPrefixMessage) })
    .int(peerPrefixMessage)
    .min(peerPrefixRange.min, peerPrefixMessage)
    .max(peerPrefixRange.max, peerPrefixMessage),
};

export const formFactorField = () =>
  z.enum(formFactors, { error: (iss) => (iss.input === undefined ? "Field required" : `Form factor must be one of: ${formFactors.join(", ")}`) });

/**
 * set-*-form-factor's fields: the form factor and the fields of hw (shipping_addr) and hosted_aws
 * (hosted_*), each optional. A blank one is no value: the rule (formFactorRules) requires the
 * form factor's own; another form factor's blank fields are ignored and a value given for one is
 * still checked, as the call's description says.
 */
export const formFactorFields = {
  node_id: idField("Node id"),
  form_factor: formFactorField(),
  shipping_addr: text(nodeLimits.shippingAddr, { multiline: true }).optional(),
  hosted_region: hostedRegion("absent").optional(),
  hosted_vpc_cidr: ipv4WithPrefix("VPC CIDR", true, "absent").optional(),
  hosted_peer_ip: ipv4Field("absent").optional(),
  hosted_peer_prefix: hostedFields.hosted_peer_prefix.optional(),
};

/** The fields each form factor requires, with their messages (spec 2 §5): the call's rule and the console's forms. */
export const formFactorRequired = {
  hw: [["shipping_addr", nodeMessages.shippingAddressRequired]],
  hosted_aws: [
    ["hosted_region", deploymentMessages.regionRequired],
    ["hosted_vpc_cidr", nodeMessages.vpcCidrRequired],
    ["hosted_peer_ip", nodeMessages.peerIpRequired],
    ["hosted_peer_prefix", nodeMessages.peerPrefixRequired],
  ],
} as const satisfies Partial<Record<(typeof formFactors)[number], readonly (readonly [keyof typeof formFactorFields, string])[]>>;

/** set-*-form-factor's rule: the form factor's required fields (formFactorRequired), each missing one named. */
export const formFactorRules = (b: { form_factor: string } & Partial<Record<keyof typeof formFactorFields, unknown>>, ctx: z.core.$RefinementCtx) => {
  const required: readonly (readonly [keyof typeof formFactorFields, string])[] = b.form_factor === "hw" || b.form_factor === "hosted_aws" ? formFactorRequired[b.form_factor] : [];
  for (const [field, message] of required) if (b[field] === undefined || b[field] === "") ctx.addIssue({ code: "custom", path: [field], message });
};

/** set-*-form-factor: the form factor and its fields (hw: shipping_addr; hosted_aws: the hosted_* four). */
export const formFactorBody = (name: string) =>
  z
    .object(formFactorFields)
    .strict()
    .superRefine(formFactorRules)
    .openapi(name, { description: "hw: shipping_addr required; hosted_aws: hosted_region (list-aws-regions), hosted_vpc_cidr (default 10.100.0.0/24), hosted_peer_ip and hosted_peer_prefix required; another form factor's fields may be blank (then ignored), a value given for one must still be valid." });

/** generate-hsn-vpn-config: the node, hosted_aws and the hosted form factor's four fields. */
export const VpnBody = body({
  node_id: idField("Node id", "epn-3b7n1m5q9w2e"),
  form_factor: z.literal("hosted_aws", { error: (iss) => (iss.input === undefined ? "Field required" : "Form factor must be hosted_aws") }),
  ...hostedFields,
})
  .strict()
  .openapi("GenerateHsnVpnConfig");

/** An endpoint node's id in its calls' bodies. */
export const epNodeId = () => idField("Endpoint node id", "epn-3b7n1m5q9w2e");

/**
 * add-endpoint-node-secondary-ips: the addresses comma separated (spec 2 §5), each an IPv4 address,
 * none twice; the node's own addresses are refused by the call (secondaryIpConflicts).
 */
export const AddSecondaryIpsBody = body({
  ep_node_id: epNodeId(),
  // Not commaList: it merges repeats, and a repeat must be refused by name (issue #28).
  secondary_ips: z
    .string({ error: expects("a valid string") })
    .max(nodeLimits.secondaryIpsText, maxMessage(nodeLimits.secondaryIpsText))
    .apply(plainText)
    .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean))
    .superRefine((ips, ctx) => {
      if (ips.length === 0) ctx.addIssue({ code: "custom", message: secondaryIpMessages.required });
      for (const ip of ips) if (!isIpv4(ip)) ctx.addIssue({ code: "custom", message: `Not a valid IPv4 address: ${ip.slice(0, 60)}` });
      const repeated = [...new Set(ips.filter((ip, i) => ips.indexOf(ip) !== i))];
      if (repeated.length) ctx.addIssue({ code: "custom", message: secondaryIpMessages.repeated(repeated) });
    }),
})
  .strict()
  .openapi("AddEndpointNodeSecondaryIps", { description: "Comma-separated IPv4 addresses; duplicates, addresses the node holds and its primary IP are refused (422) by name." });

/** A new node's name (spec 2 §5: required), both kinds. */
export const nodeName = () => text(nodeLimits.name, { min: 1, minMessage: nodeMessages.nodeNameRequired });
/** A new group's name (with new_*_node_group true). */
export const nodeGroupName = () => text(nodeLimits.name, { min: 1, minMessage: deploymentMessages.nodeGroupNameRequired });
/** An existing group's id (with new_*_node_group false). */
export const nodeGroupId = () => idField("Node group");

/**
 * Spec 2 §5: a node is created in a new group (its name given) or an existing one (its id given),
 * as `isNew` says; `names` are the kind's fields. The creates' rule, and the console's (whose form
 * says new or existing by a radio). A field left out is the rule's to name; a blank one its
 * field's (the same sentence), so it is said once.
 */
export const nodeGroupRule =
  (names: { name: string; id: string }) =>
  (isNew: boolean | undefined, v: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
    if (isNew === true && v[names.name] === undefined) ctx.addIssue({ code: "custom", path: [names.name], message: deploymentMessages.nodeGroupNameRequired });
    if (isNew === false && v[names.id] === undefined) ctx.addIssue({ code: "custom", path: [names.id], message: deploymentMessages.nodeGroupRequired });
  };

const endpointNodeGroupRule = nodeGroupRule({ name: "ep_node_group_name", id: "ep_node_group_id" });
export const CreateEndpointNodeBody = body({
  ep_node_name: nodeName(),
  new_ep_node_group: bool(),
  ep_node_group_name: nodeGroupName().optional(),
  ep_node_group_id: nodeGroupId().optional(),
})
  .strict()
  .superRefine((b, ctx) => endpointNodeGroupRule(b.new_ep_node_group, b, ctx))
  .openapi("CreateEndpointNode", { description: "new_ep_node_group true: ep_node_group_name (a new group); false: ep_node_group_id (an existing one)." });

const serviceNodeGroupRule = nodeGroupRule({ name: "service_node_group_name", id: "service_node_group_id" });
export const CreateServiceNodeBody = body({
  service_node_name: nodeName(),
  new_service_node_group: bool(),
  service_node_group_name: nodeGroupName().optional(),
  service_node_group_id: nodeGroupId().optional(),
  description: multiline(nodeLimits.description).optional(),
})
  .strict()
  .superRefine((b, ctx) => serviceNodeGroupRule(b.new_service_node_group, b, ctx))
  .openapi("CreateServiceNode", { description: "new_service_node_group true: service_node_group_name (a new group); false: service_node_group_id (an existing one)." });

/**
 * An address toggle's rule (configure-lan-interface, configure-dhcp-relay, configure-vrrp; spec 2
 * §4): the address is required while the switch is on; off, a blank one is none.
 */
export const addressWhenOn =
  <F extends string>(field: F, message: string) =>
  (b: { enabled?: boolean } & Partial<Record<F, unknown>>, ctx: z.core.$RefinementCtx) => {
    if (b.enabled === true && !b[field]) ctx.addIssue({ code: "custom", path: [field], message });
  };

export const lanRule = addressWhenOn("primary_ipv4_address", nodeMessages.lanAddressRequired);
export const ConfigureLanBody = body({ node_id: epNodeId(), enabled: bool(), primary_ipv4_address: ipv4WithPrefix("LAN interface address", false, "absent").optional() })
  .strict()
  .superRefine(lanRule)
  .openapi("ConfigureLanInterface", { description: "enabled true: primary_ipv4_address, an IPv4 address with its prefix (192.168.1.1/24)." });

const nodeGroupIdOfToggle = () => idField("Endpoint node group id");
export const dhcpRule = addressWhenOn("server_ip", nodeMessages.dhcpServerRequired);
export const ConfigureDhcpBody = body({ node_group_id: nodeGroupIdOfToggle(), enabled: bool(), server_ip: ipv4Field("absent").optional() }).strict().superRefine(dhcpRule).openapi("ConfigureDhcpRelay");

export const vrrpRule = addressWhenOn("virtual_ip", nodeMessages.virtualIpRequired);
export const ConfigureVrrpBody = body({ node_group_id: nodeGroupIdOfToggle(), enabled: bool(), virtual_ip: ipv4Field("absent").optional() }).strict().superRefine(vrrpRule).openapi("ConfigureVrrp");
