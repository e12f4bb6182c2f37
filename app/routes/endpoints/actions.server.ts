import { detailOr, failureReply, intentAction, submitForm, validateForm } from "../../lib/action.server.ts";
import { apiGet, apiPost } from "../../lib/api.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { returnUrl } from "../../lib/url.ts";
import { readDraft, writeDraft } from "../services-shared/draft.ts";
import { createIntent, latencyIntent, removeIntent, sharedIntents } from "../services-shared/intents.server.ts";
import { CREATE_FIELDS } from "./model.ts";
import { AgentDetailsSchema, CreateEndpointSchema, DecisionSchema, DeleteSchema, EpIdSchema, NodeGroupSchema, subject, createEndpointBody, visibilitySchema } from "./schemas.server.ts";
import { appServiceMessages, endpointMessages } from "../../../platform/contract/messages.ts";

/* The Endpoints screen's action (spec 1 §2, §4, §7 Endpoints, §8): one function per intent. */

/** Create; a location switch or the new-node-group panel keeps what was typed. */
const create = createIntent(CREATE_FIELDS, {
  schema: CreateEndpointSchema,
  call: "create-endpoint",
  body: createEndpointBody,
  toast: "Endpoint created.",
  redirect: { deployment: null, draft: null, panel: null },
});

/** A node group from the create dialog: back to the endpoint form with what was typed, the new group chosen. */
const createNodeGroup = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: NodeGroupSchema,
    call: "create-endpoint-node-group",
    body: (v) => ({ ep_node_group_name: v.ep_node_group_name }),
    fields: ["ep_node_group_name"],
    toast: detailOr(endpointMessages.nodeGroupCreated),
    redirect: (res: { ep_node_group_id: string }, v) => ({ dialog: "create", panel: null, draft: writeDraft({ ...readDraft(v.draft, CREATE_FIELDS), ep_node_group_id: res.ep_node_group_id }, CREATE_FIELDS) }),
  });

const agent = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: AgentDetailsSchema,
    call: "edit-endpoint",
    body: (v) => ({ ep_id: v.ep_id, user_agent_dns_servers: v.user_agent_dns_servers.join(", "), user_agent_cidrs: v.user_agent_cidrs.join(", ") }),
    fields: ["user_agent_dns_servers", "user_agent_cidrs"],
    toast: "Endpoint updated.",
  });

/** Advanced Visibility: the switch must differ from the platform's current value. */
async function visibility(request: Request, formData: FormData) {
  const epId = String(formData.get("ep_id") ?? "");
  const current = await apiGet(request, "get-endpoint-detail", { ep_id: epId });
  if (!current.ok) return failureReply(request, current);
  return submitForm(request, formData, {
    schema: visibilitySchema(current.data.proxying_enabled),
    call: "configure-endpoint-proxying",
    fields: ["enabled"],
    toast: endpointMessages.visibilityConfigured,
  });
}

/** Approve or Reject the single selected endpoint (spec 1 §2; the platform's approve-endpoint / reject-endpoint). */
async function decision(request: Request, formData: FormData) {
  const form = validateForm(formData, DecisionSchema);
  if (!form.ok) return redirectWithToast(request, returnUrl(request), { type: "error", message: appServiceMessages.selectEndpoint, persistent: true });
  const { ep_id, decision: d } = form.value;
  const res = await apiPost(request, d === "approve" ? "approve-endpoint" : "reject-endpoint", { ep_id });
  if (!res.ok) return failureReply(request, res);
  return redirectWithToast(request, returnUrl(request), { type: "success", message: d === "approve" ? "Endpoint approved." : "Endpoint rejected." });
}

const reset = (request: Request, formData: FormData) => submitForm(request, formData, { schema: EpIdSchema, call: "reset-endpoint", toast: "Endpoint reset." });

export const endpointAction = intentAction({
  create,
  "create-node-group": createNodeGroup,
  ...sharedIntents({ ...subject, area: "endpoint" }),
  agent,
  visibility,
  reset,
  decision,
  latency: latencyIntent(EpIdSchema, "measure-endpoint-latency"),
  remove: removeIntent({ idField: "ep_id", schema: () => DeleteSchema, call: "remove-endpoint", toast: "Endpoint removed." }),
}, { readable: ["latency"] });
