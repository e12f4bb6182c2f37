import { z } from "@hono/zod-openapi";
import { awsRegions, azureRegions } from "../domain/regions.ts";
import { bool, emailField, expects, idField, line, multiline, plainText, requiredName, text } from "../lib/fields.ts";
import { addHostingRequired, appServiceDeployments, appServiceLimits, appServiceProtocols, createAppServiceRequired, resizeDirections, sizes } from "./app-services.ts";
import { createdOf, isoTime, pageOf, serviceContactFields } from "./common.shapes.ts";
import { appServiceMessages, fieldMessages } from "./messages.ts";
import { isAsn, isAwsEndpointServiceName, isAzureResourceId, isCidr, isFqdnOrIp, isIp, isPort, netMessages } from "./net.ts";

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

// The calls' requests: the platform validates with them; the console's App Services forms are
// these schemas where converted (app/routes/app-services/schemas.server.ts, ../services-shared).

export const appServiceIdField = () => idField("App Service id").openapi({ example: "as-5q2w8e1r4t6y" });

const number = (what: string) => z.number({ error: expects(what) });
const portField = () => number("a valid integer").refine(isPort, netMessages.port).openapi({ type: "integer", minimum: 1, maximum: 65535 });
const asnField = () => number("a valid integer").refine(isAsn, netMessages.asn).openapi({ type: "integer", minimum: 1, maximum: 4294967295 });
const textField = (max: number = appServiceLimits.text) => line(max);
const cidrList = () =>
  z
    .array(textField(50), { error: expects("a valid list") })
    .max(appServiceLimits.listItems, `At most ${appServiceLimits.listItems} items`)
    .superRefine((items, ctx) => {
      items.forEach((s, i) => {
        if (!isCidr(s)) ctx.addIssue({ code: "custom", path: [i], message: netMessages.cidr(s) });
      });
    });

const awsRegionIds = awsRegions.map((r) => r.region);
const azureRegionIds = azureRegions.map((r) => r.region);

/** create-app-service's fields (spec 1 §7); what each deployment requires is createAppServiceRules'. */
export const createAppServiceFields = {
  app_service_name: text(appServiceLimits.name, { min: 1, minMessage: fieldMessages.nameRequired }),
  description: multiline(appServiceLimits.description).optional(),
  location: z.enum(appServiceDeployments, { error: (iss) => (iss.input === undefined ? "Field required" : `Location must be one of: ${appServiceDeployments.join(", ")}`) }),
  region: textField(100).optional(),
  cloud_endpoint_service_name: textField().optional(),
  proto: textField(10).optional(),
  port: portField().optional(),
  fqdn: textField(appServiceLimits.fqdn).optional(),
  service_node_group_id: idField("Service node group").optional(),
  real_subnets: cidrList().optional(),
  network_mode_enabled: bool().optional(),
  address_translation_enabled: bool().optional(),
  virtual_subnet_pools: cidrList().optional(),
  bgp_enabled: bool().optional(),
  bgp_local_asn: asnField().optional(),
  bgp_peer_asn: asnField().optional(),
  bgp_peer_ip: textField(45).optional(),
  open_ai_private_link: bool().optional(),
  private_endpoint_ip_address: textField(45).optional(),
  azure_user_email: emailField().optional(),
  remote_vnet_resource_id: textField().optional(),
};
export type CreateAppServiceValues = z.output<z.ZodObject<typeof createAppServiceFields>>;

/** An issue at `path` when a required value is missing ('', an empty list). */
const requireIn = (ctx: z.RefinementCtx, values: Record<string, unknown>, required: readonly (readonly [string, string])[]) => {
  for (const [path, message] of required) {
    const v = values[path];
    if (v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0)) ctx.addIssue({ code: "custom", path: [path], message });
  }
};

/**
 * create-app-service's rules by deployment (spec 1 §5): the platform's body checks them and so
 * does the console's create form (on the body it would send), each missing field at once.
 */
export function createAppServiceRules(b: CreateAppServiceValues, ctx: z.RefinementCtx): void {
  // The console runs these also when a field failed (every error at once): a broken location has none.
  if (!appServiceDeployments.includes(b.location)) return;
  const check = (value: string | undefined, valid: (s: string) => boolean, path: string, message: string) => {
    if (value !== undefined && value !== "" && !valid(value)) ctx.addIssue({ code: "custom", path: [path], message });
  };
  requireIn(ctx, b, createAppServiceRequired(b.location, b));
  const protocols: readonly string[] = appServiceProtocols[b.location];
  if (b.location !== "network" && b.proto && !protocols.includes(b.proto)) {
    ctx.addIssue({ code: "custom", path: ["proto"], message: b.location === "aws" ? "An aws App Service is TCP only" : `Protocol must be one of: ${protocols.join(", ")}` });
  }
  switch (b.location) {
    case "aws":
      if (b.region && !awsRegionIds.includes(b.region)) ctx.addIssue({ code: "custom", path: ["region"], message: "Choose a region of list-aws-regions" });
      check(b.cloud_endpoint_service_name, isAwsEndpointServiceName, "cloud_endpoint_service_name", netMessages.awsEndpointServiceName);
      break;
    case "onprem":
      check(b.fqdn, isFqdnOrIp, "fqdn", netMessages.fqdnOrIp(b.fqdn ?? ""));
      break;
    case "azure":
      if (b.region && !azureRegionIds.includes(b.region)) ctx.addIssue({ code: "custom", path: ["region"], message: "Choose a region of list-azure-regions" });
      if (b.open_ai_private_link) {
        check(b.private_endpoint_ip_address, isIp, "private_endpoint_ip_address", netMessages.ip(b.private_endpoint_ip_address ?? ""));
        check(b.remote_vnet_resource_id, isAzureResourceId, "remote_vnet_resource_id", netMessages.azureResourceId);
      } else check(b.cloud_endpoint_service_name, isAzureResourceId, "cloud_endpoint_service_name", netMessages.azureResourceId);
      break;
    case "network":
      if (b.bgp_enabled) check(b.bgp_peer_ip, isIp, "bgp_peer_ip", netMessages.ip(b.bgp_peer_ip ?? ""));
      break;
  }
}

export const CreateAppServiceBody = z
  .strictObject(createAppServiceFields)
  .superRefine(createAppServiceRules)
  .openapi("CreateAppService", {
    description:
      "Required by location (spec 1 §5): aws — app_service_name, region, cloud_endpoint_service_name, port (TCP); onprem — fqdn, service_node_group_id, proto (tcp, udp, ftp), port; azure — proto (tcp, udp), port, region, and cloud_endpoint_service_name (the private link service id), or with open_ai_private_link private_endpoint_ip_address, remote_vnet_resource_id, azure_user_email; network — real_subnets, service_node_group_id, virtual_subnet_pools with address_translation_enabled, bgp_local_asn, bgp_peer_asn, bgp_peer_ip with bgp_enabled. Fields of other locations are ignored.",
  });

export const SetNameBody = z.strictObject({ app_service_id: appServiceIdField(), app_service_name: requiredName("Name", appServiceLimits.name) }).openapi("SetAppServiceName");
export const SetDescriptionBody = z
  .strictObject({ app_service_id: appServiceIdField(), description: multiline(appServiceLimits.description) })
  .openapi("SetAppServiceDescription");
export const EditBody = z
  .strictObject({
    app_service_id: appServiceIdField(),
    proto: z.enum(["tcp", "udp", "ftp"], { error: (iss) => (iss.input === undefined ? "Field required" : "Protocol must be one of: tcp, udp, ftp") }).optional(),
    port: portField().optional(),
    fqdn: textField(appServiceLimits.fqdn)
      .superRefine((s, ctx) => {
        if (s !== "" && !isFqdnOrIp(s)) ctx.addIssue({ code: "custom", message: netMessages.fqdnOrIp(s) });
      })
      .optional(),
  })
  .openapi("EditAppService");
export const ContactBody = z
  .strictObject({
    app_service_id: appServiceIdField(),
    primary_contact_id: z.union([idField("Business contact"), z.literal("")]).nullable().optional(),
    secondary_contact_id: z.union([idField("Technical contact"), z.literal("")]).nullable().optional(),
  })
  .openapi("SetAppServiceContact", { description: "primary = business contact, secondary = technical contact; '' or null clears one." });
export const ResizeBody = z
  .strictObject({
    app_service_id: appServiceIdField(),
    hosting_id: z
      .string({ error: expects("a valid string") })
      .max(100)
      .refine((s) => s.trim() !== "", appServiceMessages.selectHosting)
      .apply(plainText),
    direction: z.enum(resizeDirections, { error: "Direction must be up or down" }).default("up"),
  })
  .openapi("ResizeAppService");
export const AppServiceIdBody = z.strictObject({ app_service_id: appServiceIdField() }).openapi("AppServiceId");
export const EpIdBody = z.strictObject({ ep_id: idField("Endpoint id") }).openapi("EndpointDecision");
export const addHostingFields = {
  app_service_id: appServiceIdField(),
  location: z.enum(["aws", "azure", "onprem"], { error: (iss) => (iss.input === undefined ? "Field required" : "Location must be one of: aws, azure, onprem") }),
  region: textField(100).optional(),
  cloud_endpoint_service_name: textField().optional(),
  fqdn: textField(appServiceLimits.fqdn).optional(),
  service_node_group_id: idField("Service node group").optional(),
};

/** add-app-service-hosting's rules by location (spec 1 §5): the platform's body and the console's Add Hosting form check them. */
export function addHostingRules(b: z.output<z.ZodObject<typeof addHostingFields>>, ctx: z.RefinementCtx): void {
  if (!["aws", "azure", "onprem"].includes(b.location)) return;
  requireIn(ctx, b, addHostingRequired(b.location));
  if (b.location === "onprem") {
    if (b.fqdn && !isFqdnOrIp(b.fqdn)) ctx.addIssue({ code: "custom", path: ["fqdn"], message: netMessages.fqdnOrIp(b.fqdn) });
  } else {
    const ids = b.location === "aws" ? awsRegionIds : azureRegionIds;
    if (b.region && !ids.includes(b.region)) ctx.addIssue({ code: "custom", path: ["region"], message: `Choose a region of list-${b.location}-regions` });
    const v = b.cloud_endpoint_service_name;
    if (v && b.location === "aws" && !isAwsEndpointServiceName(v)) ctx.addIssue({ code: "custom", path: ["cloud_endpoint_service_name"], message: netMessages.awsEndpointServiceName });
    if (v && b.location === "azure" && !isAzureResourceId(v)) ctx.addIssue({ code: "custom", path: ["cloud_endpoint_service_name"], message: netMessages.azureResourceId });
  }
}

export const AddHostingBody = z
  .strictObject(addHostingFields)
  .superRefine(addHostingRules)
  .openapi("AppServiceAddHosting", { description: "aws/azure: region and cloud_endpoint_service_name (the name); onprem: fqdn and service_node_group_id." });
export const RemoveHostingBody = z.strictObject({ app_service_id: appServiceIdField(), hosting_id: idField("Hosting id") }).openapi("AppServiceRemoveHosting");
export const CreateGroupBody = z.strictObject({ service_node_group_name: requiredName("Node group name") }).openapi("CreateServiceNodeGroup");
