import { detailMessages } from "../../lib/api.server.ts";
import { apiGet, apiPost } from "../../lib/untyped-calls.server.ts";
import { creationChoices, defaultCreationChoice, type CloudRegion, type CreationChoice, type NodeHealth } from "../../../platform/contract/nodes.ts";
import { CREATE_STEPS, type CreateStep } from "./node-create.tsx";
import type { NodeDialogData } from "./node-screen.tsx";
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
): Promise<NodeDialogData & { detail: D | null }> {
  const params = new URL(request.url).searchParams;
  const stepParam = params.get("step");
  const step: CreateStep = (CREATE_STEPS as readonly string[]).includes(stepParam ?? "") ? (stepParam as CreateStep) : "node";
  const ff = params.get("ff");
  const choice: CreationChoice = (creationChoices as readonly string[]).includes(ff ?? "") ? (ff as CreationChoice) : defaultCreationChoice;
  const needsNode = dialog !== null && dialogId !== null && !(dialog === "create" && step === "node");
  const [detail, groupRows, regions] = await Promise.all([
    needsNode ? apiGet<D>(request, info.calls.detail, { [info.idField]: dialogId }).then((r) => (r.ok ? r.data : null)) : null,
    dialog === "create" && step === "node" ? apiGet<Record<string, string>[]>(request, info.calls.groups) : null,
    ((dialog === "create" && step === "form-factor") || dialog === "form-factor") && choice === "hosted_aws" ? apiGet<CloudRegion[]>(request, "list-aws-regions") : null,
  ]);
  const target = detail ? view(detail) : null;
  let health: NodeHealth | null = null;
  let healthError: string | null = null;
  if (dialog === "health" && target) {
    const r = await apiPost<NodeHealth>(request, "run-health-check", { node_id: target.id });
    if (r.ok) health = r.data;
    else healthError = detailMessages(r.detail).join(" ");
  }
  const groups = groupRows?.ok && Array.isArray(groupRows.data) ? groupRows.data.map((g) => ({ id: g[info.groupIdField] ?? "", name: g[info.groupNameField] ?? "" })) : [];
  return { detail, target, step, choice: dialog === "form-factor" && choice === "skip" ? defaultCreationChoice : choice, groups, regions: regions?.ok ? regions.data : [], health, healthError };
}
