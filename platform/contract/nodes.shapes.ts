import { z } from "@hono/zod-openapi";
import { body, expects, idField } from "../lib/fields.ts";
import { formFactors, healthCheckNames, healthStatuses, nodeLimits } from "./nodes.ts";
import { EndpointNodeGroup } from "./endpoints.shapes.ts";
import { ServiceNodeGroup } from "./app-services.shapes.ts";
import { isoTime, pageOf } from "./common.shapes.ts";
import { fieldMessages } from "./messages.ts";

/*
 * Nodes (spec 2 §3): each answer once, with its OpenAPI name. The console imports the types only
 * (through platform/contract/nodes.ts).
 */

const formFactor = () => z.enum(formFactors).nullable().openapi({ description: "ova, ami, hw or hosted_aws; null: skipped for now (no form factor)" });
const nullableTime = (description: string) => isoTime().nullable().openapi({ description });

/** What both node kinds carry about their form factor beside the spec's fields. */
const formFactorFields = {
  form_factor: formFactor(),
  shipping_addr: z.string().openapi({ description: "hw: where the device is shipped ('' otherwise)" }),
  hosted_region: z.string().openapi({ description: "hosted_aws: an AWS region of list-aws-regions ('' otherwise)" }),
  hosted_vpc_cidr: z.string(),
  hosted_peer_ip: z.string().openapi({ description: "hosted_aws: the node's tunnel address" }),
  hosted_peer_prefix: z.number().int().nullable().openapi({ description: "hosted_aws: the tunnel address's prefix length" }),
  ova_prepared: z.boolean().openapi({ description: "An OVA was prepared (prepare-epn-ova / prepare-sn-ova): Download may be offered" }),
  node_url: z.string().nullable().openapi({ description: "The prepared OVA's download path (download-node-ova/{file name}), or null" }),
  vpn_config_file: z.string().nullable().openapi({ description: "The last generate-hsn-vpn-config file name (download-hsn-vpn-config/{file name}), or null" }),
};

const stateFields = {
  admin_state: z.string(),
  admin_state_change_at: isoTime(),
  op_state: z.string().openapi({ description: "up or down; unregistered until the node registers" }),
  op_state_change_at: isoTime(),
  registered_at: nullableTime("When the node registered (fleet clock or register-node); null: not registered"),
};

/** Spec 2 §3 Endpoint node, as list-endpoint-node answers it. */
export const EndpointNode = z
  .object({
    ep_node_id: z.string().openapi({ example: "epn-5q2w8e1r4t6y" }),
    ep_node_name: z.string(),
    ep_node_group_id: z.string(),
    ep_node_group_name: z.string(),
    ...stateFields,
    account_id: z.string(),
    primary_ip: z.string(),
    secondary_ips: z.array(z.string()),
    created_at: isoTime(),
    lan_interface_enabled: z.boolean(),
    lan_interface_ipaddress: z.string().openapi({ description: "IPv4 address with prefix, e.g. 192.168.1.1/24 ('' when never set)" }),
    endpoint_count: z.number().int().openapi({ description: "Endpoints that use the node" }),
    ...formFactorFields,
  })
  .openapi("EndpointNode");
export type EndpointNode = z.infer<typeof EndpointNode>;

/** An endpoint using an endpoint node (the Endpoints tab). */
export const EndpointNodeEndpoint = z
  .object({
    ep_id: z.string(),
    ep_name: z.string(),
    app_service_id: z.string(),
    deployment: z.string(),
    admin_state: z.string(),
    op_state: z.string(),
    ip_addr: z.string(),
    created_at: isoTime(),
  })
  .openapi("EndpointNodeEndpoint");
export type EndpointNodeEndpoint = z.infer<typeof EndpointNodeEndpoint>;

/** get-endpoint-node-detail: the node with its endpoints (spec 2 §3 "endpoints (a list)"). */
export const EndpointNodeDetail = EndpointNode.extend({ endpoints: z.array(EndpointNodeEndpoint) }).openapi("EndpointNodeDetail");
export type EndpointNodeDetail = z.infer<typeof EndpointNodeDetail>;

/** get-endpoint-node-group-details: the group and its nodes. */
export const EndpointNodeGroupDetail = EndpointNodeGroup.extend({
  ep_nodes: z.array(z.object({ ep_node_id: z.string(), ep_node_name: z.string(), op_state: z.string() })),
}).openapi("EndpointNodeGroupDetail");
export type EndpointNodeGroupDetail = z.infer<typeof EndpointNodeGroupDetail>;

/** Spec 2 §3 Service node, as list_service_node answers it. */
export const ServiceNode = z
  .object({
    service_node_id: z.string().openapi({ example: "sn-5q2w8e1r4t6y" }),
    service_node_name: z.string(),
    service_node_group_id: z.string(),
    service_node_group_name: z.string(),
    ...stateFields,
    private_ip: z.string(),
    description: z.string(),
    account_id: z.string(),
    created_at: isoTime(),
    app_service_count: z.number().int(),
    endpoint_count: z.number().int(),
    ...formFactorFields,
  })
  .openapi("ServiceNode");
export type ServiceNode = z.infer<typeof ServiceNode>;

/** An app service served by the node's group (App Services tab). */
export const ServiceNodeAppService = z
  .object({
    app_service_id: z.string(),
    app_service_name: z.string(),
    deployment: z.string(),
    admin_state: z.string(),
    admin_state_change_at: isoTime().openapi({ description: "Last change" }),
    op_state: z.string(),
    fqdn: z.string().openapi({ description: "App DNS or IP" }),
    proto: z.string(),
    port: z.number().int().nullable(),
  })
  .openapi("ServiceNodeAppService");
export type ServiceNodeAppService = z.infer<typeof ServiceNodeAppService>;

/** An endpoint of those app services (Connected Endpoints tab). */
export const ServiceNodeEndpoint = z
  .object({
    ep_id: z.string(),
    ep_name: z.string(),
    ep_node_id: z.string().nullable(),
    admin_state: z.string(),
    op_state: z.string(),
    app_service_id: z.string(),
    ip_addr: z.string(),
    created_at: isoTime(),
    fqdn: z.string().openapi({ description: "App DNS Name" }),
  })
  .openapi("ServiceNodeEndpoint");
export type ServiceNodeEndpoint = z.infer<typeof ServiceNodeEndpoint>;

/** get_service_node_detail: the node, the app services its group serves and their endpoints. */
export const ServiceNodeDetail = ServiceNode.extend({
  app_services: z.array(ServiceNodeAppService),
  endpoints: z.array(ServiceNodeEndpoint),
}).openapi("ServiceNodeDetail");
export type ServiceNodeDetail = z.infer<typeof ServiceNodeDetail>;

/** The external certificate of a service node group: what the platform shows (never the key). */
export const NodeCertificate = z
  .object({
    subject: z.string(),
    issuer: z.string(),
    serial_number: z.string(),
    valid_from: isoTime(),
    valid_to: isoTime(),
    fingerprint_sha256: z.string(),
    expires_within_30_days: z.boolean().openapi({ description: "Warn: the certificate expires within 30 days (or has expired)" }),
    imported_at: isoTime(),
  })
  .openapi("NodeCertificate");
export type NodeCertificate = z.infer<typeof NodeCertificate>;

/** A service node group as the group screen lists it: spec 2 §3 fields, its certificate and node count. */
export const ServiceNodeGroupRow = ServiceNodeGroup.extend({
  certificate: NodeCertificate.nullable(),
  node_count: z.number().int(),
}).openapi("ServiceNodeGroupRow");
export type ServiceNodeGroupRow = z.infer<typeof ServiceNodeGroupRow>;

/** get-service-node-group-details: the group, its certificate and its nodes. */
export const ServiceNodeGroupDetail = ServiceNodeGroupRow.extend({
  service_nodes: z.array(z.object({ service_node_id: z.string(), service_node_name: z.string(), op_state: z.string() })),
}).openapi("ServiceNodeGroupDetail");
export type ServiceNodeGroupDetail = z.infer<typeof ServiceNodeGroupDetail>;

/** One check of Test Node Health. */
export const NodeHealthCheck = z
  .object({
    name: z.enum(healthCheckNames),
    label: z.string().openapi({ description: "Reachability, Tunnel to the PoP, CPU, Memory, Disk, Software version" }),
    status: z.enum(healthStatuses),
    detail: z.string(),
  })
  .openapi("NodeHealthCheck");
export type NodeHealthCheck = z.infer<typeof NodeHealthCheck>;

/** run-health-check: the checks in order, and the worst status as the overall one. */
export const NodeHealth = z
  .object({
    node_id: z.string(),
    checked_at: isoTime(),
    status: z.enum(healthStatuses).openapi({ description: "The worst of the checks" }),
    checks: z.array(NodeHealthCheck),
  })
  .openapi("NodeHealth");
export type NodeHealth = z.infer<typeof NodeHealth>;

/** get-node-metrics: one bucket (spec 2 §3 Node metrics), values rounded to 3 decimals. */
export const NodeMetricsSample = z
  .object({
    "@timestamp": isoTime().openapi({ description: "Start of the bucket (UTC)" }),
    "tx.bytes": z.number().openapi({ description: "Bytes per second sent" }),
    "rx.bytes": z.number().openapi({ description: "Bytes per second received" }),
    cpu_p: z.number().openapi({ description: "CPU load, percent (0–100)" }),
    "mem.usage": z.number().openapi({ description: "Memory in use, percent (0–100)" }),
    "cpu.fan.rpm": z.number().openapi({ description: "Fan speed, rpm (0–5000)" }),
    ambient: z.number().openapi({ description: "Ambient temperature, °C" }),
    cpu: z.number().openapi({ description: "CPU temperature, °C" }),
    disk: z.number().openapi({ description: "Disk in use, percent (0–100)" }),
  })
  .openapi("NodeMetricsSample");
export type NodeMetricsSample = z.infer<typeof NodeMetricsSample>;

/** prepare-epn-ova / prepare-sn-ova. */
export const NodeOva = z
  .object({
    detail: z.string(),
    node_url: z.string().openapi({ description: "Path on the API host: /api/v1/download-node-ova/{file name}" }),
    file_name: z.string(),
    expires_at: isoTime().openapi({ description: "The registration token inside expires then (24 h)" }),
  })
  .openapi("NodeOva");
export type NodeOva = z.infer<typeof NodeOva>;

/** generate-node-cloud-init-data. */
export const NodeCloudInit = z
  .object({
    detail: z.string(),
    cloud_init_data: z.string().openapi({ description: "A #cloud-config document (YAML)" }),
    file_name: z.string().openapi({ description: "A name to save it under (user-data-{node id}.yaml)" }),
    expires_at: isoTime(),
  })
  .openapi("NodeCloudInit");
export type NodeCloudInit = z.infer<typeof NodeCloudInit>;

/** generate-hsn-vpn-config. */
export const NodeVpnConfig = z
  .object({
    detail: z.string(),
    file_name: z.string().openapi({ description: "Fetch it from /api/v1/download-hsn-vpn-config/{file_name}" }),
    public_key: z.string().openapi({ description: "The node's WireGuard public key (base64)" }),
  })
  .openapi("NodeVpnConfig");
export type NodeVpnConfig = z.infer<typeof NodeVpnConfig>;

export const EndpointNodeCreated = z
  .object({ ep_node_id: z.string(), ep_node_group_id: z.string(), detail: z.string() })
  .openapi("EndpointNodeCreated");
export type EndpointNodeCreated = z.infer<typeof EndpointNodeCreated>;
export const ServiceNodeCreated = z
  .object({ service_node_id: z.string(), service_node_group_id: z.string(), detail: z.string() })
  .openapi("ServiceNodeCreated");
export type ServiceNodeCreated = z.infer<typeof ServiceNodeCreated>;
export type NodeCreated = EndpointNodeCreated | ServiceNodeCreated;

export const SecondaryIpsAdded = z.object({ detail: z.string(), secondary_ips: z.array(z.string()) }).openapi("SecondaryIpsAdded");
export type SecondaryIpsAdded = z.infer<typeof SecondaryIpsAdded>;

/** register-node (the node itself, with its registration token). */
export const NodeRegistered = z
  .object({ detail: z.string(), node_id: z.string(), node_kind: z.enum(["service_node", "endpoint_node"]), registered_at: isoTime() })
  .openapi("NodeRegistered");
export type NodeRegistered = z.infer<typeof NodeRegistered>;

export const EndpointNodePage = pageOf(EndpointNode, "EndpointNodePage");
export const ServiceNodePage = pageOf(ServiceNode, "ServiceNodePage");
export const EndpointNodeGroupPage = pageOf(EndpointNodeGroup, "EndpointNodeGroupPage");
export const ServiceNodeGroupPage = pageOf(ServiceNodeGroupRow, "ServiceNodeGroupPage");

// The calls' requests: the platform validates with them; the console's forms are these schemas
// where converted (app/routes/service-node-groups/schemas.server.ts).

export const serviceNodeGroupId = () => idField("Service node group id", "sng-4h8j2k6l0z5x");

const KB = 1024;
/** A PEM item of enable_external_certificate: required, at most 64 KB (UTF-8 bytes). */
export const pemField = (what: string) =>
  z
    .string({ error: expects("a valid string") })
    .superRefine((s, ctx) => {
      if (s.trim() === "") ctx.addIssue({ code: "custom", message: fieldMessages.required(what) });
      else if (Buffer.byteLength(s, "utf8") > nodeLimits.certificateBytes) ctx.addIssue({ code: "custom", message: `${what} is larger than ${nodeLimits.certificateBytes / KB} KB.` });
      else if (s.includes("\u0000")) ctx.addIssue({ code: "custom", message: `${what} is not PEM text.` });
    });

export const CertificateBody = body({
  service_node_group_id: serviceNodeGroupId(),
  certificate: pemField("The certificate"),
  private_key: pemField("The private key"),
  ca_chain: pemField("The CA chain"),
})
  .strict()
  .openapi("EnableExternalCertificate", { description: "PEM: the certificate, its unencrypted private key and the CA chain up to the root; each at most 64 KB." });

export const GroupBody = body({ service_node_group_id: serviceNodeGroupId() }).strict().openapi("ServiceNodeGroupId");
