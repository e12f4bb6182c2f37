import { z } from "@hono/zod-openapi";
import { measureLatencyCall } from "./measure.ts";
import type { PlatformApp } from "../app.ts";
import { appServiceSortable, sizes } from "../contract/app-services.ts";
import {
  AddHostingBody,
  AppService,
  AppServiceCreated,
  AppServiceIdBody,
  appServiceIdField,
  AppServicePage,
  CloudRegion,
  ContactBody,
  CreateAppServiceBody,
  CreateGroupBody,
  EditBody,
  EpIdBody,
  Hosting,
  HostingAdded,
  RemoveHostingBody,
  ResizeBody,
  ServiceNodeGroupCreated,
  SetDescriptionBody,
  SetNameBody,
  TopTalker,
} from "../contract/app-services.shapes.ts";
import { Endpoint } from "../contract/endpoints.shapes.ts";
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
import { checkTimeRange, timeParam } from "../lib/fields.ts";
import { exportQuery, idsFilter, listQuery, ndjsonResponse } from "../lib/list.ts";
import { defineCall, defineListCalls, DetailSchema } from "../lib/openapi.ts";
import { appServiceMessages } from "../contract/messages.ts";

// ---------------------------------------------------------------------------------------------
// Schemas (the calls' requests are the contract's: ../contract/app-services.shapes.ts)

const tags = ["App Services"];
const QueryIdSchema = z.object({ app_service_id: appServiceIdField() });

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
