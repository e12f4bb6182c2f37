import { data, redirect } from "react-router";
import { deselect, failureReply, submitForm, validateForm } from "../../lib/action.server.ts";
import { apiPost, type ApiResult } from "../../lib/api.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { returnUrl } from "../../lib/url.ts";
import { nodeMessages } from "../../../platform/contract/nodes.ts";
import { nodeCalls } from "./node-calls.server.ts";
import type { NodeKindInfo } from "./node-kind.ts";
import { createNodeSchema, HardwareSchema, HostedSchema, NodeIdSchema, removeNodeSchema } from "./node-schemas.server.ts";

/*
 * The intents both node screens share (spec 2 §4, §7): the creation flow's steps, the form-factor
 * tabs, Delete. A form-factor form comes back to the URL it was posted from (the step or the
 * Manage Form Factor dialog), which then shows what was prepared.
 */

/** The URL the form was posted from (dialog, step and tab kept). */
const here = (request: Request) => {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
};

/** Runs calls in turn: the first failure, else the last answer. */
async function inTurn<T>(first: () => Promise<ApiResult<unknown>>, then: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  const a = await first();
  if (!a.ok) return a;
  return then();
}

export function nodeIntents(info: NodeKindInfo) {
  const createSchema = createNodeSchema(info);
  const calls = nodeCalls[info.kind];

  /**
   * Step 1: the node is created, and the spec's toast says so now (issue 63 item 17: the stepper
   * used to move on silently, and a user who left at step 2 never read it); on to step 2 (default
   * Hosted Node).
   */
  async function create(request: Request, formData: FormData) {
    const form = validateForm(formData, createSchema);
    if (!form.ok) return form.reply;
    // The schema's fields are named by the kind (createNodeSchema): read by those names.
    const v: Record<string, unknown> = form.value;
    const text = (field: string) => (typeof v[field] === "string" ? v[field] : "");
    const group = v.group_mode === "new" ? { newName: text(info.groupNameField) } : { id: text(info.groupIdField) };
    const res = await calls.create(request, { name: text(info.nameField), group });
    if (!res.ok) return failureReply(request, res, { submission: form.submission, fields: [info.nameField, info.groupIdField, info.groupNameField] });
    return redirectWithToast(request, returnUrl(request, { dialog: "create", step: "form-factor", id: res.data.id, ff: "hosted_aws" }), { type: "success", message: info.created });
  }

  const ova = (request: Request, formData: FormData) =>
    submitForm(request, formData, {
      schema: NodeIdSchema,
      call: (v) =>
        inTurn(
          () => calls.setFormFactor(request, { node_id: v.node_id, form_factor: "ova" }),
          () => calls.prepareOva(request, v.node_id),
        ),
      toast: nodeMessages.ovaPrepared,
      redirect: here(request),
    });

  const hw = (request: Request, formData: FormData) =>
    submitForm(request, formData, {
      schema: HardwareSchema,
      call: (v) => calls.setFormFactor(request, v),
      fields: ["shipping_addr"],
      toast: nodeMessages.formFactorSaved,
      redirect: here(request),
    });

  /** The cloud-init document is this POST's answer only: its token is single use. */
  async function ami(request: Request, formData: FormData) {
    const form = validateForm(formData, NodeIdSchema);
    if (!form.ok) return form.reply;
    const id = form.value.node_id;
    const res = await inTurn(
      () => calls.setFormFactor(request, { node_id: id, form_factor: "ami" }),
      () => apiPost(request, "generate-node-cloud-init-data", { node_id: id }),
    );
    if (!res.ok) return failureReply(request, res, { submission: form.submission });
    return data({ cloudInit: res.data, nodeId: id });
  }

  const hosted = (request: Request, formData: FormData) =>
    submitForm(request, formData, {
      schema: HostedSchema,
      call: (v) =>
        inTurn(
          () => calls.setFormFactor(request, v),
          () => apiPost(request, "generate-hsn-vpn-config", v),
        ),
      fields: ["hosted_region", "hosted_vpc_cidr", "hosted_peer_ip", "hosted_peer_prefix"],
      toast: nodeMessages.vpnConfigGenerated,
      redirect: here(request),
    });

  /** Step 3: the flow ends with the node selected (its creation was said at step 1). */
  async function finish(request: Request, formData: FormData) {
    const form = validateForm(formData, NodeIdSchema);
    if (!form.ok) return form.reply;
    return redirect(returnUrl(request, { step: null, ff: null, selected: form.value.node_id }), 303);
  }

  const removeSchema = removeNodeSchema(info);
  const remove = (request: Request, formData: FormData) =>
    submitForm(request, formData, {
      schema: removeSchema,
      call: (v) => calls.remove(request, v),
      toast: info.removed,
      redirect: (_, v) => deselect(request, v.node_id),
    });

  return { create, ova, hw, ami, hosted, finish, remove };
}
