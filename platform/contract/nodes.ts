/*
 * Service nodes and endpoint nodes, their groups and form factors (spec 2 §3 Endpoint node group,
 * Endpoint node, Service node, Service node group, form-factor values, Node metrics; §7 'Endpoint
 * node groups', 'Endpoint nodes', 'Service nodes'): the constants and shapes shared by the platform
 * and the console. Plain TypeScript without dependencies (the console imports it in client code).
 */
export type {
  EndpointNode,
  EndpointNodeDetail,
  EndpointNodeEndpoint,
  EndpointNodeGroupDetail,
  ServiceNode,
  ServiceNodeDetail,
  ServiceNodeAppService,
  ServiceNodeEndpoint,
  ServiceNodeGroupRow,
  ServiceNodeGroupDetail,
  NodeCertificate,
  NodeHealth,
  NodeHealthCheck,
  NodeMetricsSample,
  NodeOva,
  NodeCloudInit,
  NodeVpnConfig,
  NodeCreated,
  EndpointNodeCreated,
  ServiceNodeCreated,
  SecondaryIpsAdded,
  NodeRegistered,
} from "./nodes.shapes.ts";
export type { EndpointNodeGroup } from "./endpoints.shapes.ts";
export type { ServiceNodeGroup, CloudRegion } from "./app-services.shapes.ts";
export { type ListPage } from "./list.ts";

/** Spec 2 §3 form-factor values. A node "skipped for now" has none (form_factor null). */
export const formFactors = ["ova", "ami", "hw", "hosted_aws"] as const;
export type FormFactor = (typeof formFactors)[number];

/** The form-factor dialog's tabs (spec 2 §2) and how a row shows each value. */
export const formFactorLabels: Record<FormFactor, string> = { ova: "Download OVA", hw: "Hardware Device", ami: "AWS AMI", hosted_aws: "Hosted Node" };
/** What a row shows for a node without a form factor. */
export const noFormFactorLabel = "Not set (skipped)";

/** The creation flow's choices (spec 2 §4: download, hardware, aws, hosted or skip); default hosted. */
export const creationChoices = ["ova", "hw", "ami", "hosted_aws", "skip"] as const;
export type CreationChoice = (typeof creationChoices)[number];
export const defaultCreationChoice: CreationChoice = "hosted_aws";

/** Hosted form factor default VPC CIDR (spec 2 §9: {ip}/24). */
export const defaultHostedVpcCidr = "10.100.0.0/24";

/** Field limits. */
export const nodeLimits = {
  name: 200,
  description: 2000,
  shippingAddr: 500,
  /** Add Secondary IPs: the comma-separated list, typed. */
  secondaryIpsText: 2000,
  /** Secondary IPs a node may hold. */
  secondaryIps: 32,
  /** enable_external_certificate: each of certificate, private_key, ca_chain at most this many bytes. */
  certificateBytes: 64 * 1024,
} as const;

/** A registration token (OVA, cloud-init) is single use and expires after this long. */
export const registrationTokenHours = 24;
/** The group detail warns when its certificate expires within this many days. */
export const certificateWarningDays = 30;

/** Test Node Health (run-health-check): what each check says. */
export const healthStatuses = ["pass", "warn", "fail"] as const;
export type HealthStatus = (typeof healthStatuses)[number];
/** The checks, in the order run-health-check answers them. */
export const healthCheckNames = ["reachability", "tunnel", "cpu", "memory", "disk", "software_version"] as const;
export type HealthCheckName = (typeof healthCheckNames)[number];
export const healthCheckLabels: Record<HealthCheckName, string> = { reachability: "Reachability", tunnel: "Tunnel to the PoP", cpu: "CPU", memory: "Memory", disk: "Disk", software_version: "Software version" };

/** Sortable columns of list-endpoint-node; default: creation time, newest first. */
export const endpointNodeSortable = ["ep_node_name", "ep_node_id", "ep_node_group_id", "admin_state", "op_state", "form_factor", "primary_ip", "registered_at", "created_at"] as const;
export type EndpointNodeSortColumn = (typeof endpointNodeSortable)[number];

/** Sortable columns of list_service_node; default: creation time, newest first. */
export const serviceNodeSortable = ["service_node_name", "service_node_id", "service_node_group_id", "admin_state", "op_state", "form_factor", "registered_at", "created_at"] as const;
export type ServiceNodeSortColumn = (typeof serviceNodeSortable)[number];

/** Success messages (spec 2 §8, and in its style where it gives none). */
export const nodeMessages = {
  endpointNodeCreated: "Endpoint Node created.",
  endpointNodeRemoved: "Endpoint Node removed.",
  serviceNodeCreated: "Service Node created.",
  serviceNodeRemoved: "Service Node removed.",
  formFactorSaved: "Form Factor saved.",
  secondaryIpsAdded: "Secondary IPs added.",
  /** A new node's name (spec 2 §5), said by the creates and the console's form. */
  nodeNameRequired: "Node name is required.",
  /** The form factors' required fields (spec 2 §5), said by the platform and the console's forms. */
  shippingAddressRequired: "Shipping address is required.",
  vpcCidrRequired: "VPC CIDR is required.",
  peerIpRequired: "Peer IP is required.",
  peerPrefixRequired: "Peer prefix is required.",
  /** The address toggles' addresses, required while the switch is on: said by the calls and the dialogs. */
  lanAddressRequired: "An IPv4 address is required when the LAN interface is on.",
  dhcpServerRequired: "DHCP server IP is required when DHCP relay is on.",
  virtualIpRequired: "Virtual IP is required when VRRP is on.",
  lanEnabled: "LAN Interface enabled.",
  lanDisabled: "LAN Interface disabled.",
  dhcpEnabled: "DHCP Relay enabled.",
  dhcpDisabled: "DHCP Relay disabled.",
  vrrpEnabled: "VRRP enabled.",
  vrrpDisabled: "VRRP disabled.",
  certificateEnabled: "External Certificate imported.",
  certificateDisabled: "External Root CA disabled",
  ovaPrepared: "OVA prepared.",
  cloudInitGenerated: "Cloud-init data generated.",
  vpnConfigGenerated: "VPN configuration generated.",
  nodeRegistered: "Node registered.",
} as const;

/** Add Secondary IPs' refusals (spec 2 §5: comma separated), said by add-endpoint-node-secondary-ips and its dialog. */
export const secondaryIpMessages = {
  required: "Secondary IPs are required.",
  repeated: (ips: readonly string[]) => `Entered more than once: ${ips.join(", ")}`,
  primary: (ip: string) => `The node's primary IP cannot be a secondary IP: ${ip}`,
  held: (ips: readonly string[]) => `Already secondary IPs of the node: ${ips.join(", ")}`,
};

/** What a list of new secondary IPs repeats of the node's addresses (its primary, its secondary IPs), each named: the call's check and the dialog's. */
export function secondaryIpConflicts(ips: readonly string[], node: { primary: string; secondary: readonly string[] }): string[] {
  const out: string[] = [];
  if (node.primary && ips.includes(node.primary)) out.push(secondaryIpMessages.primary(node.primary));
  const held = ips.filter((ip) => node.secondary.includes(ip));
  if (held.length) out.push(secondaryIpMessages.held(held));
  return out;
}

/** Sortable columns of list-endpoint-node-group (with list parameters); the plain array is by name. */
export const endpointNodeGroupSortable = ["ep_node_group_name", "ep_node_group_id", "dhcp_relay_enabled", "vrrp_enabled", "created_at"] as const;
export type EndpointNodeGroupSortColumn = (typeof endpointNodeGroupSortable)[number];

/** Sortable columns of list_service_node_group (with list parameters); the plain array is oldest first. */
export const serviceNodeGroupSortable = ["service_node_group_name", "service_node_group_id", "external_certificate", "created_at"] as const;
export type ServiceNodeGroupSortColumn = (typeof serviceNodeGroupSortable)[number];
