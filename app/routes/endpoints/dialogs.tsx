import type { NodeGroupSchema } from "./schemas.server.ts";
import type { z } from "zod";
import { Link, useLocation } from "react-router";
import type { FormConstraint } from "../../components/constraints.server.ts";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ErrorOr } from "../../components/error-text.tsx";
import { ConformForm, formHasErrors, PageTitle, SelectField, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { useIsPending } from "../../components/hooks.ts";
import { ToggleDialog } from "../../components/toggle-dialog.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { formatBytes, formatTime } from "../../lib/format.ts";
import { hrefWith } from "../../lib/url.ts";
import { BgpFields, DeploymentSwitch, markRequired } from "../services-shared/create-fields.tsx";
import { Missing, type Result } from "../services-shared/dialogs.tsx";
import { writeDraft, type Draft } from "../services-shared/draft.ts";
import { CREATE_FIELDS, deploymentLabel, endpointRequiredFields, type CloudRegion, endpointDeployments, type CreateField, type Endpoint, type EndpointDeployment, type EndpointNodeGroup, type EndpointSession } from "./model.ts";
import { endpointMessages } from "../../../platform/contract/messages.ts";

/*
 * The Endpoints screen's own dialogs (the ones it shares with App Services are in
 * ../services-shared/dialogs.tsx), each opened by URL (?dialog=…&id=…) and posting to the route's
 * action, so they work without JavaScript. The create dialog keeps what was typed in the URL's
 * `draft` when it switches location or goes to the new-node-group panel and back.
 */

export const missing = "This endpoint no longer exists.";


/* Create Endpoint, and its new-node-group panel ------------------------------------------------ */

export interface NodeChoice {
  ep_node_id: string;
  ep_node_name: string;
  ep_node_group_id: string;
  ep_node_group_name: string;
}

export interface AppServiceChoice {
  app_service_id: string;
  app_service_name: string;
}

interface CreateProps {
  deployment: EndpointDeployment;
  appServices: AppServiceChoice[];
  /** The location's regions (list-aws-regions, list-azure-regions), as App Services offers them. */
  regions: CloudRegion[];
  /** The Node picker's choices: the account's endpoint nodes (list-endpoint-node). */
  nodes: NodeChoice[];
  nodeGroups: EndpointNodeGroup[];
  draft: Draft<CreateField>;
  panel: boolean;
  lastResult: Result;
  constraints: { create: FormConstraint; group: FormConstraint };
}

export function CreateEndpointDialog(props: CreateProps) {
  const draftText = writeDraft(props.draft, CREATE_FIELDS);
  if (props.panel) {
    return (
      <UrlDialog name="create" title="Create Endpoint Node Group">
        <NodeGroupPanel key={draftText} draftText={draftText} lastResult={props.lastResult} constraint={props.constraints.group} />
      </UrlDialog>
    );
  }
  return (
    <UrlDialog name="create" title="Create Endpoint" size="lg">
      <CreateForm key={`${props.deployment}?${draftText}`} {...props} />
    </UrlDialog>
  );
}

function CreateForm({ deployment, appServices, regions, nodes, nodeGroups, draft, lastResult, constraints }: CreateProps) {
  const [form, fields] = useForm<Record<CreateField | "deployment", string>>({
    id: `create-endpoint-${deployment}`,
    lastResult,
    constraint: markRequired(constraints.create, endpointRequiredFields[deployment]),
    defaultValue: { ...draft, deployment },
  });
  const pending = useIsPending({ intent: "create" });
  const usesNode = deployment === "onprem" || deployment === "network";
  const aws = deployment === "aws";
  return (
    <>
      <PageTitle title="Create Endpoint - Endpoints" error={formHasErrors(form)} />
      <ConformForm form={form} intent="create">
        <input type="hidden" name="deployment" value={deployment} />
        <DeploymentSwitch legend="Location" current={deployment} options={endpointDeployments.map((d) => ({ value: d, label: deploymentLabel(d) }))} />
        <TextField field={fields.ep_name} label="Endpoint Name" autoComplete="off" />
        <SelectField
          field={fields.app_service_id}
          label="App Service"
          options={appServices.map((s) => ({ value: s.app_service_id, label: `${s.app_service_name} (${s.app_service_id})` }))}
          placeholder="Select an app service"
          hint={appServices.length === 0 ? <>There are no app services yet: <Link to="/app-services" className="link link-primary">create one</Link> first.</> : undefined}
        />
        {usesNode ? (
          <>
            <SelectField
              field={fields.ep_node_group_id}
              label="Node Group"
              options={nodeGroups.map((g) => ({ value: g.ep_node_group_id, label: g.ep_node_group_name }))}
              placeholder="Select a node group"
            />
            <div>
              <button type="submit" name="switch" value="panel=group" formNoValidate className="btn btn-outline btn-sm">
                New Node Group
              </button>
            </div>
            {/* A node that exists, of the chosen group (the platform refuses any other): issue 27 item 14. */}
            <SelectField
              field={fields.ep_node_id}
              label="Node"
              options={nodes.map((n) => ({ value: n.ep_node_id, label: `${n.ep_node_name} (${n.ep_node_group_name})` }))}
              placeholder="Select a node"
              hint={
                nodes.length === 0 ? (
                  <>
                    There are no endpoint nodes yet: <Link to="/endpoint-nodes" className="link link-primary">create one</Link> first.
                  </>
                ) : (
                  "A node of the chosen node group."
                )
              }
            />
          </>
        ) : null}
        {aws || deployment === "azure" ? (
          <>
            <SelectField field={fields.region} label="Region" options={regions.map((r) => ({ value: r.region, label: `${r.name} (${r.region})` }))} placeholder="Select a region" />
            <TextField field={fields.consumer_principle} label={aws ? "Allowed Principal" : "Subscription Id"} autoComplete="off" hint={aws ? "e.g. arn:aws:iam::123456789012:root" : undefined} />
          </>
        ) : null}
        {deployment === "network" ? (
          <>
            <TextField field={fields.real_subnets} label="Real Subnets" autoComplete="off" hint="Comma separated CIDRs, e.g. 10.1.0.0/16, 10.2.0.0/24" />
            <BgpFields fields={fields} when="required with BGP" asnInput="text" />
          </>
        ) : null}
        <DialogActions>
          <SubmitButton pending={pending}>Create</SubmitButton>
        </DialogActions>
      </ConformForm>
    </>
  );
}

function NodeGroupPanel({ draftText, lastResult, constraint }: { draftText: string; lastResult: Result; constraint: FormConstraint }) {
  const location = useLocation();
  const [form, fields] = useForm<z.input<typeof NodeGroupSchema>>({ id: "create-node-group", lastResult, constraint });
  const pending = useIsPending({ intent: "create-node-group" });
  return (
    <>
      <PageTitle title="Create Endpoint Node Group - Endpoints" error={formHasErrors(form)} />
      <ConformForm form={form} intent="create-node-group">
        <input type="hidden" name="draft" value={draftText} />
        <p className="mb-1">The new group is chosen for the endpoint when you return to it.</p>
        <TextField field={fields.ep_node_group_name} label="Node Group Name" autoComplete="off" />
        <div className="modal-action">
          <Link to={hrefWith(location, { panel: null })} className="btn" preventScrollReset>
            Back
          </Link>
          <SubmitButton pending={pending}>Create Node Group</SubmitButton>
        </div>
      </ConformForm>
    </>
  );
}

/* Row-menu dialogs of Endpoints alone ---------------------------------------------------------- */

export function AgentDetailsDialog({ target, lastResult, constraint }: { target: Endpoint | null; lastResult: Result; constraint: FormConstraint }) {
  return <UrlDialog name="agent" title="Edit Agent Details">{target ? <AgentForm key={target.ep_id} target={target} lastResult={lastResult} constraint={constraint} /> : <Missing text={missing} />}</UrlDialog>;
}

function AgentForm({ target, lastResult, constraint }: { target: Endpoint; lastResult: Result; constraint: FormConstraint }) {
  const [form, fields] = useForm({
    id: `agent-${target.ep_id}`,
    lastResult,
    constraint,
    defaultValue: { user_agent_dns_servers: target.user_agent_dns_servers.join(", "), user_agent_cidrs: target.user_agent_cidrs.join(", ") },
  });
  const pending = useIsPending({ intent: "agent" });
  if (target.deployment !== "agent") {
    return (
      <>
        <p>{endpointMessages.agentOnly}</p>
        <DialogActions />
      </>
    );
  }
  return (
    <ConformForm form={form} intent="agent">
      <PageTitle title="Edit Agent Details - Endpoints" error={formHasErrors(form)} />
      <input type="hidden" name="ep_id" value={target.ep_id} />
      <TextField field={fields.user_agent_dns_servers} label="DNS Servers" autoComplete="off" hint="Comma separated IP addresses, e.g. 10.0.0.2, 10.0.0.3" />
      <TextField field={fields.user_agent_cidrs} label="CIDRs" autoComplete="off" hint="Comma separated, e.g. 10.0.0.0/8, 192.168.0.0/16" />
      <DialogActions>
        <SubmitButton pending={pending}>Save</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

/** Advanced Visibility: the endpoint's proxying switch (configure-endpoint-proxying). */
export function VisibilityDialog({ target, lastResult }: { target: Endpoint; lastResult: Result }) {
  return (
    <ToggleDialog name="visibility" title="Advanced Visibility" label="Advanced visibility" current={target.proxying_enabled} intent="visibility" fields={{ ep_id: target.ep_id }} lastResult={lastResult}>
      <p className="mb-1">
        Endpoint: <strong>{target.ep_name}</strong>
      </p>
    </ToggleDialog>
  );
}

export function ResetDialog({ target, lastResult }: { target: Endpoint | null; lastResult: Result }) {
  const [form] = useForm({ id: "reset-endpoint", lastResult });
  const pending = useIsPending({ intent: "reset" });
  return (
    <UrlDialog name="reset" title="Reset Endpoint">
      {target ? (
        <ConformForm form={form} intent="reset">
          <input type="hidden" name="ep_id" value={target.ep_id} />
          <p>
            Reset the endpoint <strong>{target.ep_name}</strong>? Its connections are interrupted while it restarts.
          </p>
          <DialogActions>
            <SubmitButton pending={pending}>Reset</SubmitButton>
          </DialogActions>
        </ConformForm>
      ) : (
        <Missing text={missing} />
      )}
    </UrlDialog>
  );
}

/** Test Reachability (spec 1 §7): measured when its button is pressed, never when the dialog opens. */
const flowColumns: SimpleColumn<EndpointSession>[] = [
  { id: "src", header: "Source", cell: (s) => s.src_address },
  { id: "dst", header: "Destination", cell: (s) => s.dst_address },
  { id: "protocol", header: "Protocol", cell: (s) => s.protocol },
  { id: "ports", header: "Ports", cell: (s) => s.ports },
  { id: "tx", header: "Tx", cell: (s) => formatBytes(s.tx_bytes) },
  { id: "rx", header: "Rx", cell: (s) => formatBytes(s.rx_bytes) },
  { id: "established", header: "Established", cell: (s) => (s.established ? <time dateTime={s.established}>{formatTime(s.established)}</time> : "") },
];

/** Show Flows: the endpoint's flows open now (get-endpoint-sessions). */
export function FlowsDialog({ target, sessions, error }: { target: Endpoint | null; sessions: EndpointSession[]; error: string | null }) {
  return (
    <UrlDialog name="flows" title="Show Flows" size="lg">
      {target ? (
        <>
          <ErrorOr error={error}>
            <SimpleTable caption={`Flows of ${target.ep_name}`} columns={flowColumns} rows={sessions} getRowId={(_, i) => String(i)} />
          </ErrorOr>
          <DialogActions cancelLabel="Close" />
        </>
      ) : (
        <Missing text={missing} />
      )}
    </UrlDialog>
  );
}
