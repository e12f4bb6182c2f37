import { apiGet, apiPost, detailMessages, type ApiResult } from "../../lib/api.server.ts";
import { creationChoices, defaultCreationChoice, type CreationChoice, type NodeHealth } from "../../../platform/contract/nodes.ts";
import { CREATE_STEPS, type CreateStep } from "./node-create.tsx";
import type { NodeDialogData } from "./node-screen.tsx";
import { nodeCalls } from "./node-calls.server.ts";
import type { NodeKindInfo, NodeView } from "./node-kind.ts";

/*
 * What the open dialog of a node screen needs (spec 2 §2, §4), for either kind: the dialog's node,
 * the creation flow's step, group choices, the form-factor tab and the AWS regions, the health
 * check's answer.
 */

export async function nodeDialogData<D>(
  request: Request,
  info: NodeKindInfo,
  dialog: string | null,
  dialogId: string | null,
  view: (detail: D) => NodeView,
  detailOf: (request: Request, id: string) => Promise<ApiResult<D>>,
): Promise<NodeDialogData & { detail: D | null }> {
  const params = new URL(request.url).searchParams;
  const stepParam = params.get("step");
  const step: CreateStep = (CREATE_STEPS as readonly string[]).includes(stepParam ?? "") ? (stepParam as CreateStep) : "node";
  const ff = params.get("ff");
  const choice: CreationChoice = (creationChoices as readonly string[]).includes(ff ?? "") ? (ff as CreationChoice) : defaultCreationChoice;
  const needsNode = dialog !== null && dialogId !== null && !(dialog === "create" && step === "node");
  const [detail, groups, regions] = await Promise.all([
    needsNode ? detailOf(request, dialogId).then((r) => (r.ok ? r.data : null)) : null,
    dialog === "create" && step === "node" ? nodeCalls[info.kind].groups(request) : [],
    ((dialog === "create" && step === "form-factor") || dialog === "form-factor") && choice === "hosted_aws" ? apiGet(request, "list-aws-regions") : null,
  ]);
  const target = detail ? view(detail) : null;
  let health: NodeHealth | null = null;
  let healthError: string | null = null;
  if (dialog === "health" && target) {
    const r = await apiPost(request, "run-health-check", { node_id: target.id });
    if (r.ok) health = r.data;
    else healthError = detailMessages(r.detail).join(" ");
  }
  return { detail, target, step, choice: dialog === "form-factor" && choice === "skip" ? defaultCreationChoice : choice, groups, regions: regions?.ok ? regions.data : [], health, healthError };
}
