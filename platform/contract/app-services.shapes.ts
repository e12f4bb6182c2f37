import { z } from "@hono/zod-openapi";
import { appServiceDeployments, sizes } from "./app-services.ts";
import { createdOf, isoTime, pageOf, serviceContactFields } from "./common.shapes.ts";

/** Spec 1 §3 AppService, as list and detail answer it. */
export const AppService = z
  .object({
    app_service_id: z.string(),
    app_service_name: z.string(),
    account_id: z.string(),
    description: z.string(),
    deployment: z.enum(appServiceDeployments),
    fqdn: z.string(),
    proto: z.string().openapi({ description: "tcp, udp or ftp; '' for network" }),
    port: z.number().int().nullable(),
    region: z.string(),
    cloud_endpoint_service_name: z.string().openapi({ description: "aws: the endpoint service name; azure: the private link service id" }),
    service_node_group_id: z.string().nullable(),
    admin_state: z.string(),
    op_state: z.string().openapi({ description: "up or down" }),
    size: z.enum(sizes),
    health: z.number().int().nullable().openapi({ description: "0–100, from the last measurement" }),
    created_at: isoTime(),
    admin_state_change_at: isoTime(),
    op_state_change_at: isoTime(),
    open_ai_private_link: z.boolean(),
    private_endpoint_ip_address: z.string(),
    azure_user_email: z.string(),
    local_vnet_resource_id: z.string(),
    remote_vnet_resource_id: z.string(),
    network_mode_enabled: z.boolean(),
    bgp_enabled: z.boolean(),
    address_translation_enabled: z.boolean(),
    bgp_local_asn: z.number().int().nullable(),
    bgp_peer_asn: z.number().int().nullable(),
    bgp_local_ip: z.string(),
    bgp_peer_ip: z.string(),
    virtual_subnet_pools: z.array(z.string()),
    real_subnets: z.array(z.string()),
    virtual_subnets: z.array(z.string()),
    ...serviceContactFields,
  })
  .openapi("AppService");
export type AppService = z.infer<typeof AppService>;

/** Spec 1 §3 Hosting (app-service-get-hosting). */
export const Hosting = z
  .object({
    hosting_id: z.string(),
    app_service_id: z.string(),
    admin_state: z.string(),
    op_state: z.string(),
    priority_id: z.number().int(),
    hosting_type: z.enum(["cloud", "onprem"]),
    region: z.string(),
    service_provider: z.string().openapi({ description: "aws, azure or onprem" }),
    cloud_endpoint_service_name: z.string(),
    fqdn: z.string(),
    service_node_group_id: z.string().nullable(),
    size: z.enum(sizes),
    health: z.number().int().nullable(),
    created_at: isoTime(),
  })
  .openapi("Hosting");
export type Hosting = z.infer<typeof Hosting>;

/** Spec 1 §3 Top talker (get-top-talker-ep). */
export const TopTalker = z
  .object({ epid: z.string(), rx_bytes: z.number(), tx_bytes: z.number(), total_bytes: z.number() })
  .openapi("TopTalker");
export type TopTalker = z.infer<typeof TopTalker>;

/** A region of list-aws-regions / list-azure-regions. */
export const CloudRegion = z.object({ region: z.string(), name: z.string() }).openapi("CloudRegion");
export type CloudRegion = z.infer<typeof CloudRegion>;

/** Spec 2 §3 Service node group (list-service-node-group, list_service_node_group). */
export const ServiceNodeGroup = z
  .object({
    service_node_group_id: z.string(),
    service_node_group_name: z.string(),
    external_certificate: z.boolean(),
    created_at: isoTime(),
  })
  .openapi("ServiceNodeGroup");
export type ServiceNodeGroup = z.infer<typeof ServiceNodeGroup>;

export const AppServicePage = pageOf(AppService, "AppServicePage");
export const AppServiceCreated = createdOf("AppServiceCreated", "app_service_id");
export const HostingAdded = createdOf("HostingAdded", "hosting_id");
export const ServiceNodeGroupCreated = createdOf("ServiceNodeGroupCreated", "service_node_group_id");
