import { failureReply, intentAction, refreshIntent, submitForm, validateForm } from "../../lib/action.server.ts";
import { apiPost } from "../../lib/api.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { returnUrl } from "../../lib/url.ts";
import { createIntent, latencyIntent, removeIntent, sharedIntents } from "../services-shared/intents.server.ts";
import { CREATE_FIELDS } from "./model.ts";
import {
  AddHostingSchema,
  CreateAppServiceSchema,
  EditSchema,
  EndpointDecisionSchema,
  GroupSchema,
  IdSchema,
  removeHostingSchema,
  removeSchema,
  subject,
  createAppServiceBody,
} from "./schemas.server.ts";
import { appServiceMessages } from "../../../platform/contract/messages.ts";

/* The App Services screen's action (spec 1 §2, §7 App services, §8): one function per intent. */

/** Create; a deployment switch keeps what was typed. The new one is then selected, on its Details tab. */
const create = createIntent(CREATE_FIELDS, {
  schema: CreateAppServiceSchema,
  call: "create-app-service",
  body: createAppServiceBody,
  toast: appServiceMessages.created,
  redirect: (res: { app_service_id: string }) => ({ deployment: null, draft: null, selected: [res.app_service_id], tab: null }),
});

// Back to the create dialog, which now offers the group (the URL still names it).
const createGroup = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: GroupSchema,
    call: "create-service-node-group",
    fields: ["service_node_group_name"],
    toast: appServiceMessages.groupCreated,
    redirect: () => new URL(request.url).pathname + new URL(request.url).search,
  });

const edit = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: EditSchema,
    call: "edit-app-service",
    body: (v) => ({ app_service_id: v.app_service_id, proto: v.proto || undefined, port: v.port, fqdn: v.fqdn }),
    fields: ["proto", "port", "fqdn"],
    toast: appServiceMessages.updated,
  });

/** Approve or Reject the endpoint chosen on the Endpoints tab (a plain form: a refusal is a toast). */
async function endpoint(request: Request, formData: FormData) {
  const form = validateForm(formData, EndpointDecisionSchema);
  if (!form.ok) return redirectWithToast(request, returnUrl(request), { type: "error", message: appServiceMessages.selectEndpoint, persistent: true });
  const { ep_id, decision } = form.value;
  const res = await apiPost(request, decision === "approve" ? "approve-endpoint" : "reject-endpoint", { ep_id });
  if (!res.ok) return failureReply(request, res);
  return redirectWithToast(request, returnUrl(request), { type: "success", message: decision === "approve" ? "Endpoint approved." : "Endpoint rejected." });
}

const addHosting = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: AddHostingSchema,
    call: "app-service-add-hosting",
    body: (v) =>
      v.location === "onprem"
        ? { app_service_id: v.app_service_id, location: v.location, fqdn: v.fqdn, service_node_group_id: v.service_node_group_id }
        : { app_service_id: v.app_service_id, location: v.location, region: v.region, cloud_endpoint_service_name: v.cloud_endpoint_service_name },
    fields: ["region", "cloud_endpoint_service_name", "fqdn", "service_node_group_id"],
    toast: "Hosting added.",
    redirect: { location: null },
  });

const removeHosting = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: removeHostingSchema(String(formData.get("hosting_id") ?? "")),
    call: "app-service-remove-hosting",
    body: (v) => ({ app_service_id: v.app_service_id, hosting_id: v.hosting_id }),
    errors: "toast",
    toast: "Hosting removed.",
  });

export const appServiceAction = intentAction(
  {
    create,
    "create-group": createGroup,
    ...sharedIntents({ ...subject, area: "app-service" }),
    edit,
    latency: latencyIntent(IdSchema, "measure-app-service-latency"),
    remove: removeIntent({ idField: "app_service_id", schema: removeSchema, call: "remove-app-service", toast: appServiceMessages.removed }),
    endpoint,
    "add-hosting": addHosting,
    "remove-hosting": removeHosting,
    refresh: refreshIntent("Refreshed App Services."),
  },
  // Refresh only reads and a measurement changes nothing: open to every role. Everything else changes something.
  { readable: ["refresh", "latency"] },
);
