import { formFactorLabels, noFormFactorLabel, nodeMessages, type EndpointNode, type FormFactor, type ServiceNode } from "../../../platform/contract/nodes.ts";

/*
 * What the two node screens share (spec 2 §2, §4): a node kind's words, paths and calls, and the
 * node as the form-factor flow sees it (NodeView), whichever kind it is. /endpoint-nodes and
 * /service-nodes differ only in these (and their calls: node-calls.server.ts); the flow, the dialogs, the health list and the Monitoring
 * tab (node-*.tsx beside this file) are the same code.
 */

export type NodeKind = "endpoint" | "service";

export interface NodeKindInfo {
  kind: NodeKind;
  /** "Endpoint Node" / "Service Node": the create button, dialog titles, toasts. */
  noun: string;
  path: "/endpoint-nodes" | "/service-nodes";
  /** The screen's title (h1). */
  title: string;
  /** The toolbar's link to the groups' screen. */
  groupsPath: "/endpoint-node-groups" | "/service-node-groups";
  groupsLabel: string;
  /** The id's name in the calls' bodies and queries. */
  idField: "ep_node_id" | "service_node_id";
  groupIdField: "ep_node_group_id" | "service_node_group_id";
  groupNameField: "ep_node_group_name" | "service_node_group_name";
  newGroupField: "new_ep_node_group" | "new_service_node_group";
  nameField: "ep_node_name" | "service_node_name";
  /** The word Delete asks for (spec 2 §4). */
  deletePhrase: string;
  created: string;
  removed: string;
}

export const endpointKind: NodeKindInfo = {
  kind: "endpoint",
  noun: "Endpoint Node",
  path: "/endpoint-nodes",
  title: "Endpoint Nodes",
  groupsPath: "/endpoint-node-groups",
  groupsLabel: "Manage Endpoint Node Groups",
  idField: "ep_node_id",
  groupIdField: "ep_node_group_id",
  groupNameField: "ep_node_group_name",
  newGroupField: "new_ep_node_group",
  nameField: "ep_node_name",
  deletePhrase: "delete",
  created: nodeMessages.endpointNodeCreated,
  removed: nodeMessages.endpointNodeRemoved,
};

export const serviceKind: NodeKindInfo = {
  kind: "service",
  noun: "Service Node",
  path: "/service-nodes",
  title: "Service Nodes",
  groupsPath: "/service-node-groups",
  groupsLabel: "Manage Service Node Groups",
  idField: "service_node_id",
  groupIdField: "service_node_group_id",
  groupNameField: "service_node_group_name",
  newGroupField: "new_service_node_group",
  nameField: "service_node_name",
  deletePhrase: "confirm",
  created: nodeMessages.serviceNodeCreated,
  removed: nodeMessages.serviceNodeRemoved,
};

/** A node of either kind as the form-factor flow, the health dialog and Delete see it. */
export interface NodeView {
  id: string;
  name: string;
  groupId: string;
  groupName: string;
  form_factor: FormFactor | null;
  shipping_addr: string;
  hosted_region: string;
  hosted_vpc_cidr: string;
  hosted_peer_ip: string;
  hosted_peer_prefix: number | null;
  ova_prepared: boolean;
  node_url: string | null;
  vpn_config_file: string | null;
  registered_at: string | null;
  op_state: string;
  endpoint_count: number;
}

type FormFactorFields = Pick<NodeView, "form_factor" | "shipping_addr" | "hosted_region" | "hosted_vpc_cidr" | "hosted_peer_ip" | "hosted_peer_prefix" | "ova_prepared" | "node_url" | "vpn_config_file" | "registered_at" | "op_state" | "endpoint_count">;

const common = (n: FormFactorFields): FormFactorFields => ({
  form_factor: n.form_factor,
  shipping_addr: n.shipping_addr,
  hosted_region: n.hosted_region,
  hosted_vpc_cidr: n.hosted_vpc_cidr,
  hosted_peer_ip: n.hosted_peer_ip,
  hosted_peer_prefix: n.hosted_peer_prefix,
  ova_prepared: n.ova_prepared,
  node_url: n.node_url,
  vpn_config_file: n.vpn_config_file,
  registered_at: n.registered_at,
  op_state: n.op_state,
  endpoint_count: n.endpoint_count,
});

export const endpointNodeView = (n: EndpointNode): NodeView => ({ id: n.ep_node_id, name: n.ep_node_name, groupId: n.ep_node_group_id, groupName: n.ep_node_group_name, ...common(n) });
export const serviceNodeView = (n: ServiceNode): NodeView => ({ id: n.service_node_id, name: n.service_node_name, groupId: n.service_node_group_id, groupName: n.service_node_group_name, ...common(n) });

/** A row's Form Factor cell: the tab's name, or that the node has none yet. */
export const formFactorText = (f: FormFactor | null) => (f ? formFactorLabels[f] : noFormFactorLabel);

/** The last path segment of a platform download path (node_url: /api/v1/download-node-ova/{file name}). */
export const fileNameOf = (path: string) => decodeURIComponent(path.split("/").pop() ?? "");
