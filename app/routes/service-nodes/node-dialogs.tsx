import type { SubmissionResult } from "@conform-to/react";
import { useLocation } from "react-router";
import { hrefWith } from "../../lib/url.ts";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase-dialog.tsx";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { formatTime } from "../../lib/format.ts";
import type { HealthStatus, NodeHealth } from "../../../platform/contract/nodes.ts";
import { FormFactorPanel, type FormFactorProps } from "./node-form-factor.tsx";
import type { NodeKindInfo, NodeView } from "./node-kind.ts";
import { goneMessages } from "../../lib/messages.ts";

/*
 * The row-menu dialogs both node screens have (spec 2 §2, §4): Manage Form Factor (the form-factor
 * tabs without Skip for now), Test Node Health (run-health-check's checks as a list whose status
 * is told by text and icon, not colour alone), Delete (typing the confirmation word).
 */

type Result = SubmissionResult<string[]> | null | undefined;

export const goneText = goneMessages.node;

function Gone() {
  return (
    <>
      <p role="alert">{goneText}</p>
      <DialogActions />
    </>
  );
}

export function FormFactorDialog(props: Omit<FormFactorProps, "node" | "creating"> & { node: NodeView | null }) {
  const { node } = props;
  const location = useLocation();
  return (
    <UrlDialog name="form-factor" title="Manage Form Factor" size="lg" closeHref={hrefWith(location, { dialog: null, id: null, ff: null })}>
      {node ? (
        <>
          <FormFactorPanel {...props} node={node} creating={false} />
          <DialogActions cancelLabel="Close" />
        </>
      ) : (
        <Gone />
      )}
    </UrlDialog>
  );
}

const statusText: Record<HealthStatus, string> = { pass: "Pass", warn: "Warning", fail: "Fail" };
const statusIcon: Record<HealthStatus, string> = { pass: "✓", warn: "!", fail: "✕" };
const statusClass: Record<HealthStatus, string> = { pass: "badge-success", warn: "badge-warning", fail: "badge-error" };

function Status({ status }: { status: HealthStatus }) {
  return (
    <span className={`badge badge-sm ${statusClass[status]} shrink-0 gap-1 font-semibold`}>
      <span aria-hidden="true">{statusIcon[status]}</span>
      {statusText[status]}
    </span>
  );
}

export function HealthDialog({ node, health, error }: { node: NodeView | null; health: NodeHealth | null; error: string | null }) {
  return (
    <UrlDialog name="health" title="Test Node Health">
      {!node ? (
        <Gone />
      ) : (
        <>
          <p className="mb-2">
            Node <strong>{node.name}</strong>
            {health ? <>, checked {formatTime(health.checked_at)}</> : null}.
          </p>
          {error ? (
            <p role="alert" className="text-error">
              {error}
            </p>
          ) : null}
          {health ? (
            <>
              <p className="mb-2 flex flex-wrap items-center gap-2">
                Overall: <Status status={health.status} />
              </p>
              <ul className="divide-base-300 divide-y" aria-label="Health checks">
                {health.checks.map((c) => (
                  <li key={c.name} className="flex flex-wrap items-start gap-x-3 gap-y-1 py-2">
                    <Status status={c.status} />
                    <span className="min-w-0 flex-1">
                      <strong>{c.label}</strong>
                      <span className="text-base-content/70 block text-sm wrap-anywhere">{c.detail}</span>
                    </span>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <DialogActions cancelLabel="Close" />
        </>
      )}
    </UrlDialog>
  );
}

/**
 * What uses the node, said truly (issue 63 item 19): an endpoint node's count is its own endpoints;
 * a service node's is its group's (the group serves the endpoints), which a new node only shares.
 */
function endpointsLine(info: NodeKindInfo, node: NodeView) {
  const n = node.endpoint_count;
  const endpoints = `${n} ${n === 1 ? "endpoint" : "endpoints"}`;
  return info.kind === "endpoint" ? `${endpoints} still ${n === 1 ? "uses" : "use"} it.` : `Its group ${node.groupName} serves ${endpoints}.`;
}

export function RemoveNodeDialog({ info, node, dialogId, lastResult }: { info: NodeKindInfo; node: NodeView | null; dialogId: string | null; lastResult: Result }) {
  return (
    <ConfirmPhraseDialog
      name="remove"
      title={`Delete ${info.noun}`}
      phrase={info.deletePhrase}
      intent="remove"
      fields={{ node_id: node?.id ?? dialogId ?? "", group_id: node?.groupId ?? "" }}
      lastResult={lastResult}
      submitLabel="Delete"
    >
      <p className="mb-2">
        {node ? (
          <>
            Delete the {info.noun.toLowerCase()} <strong>{node.name}</strong>? This cannot be undone.
            {node.endpoint_count > 0 ? <> {endpointsLine(info, node)}</> : null}
          </>
        ) : (
          goneText
        )}
      </p>
    </ConfirmPhraseDialog>
  );
}
