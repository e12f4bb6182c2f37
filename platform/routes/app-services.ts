import { createRoute, z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import {
  appServiceDeployments,
  appServiceLimits,
  appServiceProtocols,
  appServiceSortable,
  resizeDirections,
  sizes,
  type AppService,
  type Hosting,
  type ServiceNodeGroup,
  type TopTalker,
} from "../contract/app-services.ts";
import {
  isAsn,
  isAwsEndpointServiceName,
  isAzureResourceId,
  isCidr,
  isFqdnOrIp,
  isIp,
  isPort,
  netMessages,
} from "../contract/net.ts";
import {
  addHosting,
  appServiceDetail,
  appServiceEndpoints,
  appServiceHostings,
  createAppService,
  createServiceNodeGroup,
  editAppService,
  exportAppServices,
  listAppServices,
  listServiceNodeGroups,
  measureAppServiceLatency,
  queryAppServices,
  removeAppService,
  removeHosting,
  resizeAppService,
  setAppServiceContacts,
  setAppServiceDescription,
  setAppServiceName,
  setEndpointApproval,
  topTalkers,
} from "../domain/app-services.ts";
import { awsRegions, azureRegions } from "../domain/regions.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { cachedJson } from "../lib/auth.ts";
import { caller, requireWriter, writerOnly } from "../lib/context.ts";
import { emailField, expects, idField, isSingleLine, junkMessage, line, multiline, requiredName } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonOk, ndjsonResponse, pageSchema, wantsPage } from "../lib/list.ts";
import { bearer, DetailSchema, errors, jsonBody, ok, writeResponses } from "../lib/openapi.ts";

// ---------------------------------------------------------------------------------------------
// Schemas

const tags = ["App Services"];
const appServiceIdField = () => idField("App Service id").openapi({ example: "as-5q2w8e1r4t6y" });

const AppServiceSchema = z
  .object({
    app_service_id: z.string(),
    app_service_name: z.string(),
    account_id: z.string(),
    description: z.string(),
    deployment: z.enum(appServiceDeployments),
    fqdn: z.string(),
    proto: z.string(),
    port: z.number().int().nullable(),
    region: z.string(),
    cloud_endpoint_service_name: z.string().openapi({ description: "aws: the endpoint service name; azure: the private link service id" }),
    service_node_group_id: z.string().nullable(),
    admin_state: z.string(),
    op_state: z.string().openapi({ description: "up or down" }),
    size: z.enum(sizes),
    health: z.number().int().nullable().openapi({ description: "0–100, from the last measurement" }),
    created_at: z.string().openapi({ format: "date-time" }),
    admin_state_change_at: z.string().openapi({ format: "date-time" }),
    op_state_change_at: z.string().openapi({ format: "date-time" }),
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
    primary_contact_id: z.string().nullable().openapi({ description: "The business contact" }),
    primary_contact: z.string().nullable(),
    secondary_contact_id: z.string().nullable().openapi({ description: "The technical contact" }),
    secondary_contact: z.string().nullable(),
  })
  .openapi("AppService") satisfies z.ZodType<AppService>;

const HostingSchema = z
  .object({
    hosting_id: z.string(),
    app_service_id: z.string(),
    admin_state: z.string(),
    op_state: z.string(),
    priority_id: z.number().int(),
    hosting_type: z.enum(["cloud", "onprem"]),
    region: z.string(),
    service_provider: z.string(),
    cloud_endpoint_service_name: z.string(),
    fqdn: z.string(),
    service_node_group_id: z.string().nullable(),
    size: z.enum(sizes),
    health: z.number().int().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("Hosting") satisfies z.ZodType<Hosting>;

const TopTalkerSchema = z
  .object({ epid: z.string(), rx_bytes: z.number(), tx_bytes: z.number(), total_bytes: z.number() })
  .openapi("TopTalker") satisfies z.ZodType<TopTalker>;

const RegionSchema = z.object({ region: z.string(), name: z.string() }).openapi("CloudRegion");

const ServiceNodeGroupSchema = z
  .object({
    service_node_group_id: z.string(),
    service_node_group_name: z.string(),
    external_certificate: z.boolean(),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("ServiceNodeGroup") satisfies z.ZodType<ServiceNodeGroup>;

// Endpoints as get-app-service-endpoints answers them (the endpoints issue owns the full calls).
const EndpointSchema = z
  .object({
    ep_id: z.string(),
    ep_name: z.string(),
    description: z.string(),
    account_id: z.string(),
    deployment: z.string(),
    app_service_id: z.string(),
    hosting_id: z.string().nullable(),
    approval_status: z.enum(["pending", "approved", "rejected"]),
    admin_state: z.string(),
    op_state: z.string(),
    size: z.string(),
    region: z.string(),
    fqdn: z.string(),
    ip_addr: z.string(),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .passthrough()
  .openapi("AppServiceEndpoint");

const QueryIdSchema = z.object({ app_service_id: appServiceIdField() });

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
const bool = () => z.boolean({ error: expects("a valid boolean") });

const awsRegionIds = awsRegions.map((r) => r.region);
const azureRegionIds = azureRegions.map((r) => r.region);

const CreateAppServiceBody = z
  .strictObject({
    app_service_name: requiredName("Name", appServiceLimits.name),
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
  })
  .superRefine((b, ctx) => {
    const need = (ok: unknown, path: string, message: string) => {
      if (ok === undefined || ok === "" || (Array.isArray(ok) && ok.length === 0)) ctx.addIssue({ code: "custom", path: [path], message });
    };
    const check = (value: string | undefined, valid: (s: string) => boolean, path: string, message: string) => {
      if (value !== undefined && value !== "" && !valid(value)) ctx.addIssue({ code: "custom", path: [path], message });
    };
    const protocols: readonly string[] = appServiceProtocols[b.location];
    const protocolRule = () => {
      need(b.proto, "proto", "Protocol is required");
      if (b.proto && !protocols.includes(b.proto)) ctx.addIssue({ code: "custom", path: ["proto"], message: `Protocol must be one of: ${protocols.join(", ")}` });
    };
    switch (b.location) {
      case "aws":
        need(b.region, "region", "Region is required");
        if (b.region && !awsRegionIds.includes(b.region)) ctx.addIssue({ code: "custom", path: ["region"], message: "Choose a region of list-aws-regions" });
        need(b.cloud_endpoint_service_name, "cloud_endpoint_service_name", "Endpoint service name is required");
        check(b.cloud_endpoint_service_name, isAwsEndpointServiceName, "cloud_endpoint_service_name", netMessages.awsEndpointServiceName);
        need(b.port, "port", "Port is required");
        if (b.proto && b.proto !== "tcp") ctx.addIssue({ code: "custom", path: ["proto"], message: "An aws App Service is TCP only" });
        break;
      case "onprem":
        need(b.fqdn, "fqdn", "FQDN is required");
        check(b.fqdn, isFqdnOrIp, "fqdn", netMessages.fqdnOrIp(b.fqdn ?? ""));
        need(b.service_node_group_id, "service_node_group_id", "Service node group is required");
        protocolRule();
        need(b.port, "port", "Port is required");
        break;
      case "azure":
        protocolRule();
        need(b.port, "port", "Port is required");
        need(b.region, "region", "Region is required");
        if (b.region && !azureRegionIds.includes(b.region)) ctx.addIssue({ code: "custom", path: ["region"], message: "Choose a region of list-azure-regions" });
        if (b.open_ai_private_link) {
          need(b.private_endpoint_ip_address, "private_endpoint_ip_address", "Private endpoint IP is required");
          check(b.private_endpoint_ip_address, isIp, "private_endpoint_ip_address", netMessages.ip(b.private_endpoint_ip_address ?? ""));
          need(b.remote_vnet_resource_id, "remote_vnet_resource_id", "Remote VNET resource id is required");
          check(b.remote_vnet_resource_id, isAzureResourceId, "remote_vnet_resource_id", netMessages.azureResourceId);
          need(b.azure_user_email, "azure_user_email", "Customer user email is required");
        } else {
          need(b.cloud_endpoint_service_name, "cloud_endpoint_service_name", "Private link service id is required");
          check(b.cloud_endpoint_service_name, isAzureResourceId, "cloud_endpoint_service_name", netMessages.azureResourceId);
        }
        break;
      case "network":
        need(b.real_subnets, "real_subnets", "Real subnets are required");
        need(b.service_node_group_id, "service_node_group_id", "Service node group is required");
        if (b.address_translation_enabled) need(b.virtual_subnet_pools, "virtual_subnet_pools", "Virtual subnet pools are required when address translation is on");
        if (b.bgp_enabled) {
          need(b.bgp_local_asn, "bgp_local_asn", "Local ASN is required when BGP is on");
          need(b.bgp_peer_asn, "bgp_peer_asn", "Peer ASN is required when BGP is on");
          need(b.bgp_peer_ip, "bgp_peer_ip", "Peer IP is required when BGP is on");
          check(b.bgp_peer_ip, isIp, "bgp_peer_ip", netMessages.ip(b.bgp_peer_ip ?? ""));
        }
        break;
    }
  })
  .openapi("CreateAppService", {
    description:
      "Required by location (spec 1 §5): aws — app_service_name, region, cloud_endpoint_service_name, port (TCP); onprem — fqdn, service_node_group_id, proto (tcp, udp, ftp), port; azure — proto (tcp, udp), port, region, and cloud_endpoint_service_name (the private link service id), or with open_ai_private_link private_endpoint_ip_address, remote_vnet_resource_id, azure_user_email; network — real_subnets, service_node_group_id, virtual_subnet_pools with address_translation_enabled, bgp_local_asn, bgp_peer_asn, bgp_peer_ip with bgp_enabled. Fields of other locations are ignored.",
  });

const SetNameBody = z.strictObject({ app_service_id: appServiceIdField(), app_service_name: requiredName("Name", appServiceLimits.name) }).openapi("SetAppServiceName");
const SetDescriptionBody = z
  .strictObject({ app_service_id: appServiceIdField(), description: multiline(appServiceLimits.description) })
  .openapi("SetAppServiceDescription");
const EditBody = z
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
const ContactBody = z
  .strictObject({
    app_service_id: appServiceIdField(),
    primary_contact_id: z.union([idField("Business contact"), z.literal("")]).nullable().optional(),
    secondary_contact_id: z.union([idField("Technical contact"), z.literal("")]).nullable().optional(),
  })
  .openapi("SetAppServiceContact", { description: "primary = business contact, secondary = technical contact; '' or null clears one." });
const ResizeBody = z
  .strictObject({
    app_service_id: appServiceIdField(),
    hosting_id: z
      .string({ error: expects("a valid string") })
      .max(100)
      .refine((s) => s.trim() !== "", "Please select a hosting location.")
      .refine(isSingleLine, junkMessage),
    direction: z.enum(resizeDirections, { error: "Direction must be up or down" }).default("up"),
  })
  .openapi("ResizeAppService");
const AppServiceIdBody = z.strictObject({ app_service_id: appServiceIdField() }).openapi("AppServiceId");
const EpIdBody = z.strictObject({ ep_id: idField("Endpoint id") }).openapi("EndpointId");
const AddHostingBody = z
  .strictObject({
    app_service_id: appServiceIdField(),
    location: z.enum(["aws", "azure", "onprem"], { error: (iss) => (iss.input === undefined ? "Field required" : "Location must be one of: aws, azure, onprem") }),
    region: textField(100).optional(),
    cloud_endpoint_service_name: textField().optional(),
    fqdn: textField(appServiceLimits.fqdn).optional(),
    service_node_group_id: idField("Service node group").optional(),
  })
  .superRefine((b, ctx) => {
    const need = (v: string | undefined, path: string, message: string) => {
      if (!v) ctx.addIssue({ code: "custom", path: [path], message });
    };
    if (b.location === "onprem") {
      need(b.fqdn, "fqdn", "FQDN is required");
      if (b.fqdn && !isFqdnOrIp(b.fqdn)) ctx.addIssue({ code: "custom", path: ["fqdn"], message: netMessages.fqdnOrIp(b.fqdn) });
      need(b.service_node_group_id, "service_node_group_id", "Node group is required");
    } else {
      need(b.region, "region", "Region is required");
      const ids = b.location === "aws" ? awsRegionIds : azureRegionIds;
      if (b.region && !ids.includes(b.region)) ctx.addIssue({ code: "custom", path: ["region"], message: `Choose a region of list-${b.location}-regions` });
      need(b.cloud_endpoint_service_name, "cloud_endpoint_service_name", "Name is required");
      const v = b.cloud_endpoint_service_name;
      if (v && b.location === "aws" && !isAwsEndpointServiceName(v)) ctx.addIssue({ code: "custom", path: ["cloud_endpoint_service_name"], message: netMessages.awsEndpointServiceName });
      if (v && b.location === "azure" && !isAzureResourceId(v)) ctx.addIssue({ code: "custom", path: ["cloud_endpoint_service_name"], message: netMessages.azureResourceId });
    }
  })
  .openapi("AppServiceAddHosting", { description: "aws/azure: region and cloud_endpoint_service_name (the name); onprem: fqdn and service_node_group_id." });
const RemoveHostingBody = z.strictObject({ app_service_id: appServiceIdField(), hosting_id: idField("Hosting id") }).openapi("AppServiceRemoveHosting");
const CreateGroupBody = z.strictObject({ service_node_group_name: requiredName("Node group name") }).openapi("CreateServiceNodeGroup");

const timeParam = (what: string) =>
  z
    .string({ error: expects("a valid string") })
    .max(40)
    .transform((s, ctx) => {
      const d = /^\d{1,15}$/.test(s) ? new Date(Number(s)) : new Date(s);
      if (!Number.isFinite(d.getTime())) {
        ctx.addIssue({ code: "custom", message: `${what} must be an ISO 8601 time or milliseconds since the epoch` });
        return z.NEVER;
      }
      return d;
    })
    .openapi({ type: "string", description: "ISO 8601, or milliseconds since the epoch", example: "2026-11-23T10:00:00Z" });

const TopTalkerQuery = z
  .object({ app_service_id: appServiceIdField(), start_time: timeParam("start_time"), end_time: timeParam("end_time") })
  .superRefine((q, ctx) => {
    if (q.end_time.getTime() <= q.start_time.getTime()) ctx.addIssue({ code: "custom", path: ["end_time"], message: "end_time must be after start_time" });
    else if (q.end_time.getTime() - q.start_time.getTime() > 400 * 86_400_000) ctx.addIssue({ code: "custom", path: ["end_time"], message: "The range may span at most 400 days" });
  });

const Created = (name: string, idName: string) => z.object({ [idName]: z.string(), detail: z.string() }).openapi(name);

// ---------------------------------------------------------------------------------------------
// Calls

function get<Q extends z.ZodObject, R extends z.ZodType>(path: string, summary: string, query: Q, response: R, description?: string) {
  return createRoute({ method: "get", path, tags, summary, description, security: bearer, request: { query }, responses: { ...ok(response), ...errors(401, 404, 422) } });
}
function post<B extends z.ZodType, R extends z.ZodType>(path: string, summary: string, body: B, response: R, description?: string) {
  return createRoute({
    method: "post",
    path,
    tags,
    summary,
    description,
    security: bearer,
    middleware: [writerOnly] as const,
    request: jsonBody(body),
    responses: { ...ok(response), ...writeResponses, ...errors(409) },
  });
}

const ListQuery = z.object({ ...listQuery(appServiceSortable), ids: idsFilter });
const AppServicePage = pageSchema(AppServiceSchema, "AppServicePage");

const routes = {
  list: get(
    "/list-app-service",
    "The caller's app services",
    ListQuery,
    z.union([z.array(AppServiceSchema), AppServicePage]),
    "Without list parameters: every app service, oldest first (the spec's array). With any of q, sort, page, size, ids: one page `{items, total}`, searched, sorted and paged in SQL.",
  ),
  export: createRoute({
    method: "get",
    path: "/export-app-services",
    tags,
    summary: "Every app service the search selects, streamed as NDJSON",
    security: bearer,
    request: { query: z.object(exportQuery(appServiceSortable)) },
    responses: { ...ndjsonOk(AppServiceSchema, "One AppService (JSON) per line"), ...errors(401, 422) },
  }),
  detail: get("/get-app-service-detail", "One app service", QueryIdSchema, AppServiceSchema, "Another account's id, or an unknown one: 404 'App Service not found'."),
  create: post("/create-app-service", "Create an app service", CreateAppServiceBody, Created("AppServiceCreated", "app_service_id"), "Answers 'App Service created.' and the id; a primary hosting (priority 1) is created with it."),
  setName: post("/set-app-service-name", "Rename an app service", SetNameBody, DetailSchema),
  setDescription: post("/set-app-service-description", "Set an app service's description", SetDescriptionBody, DetailSchema),
  edit: post("/edit-app-service", "Edit protocol, port and FQDN", EditBody, DetailSchema, "Protocols as the deployment allows (aws tcp; azure tcp, udp; onprem tcp, udp, ftp); only onprem has an FQDN; network has none of them."),
  contact: post("/set-app-service-contact", "Set the business and technical contact", ContactBody, DetailSchema, "With no contacts in the account: 400 'Missing Contacts: …'."),
  resize: post("/resize-app-service", "Resize a hosting one step up or down", ResizeBody, DetailSchema, `Sizes ${sizes.join(" < ")}; refused past either end and for onprem. Without hosting_id: 'Please select a hosting location.'.`),
  latency: post("/measure-app-service-latency", "Measure latency (ten probes from the nearest PoP)", AppServiceIdBody, z.record(z.string(), z.union([z.string(), z.number(), z.null()])), "Key/value pairs."),
  remove: post("/remove-app-service", "Remove an app service", AppServiceIdBody, DetailSchema, "Refused (409) with a list detail naming every endpoint that still uses it."),
  endpoints: get("/get-app-service-endpoints", "The endpoints of an app service", QueryIdSchema, z.array(EndpointSchema)),
  approve: post("/approve-endpoint", "Approve an endpoint's use of its app service", EpIdBody, DetailSchema),
  reject: post("/reject-endpoint", "Reject an endpoint's use of its app service", EpIdBody, DetailSchema),
  topTalkers: get("/get-top-talker-ep", "The app service's endpoints by bytes over a time range", TopTalkerQuery, z.array(TopTalkerSchema)),
  hostings: get(
    "/app-service-get-hosting",
    "The hostings of an app service",
    z.object({ app_service_id: appServiceIdField(), hosting_type: z.enum(["cloud", "onprem"]).optional() }),
    z.array(HostingSchema),
  ),
  addHosting: post("/app-service-add-hosting", "Add a hosting", AddHostingBody, Created("HostingAdded", "hosting_id"), "Answers 'Hosting added.'."),
  removeHosting: post("/app-service-remove-hosting", "Remove a hosting", RemoveHostingBody, DetailSchema, "Answers 'Hosting removed.'; the primary hosting stays."),
  awsRegions: get("/list-aws-regions", "AWS regions", z.object({}), z.array(RegionSchema)),
  azureRegions: get("/list-azure-regions", "Azure regions", z.object({}), z.array(RegionSchema)),
  createGroup: post("/create-service-node-group", "Create a service node group", CreateGroupBody, Created("ServiceNodeGroupCreated", "service_node_group_id"), "Answers 'Service Node Group created.'."),
};

export function registerAppServiceCalls(app: PlatformApp) {
  const db = (c: { get(k: "deps"): { db: import("../db/client.ts").Db } }) => c.get("deps").db;

  app.openapi(routes.list, async (c) => {
    const who = caller(c);
    const query = c.req.valid("query");
    // Rows change only through this platform's calls and the fleet's op-state changes, which
    // forget the cached reads (platform/lib/auth.ts): a page is remembered like the spec's array.
    if (wantsPage(query)) return cachedJson(c, () => queryAppServices(db(c), who.accountId, query));
    return cachedJson(c, () => listAppServices(db(c), who.accountId));
  });
  app.openapi(routes.export, async (c) => {
    const who = caller(c);
    return (await ndjsonResponse(exportAppServices(db(c), who.accountId, c.req.valid("query")), c.req.raw.signal)) as never;
  });
  app.openapi(routes.detail, async (c) => cachedJson(c, () => appServiceDetail(db(c), caller(c).accountId, c.req.valid("query").app_service_id)));
  app.openapi(routes.create, async (c) => {
    const who = requireWriter(c);
    const id = await createAppService(db(c), fleetOf(c.get("deps")), who.accountId, c.req.valid("json"));
    return c.json({ app_service_id: id, detail: "App Service created." }, 200);
  });
  app.openapi(routes.setName, async (c) => {
    const b = c.req.valid("json");
    await setAppServiceName(db(c), requireWriter(c).accountId, b.app_service_id, b.app_service_name);
    return c.json({ detail: "App Service name updated." }, 200);
  });
  app.openapi(routes.setDescription, async (c) => {
    const b = c.req.valid("json");
    await setAppServiceDescription(db(c), requireWriter(c).accountId, b.app_service_id, b.description);
    return c.json({ detail: "App Service description updated." }, 200);
  });
  app.openapi(routes.edit, async (c) => {
    await editAppService(db(c), requireWriter(c).accountId, c.req.valid("json"));
    return c.json({ detail: "App Service updated." }, 200);
  });
  app.openapi(routes.contact, async (c) => {
    await setAppServiceContacts(db(c), requireWriter(c).accountId, c.req.valid("json"));
    return c.json({ detail: "Contacts updated." }, 200);
  });
  app.openapi(routes.resize, async (c) => {
    await resizeAppService(db(c), requireWriter(c).accountId, c.req.valid("json"));
    return c.json({ detail: "Resized App Service successfully." }, 200);
  });
  app.openapi(routes.latency, async (c) => {
    const r = await measureAppServiceLatency(db(c), fleetOf(c.get("deps")), requireWriter(c).accountId, c.req.valid("json").app_service_id);
    return c.json(r as Record<string, string | number | null>, 200);
  });
  app.openapi(routes.remove, async (c) => {
    await removeAppService(db(c), requireWriter(c).accountId, c.req.valid("json").app_service_id);
    return c.json({ detail: "App Service removed." }, 200);
  });
  app.openapi(routes.endpoints, async (c) => c.json(await appServiceEndpoints(db(c), caller(c).accountId, c.req.valid("query").app_service_id), 200));
  app.openapi(routes.approve, async (c) => {
    await setEndpointApproval(db(c), requireWriter(c).accountId, c.req.valid("json").ep_id, "approved");
    return c.json({ detail: "Endpoint approved." }, 200);
  });
  app.openapi(routes.reject, async (c) => {
    await setEndpointApproval(db(c), requireWriter(c).accountId, c.req.valid("json").ep_id, "rejected");
    return c.json({ detail: "Endpoint rejected." }, 200);
  });
  app.openapi(routes.topTalkers, async (c) => {
    const q = c.req.valid("query");
    return c.json(await topTalkers(db(c), fleetOf(c.get("deps")), caller(c).accountId, q.app_service_id, q.start_time, q.end_time), 200);
  });
  app.openapi(routes.hostings, async (c) => {
    const q = c.req.valid("query");
    return c.json(await appServiceHostings(db(c), caller(c).accountId, q.app_service_id, q.hosting_type), 200);
  });
  app.openapi(routes.addHosting, async (c) => {
    const id = await addHosting(db(c), fleetOf(c.get("deps")), requireWriter(c).accountId, c.req.valid("json"));
    return c.json({ hosting_id: id, detail: "Hosting added." }, 200);
  });
  app.openapi(routes.removeHosting, async (c) => {
    const b = c.req.valid("json");
    await removeHosting(db(c), requireWriter(c).accountId, b.app_service_id, b.hosting_id);
    return c.json({ detail: "Hosting removed." }, 200);
  });
  app.openapi(routes.awsRegions, async (c) => {
    caller(c);
    return c.json(awsRegions.map(({ region, name }) => ({ region, name })), 200);
  });
  app.openapi(routes.azureRegions, async (c) => {
    caller(c);
    return c.json(azureRegions.map(({ region, name }) => ({ region, name })), 200);
  });
  // Spec 1 spells it list-service-node-group, spec 2 list_service_node_group: the same call.
  for (const path of ["/list-service-node-group", "/list_service_node_group"]) {
    app.openapi(get(path, "The caller's service node groups", z.object({}), z.array(ServiceNodeGroupSchema)), async (c) =>
      c.json(await listServiceNodeGroups(db(c), caller(c).accountId), 200),
    );
  }
  app.openapi(routes.createGroup, async (c) => {
    const id = await createServiceNodeGroup(db(c), requireWriter(c).accountId, c.req.valid("json").service_node_group_name);
    return c.json({ service_node_group_id: id, detail: "Service Node Group created." }, 200);
  });
}
