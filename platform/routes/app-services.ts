import { z } from "@hono/zod-openapi";
import { measureLatencyCall } from "./measure.ts";
import type { PlatformApp } from "../app.ts";
import {
  appServiceDeployments,
  appServiceLimits,
  appServiceProtocols,
  appServiceSortable,
  resizeDirections,
  sizes,
} from "../contract/app-services.ts";
import {
  AppService,
  AppServiceCreated,
  AppServicePage,
  CloudRegion,
  Hosting,
  HostingAdded,
  ServiceNodeGroupCreated,
  TopTalker,
} from "../contract/app-services.shapes.ts";
import { Endpoint } from "../contract/endpoints.shapes.ts";
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
  appServiceList,
  createAppService,
  createServiceNodeGroup,
  editAppService,
  exportAppServices,
  measureAppServiceLatency,
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
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { bool, checkTimeRange, emailField, expects, idField, line, multiline, requiredName, timeParam, plainText } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonResponse } from "../lib/list.ts";
import { defineCall, defineListCalls, DetailSchema } from "../lib/openapi.ts";
import { appServiceMessages } from "../contract/messages.ts";

// ---------------------------------------------------------------------------------------------
// Schemas

const tags = ["App Services"];
const appServiceIdField = () => idField("App Service id").openapi({ example: "as-5q2w8e1r4t6y" });

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
      .refine((s) => s.trim() !== "", appServiceMessages.selectHosting)
      .apply(plainText),
    direction: z.enum(resizeDirections, { error: "Direction must be up or down" }).default("up"),
  })
  .openapi("ResizeAppService");
const AppServiceIdBody = z.strictObject({ app_service_id: appServiceIdField() }).openapi("AppServiceId");
const EpIdBody = z.strictObject({ ep_id: idField("Endpoint id") }).openapi("EndpointDecision");
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
      need(b.cloud_endpoint_service_name, "cloud_endpoint_service_name", b.location === "aws" ? "Endpoint service name is required" : "Private link service id is required");
      const v = b.cloud_endpoint_service_name;
      if (v && b.location === "aws" && !isAwsEndpointServiceName(v)) ctx.addIssue({ code: "custom", path: ["cloud_endpoint_service_name"], message: netMessages.awsEndpointServiceName });
      if (v && b.location === "azure" && !isAzureResourceId(v)) ctx.addIssue({ code: "custom", path: ["cloud_endpoint_service_name"], message: netMessages.azureResourceId });
    }
  })
  .openapi("AppServiceAddHosting", { description: "aws/azure: region and cloud_endpoint_service_name (the name); onprem: fqdn and service_node_group_id." });
const RemoveHostingBody = z.strictObject({ app_service_id: appServiceIdField(), hosting_id: idField("Hosting id") }).openapi("AppServiceRemoveHosting");
const CreateGroupBody = z.strictObject({ service_node_group_name: requiredName("Node group name") }).openapi("CreateServiceNodeGroup");

const TopTalkerQuery = z
  .object({ app_service_id: appServiceIdField(), start_time: timeParam("start_time"), end_time: timeParam("end_time") })
  .superRefine((q, ctx) => checkTimeRange(ctx, { start: q.start_time, end: q.end_time }, { maxDays: 400 }));

// ---------------------------------------------------------------------------------------------
// Calls

function get<const P extends `/${string}`, Q extends z.ZodObject, R extends z.ZodType>(path: P, summary: string, query: Q, response: R, description?: string) {
  return defineCall({ method: "get", path, tags, summary, description, query, response, errors: [404] });
}
/** A change of one app service (or of what it holds): unknown ids answer 404, refusals 409. */
function post<const P extends `/${string}`, B extends z.ZodType, R extends z.ZodType>(path: P, summary: string, body: B, response: R, description?: string) {
  return defineCall({ method: "post", path, tags, summary, description, only: "writer", body, response, errors: [404, 409] });
}
/** A fixed list: nothing to send but the token. */
const fixed = <const P extends `/${string}`, R extends z.ZodType>(path: P, summary: string, response: R) => defineCall({ method: "get", path, tags, summary, response });

const ListQuery = z.object({ ...listQuery(appServiceSortable), ids: idsFilter });

export const routes = {
  list: defineListCalls({
    tags,
    item: AppService,
    page: AppServicePage,
    list: {
      path: "/list-app-service",
      summary: "The caller's app services",
      rows: ["app service", "oldest first"],
      query: ListQuery,
    },
  }).list,
  export: defineListCalls({
    tags,
    item: AppService,
    itemName: "AppService",
    export: {
      path: "/export-app-services",
      summary: "Every app service the search selects, streamed as NDJSON",
      description: "The rows of list-app-service with the same q and sort, all of them (one AppService per line).",
      query: z.object(exportQuery(appServiceSortable)),
    },
  }).export,
  detail: get("/get-app-service-detail", "One app service", QueryIdSchema, AppService, "Another account's id, or an unknown one: 404 'App Service not found'."),
  create: post("/create-app-service", "Create an app service", CreateAppServiceBody, AppServiceCreated, "Answers 'App Service created.' and the id; a primary hosting (priority 1) is created with it."),
  setName: post("/set-app-service-name", "Rename an app service", SetNameBody, DetailSchema),
  setDescription: post("/set-app-service-description", "Set an app service's description", SetDescriptionBody, DetailSchema),
  edit: post("/edit-app-service", "Edit protocol, port and FQDN", EditBody, DetailSchema, "Protocols as the deployment allows (aws tcp; azure tcp, udp; onprem tcp, udp, ftp); only onprem has an FQDN; network has none of them."),
  contact: post("/set-app-service-contact", "Set the business and technical contact", ContactBody, DetailSchema, "With no contacts in the account: 400 'Missing Contacts: …'."),
  resize: post("/resize-app-service", "Resize a hosting one step up or down", ResizeBody, DetailSchema, `Sizes ${sizes.join(" < ")}; refused past either end and for onprem. Without hosting_id: 'Please select a hosting location.'.`),
  // Test Reachability: the one rule of ./measure.ts (every role, nothing stored).
  latency: measureLatencyCall({ path: "/measure-app-service-latency", tags, summary: "Measure latency (ten probes from the nearest PoP)", description: "Key/value pairs.", body: AppServiceIdBody }),
  remove: post("/remove-app-service", "Remove an app service", AppServiceIdBody, DetailSchema, "Refused (409) with a list detail naming every endpoint that still uses it."),
  endpoints: get("/get-app-service-endpoints", "The endpoints of an app service", QueryIdSchema, z.array(Endpoint)),
  approve: post("/approve-endpoint", "Approve an endpoint's use of its app service", EpIdBody, DetailSchema),
  reject: post("/reject-endpoint", "Reject an endpoint's use of its app service", EpIdBody, DetailSchema),
  topTalkers: get("/get-top-talker-ep", "The app service's endpoints by bytes over a time range", TopTalkerQuery, z.array(TopTalker)),
  hostings: get(
    "/app-service-get-hosting",
    "The hostings of an app service",
    z.object({ app_service_id: appServiceIdField(), hosting_type: z.enum(["cloud", "onprem"]).optional() }),
    z.array(Hosting),
  ),
  addHosting: post("/app-service-add-hosting", "Add a hosting", AddHostingBody, HostingAdded, "Answers 'Hosting added.'."),
  removeHosting: post("/app-service-remove-hosting", "Remove a hosting", RemoveHostingBody, DetailSchema, "Answers 'Hosting removed.'; the primary hosting stays."),
  awsRegions: fixed("/list-aws-regions", "AWS regions", z.array(CloudRegion)),
  azureRegions: fixed("/list-azure-regions", "Azure regions", z.array(CloudRegion)),
  createGroup: post("/create-service-node-group", "Create a service node group", CreateGroupBody, ServiceNodeGroupCreated, "Answers 'Service Node Group created.'."),
};

export function registerAppServiceCalls(app: PlatformApp) {
  const db = (c: { get(k: "deps"): { db: import("../db/client.ts").Db } }) => c.get("deps").db;

  app.openapi(routes.list, async (c) => {
    return appServiceList.answer(c, caller(c).accountId, c.req.valid("query"));
  });
  app.openapi(routes.export, async (c) => {
    const who = caller(c);
    return ndjsonResponse(exportAppServices(db(c), who.accountId, c.req.valid("query")), c.req.raw.signal);
  });
  app.openapi(routes.detail, async (c) => cachedJson(c, () => appServiceDetail(db(c), caller(c).accountId, c.req.valid("query").app_service_id)));
  app.openapi(
    routes.create,
    answerChange(routes.create, (deps, who, b) => createAppService(deps.db, fleetOf(deps), who.accountId, b), (id) => ({ app_service_id: id, detail: appServiceMessages.created })),
  );
  app.openapi(routes.setName, answerDetail(routes.setName, (deps, who, b) => setAppServiceName(deps.db, who.accountId, b.app_service_id, b.app_service_name), "App Service name updated."));
  app.openapi(
    routes.setDescription,
    answerDetail(routes.setDescription, (deps, who, b) => setAppServiceDescription(deps.db, who.accountId, b.app_service_id, b.description), "App Service description updated."),
  );
  app.openapi(routes.edit, answerDetail(routes.edit, (deps, who, b) => editAppService(deps.db, who.accountId, b), appServiceMessages.updated));
  app.openapi(routes.contact, answerDetail(routes.contact, (deps, who, b) => setAppServiceContacts(deps.db, who.accountId, b), "Contacts updated."));
  app.openapi(routes.resize, answerDetail(routes.resize, (deps, who, b) => resizeAppService(deps.db, who.accountId, b), "Resized App Service successfully."));
  app.openapi(
    routes.latency,
    async (c) => c.json(await measureAppServiceLatency(db(c), fleetOf(c.get("deps")), caller(c).accountId, c.req.valid("json").app_service_id), 200),
  );
  app.openapi(routes.remove, answerDetail(routes.remove, (deps, who, b) => removeAppService(deps.db, who.accountId, b.app_service_id), appServiceMessages.removed));
  app.openapi(routes.endpoints, answerQuery(routes.endpoints, (deps, who, q) => appServiceEndpoints(deps.db, who.accountId, q.app_service_id)));
  app.openapi(routes.approve, answerDetail(routes.approve, (deps, who, b) => setEndpointApproval(deps.db, who.accountId, b.ep_id, "approved"), "Endpoint approved."));
  app.openapi(routes.reject, answerDetail(routes.reject, (deps, who, b) => setEndpointApproval(deps.db, who.accountId, b.ep_id, "rejected"), "Endpoint rejected."));
  app.openapi(
    routes.topTalkers,
    answerQuery(routes.topTalkers, (deps, who, q) => topTalkers(deps.db, fleetOf(deps), who.accountId, q.app_service_id, q.start_time, q.end_time)),
  );
  app.openapi(routes.hostings, answerQuery(routes.hostings, (deps, who, q) => appServiceHostings(deps.db, who.accountId, q.app_service_id, q.hosting_type)));
  app.openapi(
    routes.addHosting,
    answerChange(routes.addHosting, (deps, who, b) => addHosting(deps.db, fleetOf(deps), who.accountId, b), (id) => ({ hosting_id: id, detail: "Hosting added." })),
  );
  app.openapi(routes.removeHosting, answerDetail(routes.removeHosting, (deps, who, b) => removeHosting(deps.db, who.accountId, b.app_service_id, b.hosting_id), "Hosting removed."));
  app.openapi(routes.awsRegions, async (c) => {
    caller(c);
    return c.json(awsRegions.map(({ region, name }) => ({ region, name })), 200);
  });
  app.openapi(routes.azureRegions, async (c) => {
    caller(c);
    return c.json(azureRegions.map(({ region, name }) => ({ region, name })), 200);
  });
  // list-service-node-group / list_service_node_group moved to routes/nodes-service.ts (issue #28): same paths and ids.
  app.openapi(
    routes.createGroup,
    answerChange(
      routes.createGroup,
      (deps, who, b) => createServiceNodeGroup(deps.db, who.accountId, b.service_node_group_name),
      (id) => ({ service_node_group_id: id, detail: appServiceMessages.groupCreated }),
    ),
  );
}
