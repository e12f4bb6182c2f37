import { z } from "@hono/zod-openapi";
import { approvalStatuses, endpointDeployments } from "./endpoints.ts";
import { sizes } from "./app-services.ts";
import { isoTime, pageOf, serviceContactFields, txRxFields } from "./common.shapes.ts";

const strings = () => z.array(z.string());

/** Spec 1 §3 Endpoint, its stored fields (get-app-service-endpoints). */
export const Endpoint = z
  .object({
    ep_id: z.string().openapi({ example: "ep-5q2w8e1r4t6y" }),
    ep_name: z.string(),
    description: z.string(),
    account_id: z.string(),
    fqdn: z.string(),
    ip_addr: z.string(),
    created_at: isoTime(),
    admin_state: z.string(),
    admin_state_change_at: z.string(),
    op_state: z.string().openapi({ description: "up or down" }),
    op_state_change_at: z.string(),
    size: z.string().openapi({ description: `One of ${sizes.join(", ")}` }),
    hosting_id: z.string().nullable(),
    app_service_id: z.string(),
    region: z.string(),
    consumer_principle: z.string().openapi({ description: "aws: the allowed principal; azure: the subscription id" }),
    deployment: z.enum(endpointDeployments),
    approval_status: z.enum(approvalStatuses),
    ep_node_id: z.string().nullable(),
    ep_node_group_id: z.string().nullable(),
    network_mode_enabled: z.boolean(),
    address_translation_enabled: z.boolean(),
    bgp_enabled: z.boolean(),
    bgp_local_asn: z.number().nullable(),
    bgp_peer_asn: z.number().nullable(),
    bgp_local_ip: z.string(),
    bgp_peer_ip: z.string(),
    bgp_advertised_routes: strings(),
    real_subnets: strings(),
    virtual_subnets: strings(),
    proxying_enabled: z.boolean(),
    user_agent_dns_servers: strings(),
    user_agent_cidrs: strings(),
    ...serviceContactFields,
  })
  .openapi("Endpoint");
export type Endpoint = z.infer<typeof Endpoint>;

/** An endpoint as list-endpoint answers it: the stored fields and the names of what it links to. */
export const EndpointRow = Endpoint.extend({
  app_service_name: z.string().openapi({ description: "The app service's name ('' when it is gone)" }),
  ep_node_group_name: z.string().openapi({ description: "The node group's name ('' when none)" }),
}).openapi("EndpointRow");
export type EndpointRow = z.infer<typeof EndpointRow>;

/** A user agent linked to an endpoint (spec 1 §3 "User agent (shown on an endpoint)"); its state from the fleet. */
export const EndpointUserAgent = z
  .object({
    user_agent_id: z.string(),
    name: z.string(),
    email: z.string(),
    description: z.string(),
    admin_state: z.string(),
    op_state: z.string(),
    op_state_change_at: z.string(),
    last_auth_time: z.string(),
    last_auth_status: z.string(),
    created_at: z.string(),
  })
  .openapi("EndpointUserAgent");
export type EndpointUserAgent = z.infer<typeof EndpointUserAgent>;

/** get-endpoint-detail: the endpoint with the user agents linked to it. */
export const EndpointDetail = EndpointRow.extend({ user_agents: z.array(EndpointUserAgent) }).openapi("EndpointDetail");
export type EndpointDetail = z.infer<typeof EndpointDetail>;

/** Spec 2 §3 Endpoint node group. */
export const EndpointNodeGroup = z
  .object({
    ep_node_group_id: z.string(),
    ep_node_group_name: z.string(),
    created_at: z.string(),
    dhcp_relay_enabled: z.boolean(),
    dhcp_relay_server_ip: z.string().nullable(),
    vrrp_enabled: z.boolean(),
    vrrp_virtual_ip: z.string().nullable(),
  })
  .openapi("EndpointNodeGroup");
export type EndpointNodeGroup = z.infer<typeof EndpointNodeGroup>;

/** Spec 1 §3 Flow/session of an endpoint (get-endpoint-sessions). */
export const EndpointSession = z
  .object({
    src_address: z.string(),
    dst_address: z.string(),
    protocol: z.string(),
    ports: z.string(),
    ...txRxFields,
    established: z.string(),
  })
  .openapi("EndpointSession");
export type EndpointSession = z.infer<typeof EndpointSession>;

/** Spec 1 §3 Netflow row (get-ep-sessions). */
export const NetflowRow = z
  .object({
    start_time: z.string(),
    end_time: z.string(),
    src_addr: z.string(),
    dst_addr: z.string(),
    src_port: z.number(),
    dst_port: z.number(),
    proto: z.string(),
    app_name: z.string(),
    ...txRxFields,
  })
  .openapi("EndpointNetflow");
export type NetflowRow = z.infer<typeof NetflowRow>;

export const EndpointPage = pageOf(EndpointRow, "EndpointPage");
export const EndpointCreated = z.object({ ep_id: z.string(), detail: z.string() }).openapi("EndpointCreated");
export const EndpointResized = z.object({ detail: z.string(), size: z.enum(sizes) }).openapi("EndpointResized");
export const EndpointNodeGroupCreated = z.object({ detail: z.string(), ep_node_group_id: z.string() }).openapi("EndpointNodeGroupCreated");
