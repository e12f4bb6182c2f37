import { type SubmissionResult } from "@conform-to/react";
import { Link, useLocation } from "react-router";
import { DetailsTable } from "../../components/details-table.tsx";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { CheckboxField, ConformForm, formHasErrors, PageTitle, SelectField, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { usePendingIntent } from "../../components/hooks.ts";
import { formatBytes } from "./tabs.tsx";
import { hrefWith } from "../../lib/url.ts";
import { deploymentLabel, endpointDeployments, writeDraft, type Draft, type Endpoint, type EndpointDeployment, type EndpointNodeGroup, type EndpointSession } from "./model.ts";

/*
 * The Endpoints screen's dialogs, each opened by URL (?dialog=…&id=…) and posting to the route's
 * action, so they work without JavaScript. The create dialog keeps what was typed in the URL's
 * `draft` when it switches location or goes to the new-node-group panel and back.
 */

export type Result = SubmissionResult<string[]> | null | undefined;
type Constraints = Record<string, Record<string, { required?: boolean; maxLength?: number }>>;

function usePending(intent: string) {
  return usePendingIntent() === intent;
}

function Missing() {
  return (
    <>
      <p>This endpoint no longer exists.</p>
      <DialogActions />
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// Create Endpoint, and its new-node-group panel

export interface AppServiceChoice {
  app_service_id: string;
  app_service_name: string;
}

export function CreateEndpointDialog({
  appServices,
  nodeGroups,
  draft,
  panel,
  lastResult,
  constraints,
}: {
  appServices: AppServiceChoice[];
  nodeGroups: EndpointNodeGroup[];
  draft: Draft;
  panel: boolean;
  lastResult: Result;
  constraints: Constraints;
}) {
  const draftText = writeDraft(draft);
  if (panel) {
    return (
      <UrlDialog name="create" title="Create Endpoint Node Group">
        <NodeGroupPanel key={draftText} draftText={draftText} lastResult={lastResult} constraint={constraints.group ?? {}} />
      </UrlDialog>
    );
  }
  return (
    <UrlDialog name="create" title="Create Endpoint" size="lg">
      <CreateForm key={draftText} appServices={appServices} nodeGroups={nodeGroups} draft={draft} lastResult={lastResult} constraint={constraints.create ?? {}} />
    </UrlDialog>
  );
}

function CreateForm({
  appServices,
  nodeGroups,
  draft,
  lastResult,
  constraint,
}: {
  appServices: AppServiceChoice[];
  nodeGroups: EndpointNodeGroup[];
  draft: Draft;
  lastResult: Result;
  constraint: Constraints[string];
}) {
  const deployment = (endpointDeployments as readonly string[]).includes(draft.deployment ?? "") ? (draft.deployment as EndpointDeployment) : "onprem";
  const [form, fields] = useForm({
    id: `create-endpoint-${deployment}`,
    lastResult,
    constraint,
    defaultValue: { ...draft, bgp_enabled: draft.bgp_enabled === "on" ? "on" : undefined },
  });
  const pending = usePending("create");
  const usesNode = deployment === "onprem" || deployment === "network";
  const cloud = deployment === "aws" || deployment === "azure";
  return (
    <>
      <PageTitle title="Create Endpoint - Endpoints" error={formHasErrors(form)} />
      <ConformForm form={form} intent="create">
        <input type="hidden" name="deployment" value={deployment} />
        <fieldset className="fieldset">
          <legend className="fieldset-legend">Location</legend>
          <div className="flex flex-wrap gap-2">
            {endpointDeployments.map((d) => (
              // A submit button: the typed values travel with it and come back in the URL's draft.
              <button
                key={d}
                type="submit"
                name="switch"
                value={d}
                formNoValidate
                aria-pressed={d === deployment}
                className={`btn btn-sm ${d === deployment ? "btn-primary" : "btn-outline"}`}
              >
                {deploymentLabel(d)}
              </button>
            ))}
          </div>
        </fieldset>
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
              <button type="submit" name="switch" value="group-panel" formNoValidate className="btn btn-outline btn-sm">
                New Node Group
              </button>
            </div>
            <TextField field={fields.ep_node_id} label="Node" autoComplete="off" hint="The endpoint node's id, e.g. epn-office-1" />
          </>
        ) : null}
        {cloud ? (
          <>
            <TextField field={fields.region} label="Region" autoComplete="off" hint={deployment === "aws" ? "e.g. us-east-1" : "e.g. eastus"} />
            <TextField
              field={fields.consumer_principle}
              label={deployment === "aws" ? "Allowed Principal" : "Subscription Id"}
              autoComplete="off"
              hint={deployment === "aws" ? "e.g. arn:aws:iam::123456789012:root" : undefined}
            />
          </>
        ) : null}
        {deployment === "network" ? (
          <>
            <TextField field={fields.real_subnets} label="Real Subnets" autoComplete="off" hint="Comma separated CIDRs, e.g. 10.1.0.0/16, 10.2.0.0/24" />
            <CheckboxField field={fields.bgp_enabled} label="BGP" />
            <div className="grid gap-x-4 sm:grid-cols-3">
              <TextField field={fields.bgp_local_asn} label="Local ASN" autoComplete="off" hint="Required when BGP is on" />
              <TextField field={fields.bgp_peer_asn} label="Peer ASN" autoComplete="off" />
              <TextField field={fields.bgp_peer_ip} label="Peer IP" autoComplete="off" />
            </div>
          </>
        ) : null}
        <DialogActions>
          <SubmitButton pending={pending}>Create</SubmitButton>
        </DialogActions>
      </ConformForm>
    </>
  );
}

function NodeGroupPanel({ draftText, lastResult, constraint }: { draftText: string; lastResult: Result; constraint: Constraints[string] }) {
  const location = useLocation();
  const [form, fields] = useForm({ id: "create-node-group", lastResult, constraint });
  const pending = usePending("create-node-group");
  const back = hrefWith(location, { panel: null });
  return (
    <>
      <PageTitle title="Create Endpoint Node Group - Endpoints" error={formHasErrors(form)} />
      <ConformForm form={form} intent="create-node-group">
        <input type="hidden" name="draft" value={draftText} />
        <p className="mb-1">The new group is chosen for the endpoint when you return to it.</p>
        <TextField field={fields.ep_node_group_name} label="Node Group Name" autoComplete="off" />
        <div className="modal-action">
          <Link to={back} className="btn" preventScrollReset>
            Back
          </Link>
          <SubmitButton pending={pending}>Create Node Group</SubmitButton>
        </div>
      </ConformForm>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// Row-menu dialogs

export function EditNameDialog({ target, lastResult, constraint }: { target: Endpoint | null; lastResult: Result; constraint: Constraints[string] }) {
  return <UrlDialog name="name" title="Edit Name">{target ? <NameForm key={target.ep_id} target={target} lastResult={lastResult} constraint={constraint} /> : <Missing />}</UrlDialog>;
}

function NameForm({ target, lastResult, constraint }: { target: Endpoint; lastResult: Result; constraint: Constraints[string] }) {
  const [form, fields] = useForm({ id: `name-${target.ep_id}`, lastResult, constraint, defaultValue: { ep_name: target.ep_name } });
  return (
    <ConformForm form={form} intent="name">
      <PageTitle title="Edit Name - Endpoints" error={formHasErrors(form)} />
      <input type="hidden" name="ep_id" value={target.ep_id} />
      <TextField field={fields.ep_name} label="Endpoint Name" autoComplete="off" />
      <DialogActions>
        <SubmitButton pending={usePending("name")}>Save</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export function EditDescriptionDialog({ target, lastResult }: { target: Endpoint | null; lastResult: Result }) {
  return <UrlDialog name="description" title="Edit Description">{target ? <DescriptionForm key={target.ep_id} target={target} lastResult={lastResult} /> : <Missing />}</UrlDialog>;
}

function DescriptionForm({ target, lastResult }: { target: Endpoint; lastResult: Result }) {
  const [form, fields] = useForm({ id: `description-${target.ep_id}`, lastResult, defaultValue: { description: target.description } });
  return (
    <ConformForm form={form} intent="description">
      <PageTitle title="Edit Description - Endpoints" error={formHasErrors(form)} />
      <input type="hidden" name="ep_id" value={target.ep_id} />
      <TextareaField field={fields.description} label="Description" />
      <DialogActions>
        <SubmitButton pending={usePending("description")}>Save</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export function AgentDetailsDialog({ target, lastResult }: { target: Endpoint | null; lastResult: Result }) {
  return (
    <UrlDialog name="agent" title="Edit Agent Details">
      {target ? <AgentForm key={target.ep_id} target={target} lastResult={lastResult} /> : <Missing />}
    </UrlDialog>
  );
}

function AgentForm({ target, lastResult }: { target: Endpoint; lastResult: Result }) {
  const [form, fields] = useForm({
    id: `agent-${target.ep_id}`,
    lastResult,
    defaultValue: { user_agent_dns_servers: target.user_agent_dns_servers.join(", "), user_agent_cidrs: target.user_agent_cidrs.join(", ") },
  });
  if (target.deployment !== "agent") {
    return (
      <>
        <p>Agent details apply to agent endpoints only.</p>
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
        <SubmitButton pending={usePending("agent")}>Save</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export function ResizeDialog({ target, lastResult }: { target: Endpoint | null; lastResult: Result }) {
  return <UrlDialog name="resize" title="Resize Endpoints">{target ? <ResizeForm key={target.ep_id} target={target} lastResult={lastResult} /> : <Missing />}</UrlDialog>;
}

function ResizeForm({ target, lastResult }: { target: Endpoint; lastResult: Result }) {
  const [form, fields] = useForm({ id: `resize-${target.ep_id}`, lastResult, defaultValue: { direction: "up" } });
  if (target.deployment === "onprem") {
    return (
      <>
        <p>An onprem endpoint cannot be resized.</p>
        <DialogActions />
      </>
    );
  }
  return (
    <ConformForm form={form} intent="resize">
      <PageTitle title="Resize Endpoints - Endpoints" error={formHasErrors(form)} />
      <input type="hidden" name="ep_id" value={target.ep_id} />
      <p className="mb-1">
        <strong>{target.ep_name}</strong> is now <strong>{target.size}</strong>.
      </p>
      <SelectField
        field={fields.direction}
        label="Direction"
        placeholder={null}
        options={[
          { value: "up", label: "Up" },
          { value: "down", label: "Down" },
        ]}
      />
      <DialogActions>
        <SubmitButton pending={usePending("resize")}>Confirm</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export interface ContactChoice {
  contact_id: string;
  first_name: string;
  last_name: string;
  email: string;
}

export function ContactsDialog({ target, contacts, lastResult }: { target: Endpoint | null; contacts: ContactChoice[]; lastResult: Result }) {
  return (
    <UrlDialog name="contacts" title="Setup Contacts">
      {!target ? (
        <Missing />
      ) : contacts.length === 0 ? (
        <>
          <p role="alert" className="text-error font-semibold">
            Missing Contacts
          </p>
          <p>
            There are no contacts to choose from. <Link to="/contacts?dialog=create" className="link link-primary">Create a contact</Link> first.
          </p>
          <DialogActions />
        </>
      ) : (
        <ContactsForm key={target.ep_id} target={target} contacts={contacts} lastResult={lastResult} />
      )}
    </UrlDialog>
  );
}

function ContactsForm({ target, contacts, lastResult }: { target: Endpoint; contacts: ContactChoice[]; lastResult: Result }) {
  const [form, fields] = useForm({
    id: `contacts-${target.ep_id}`,
    lastResult,
    defaultValue: { primary_contact_id: target.primary_contact_id ?? "", secondary_contact_id: target.secondary_contact_id ?? "" },
  });
  const options = contacts.map((c) => ({ value: c.contact_id, label: `${`${c.first_name} ${c.last_name}`.trim() || c.email} (${c.email})` }));
  return (
    <ConformForm form={form} intent="contacts">
      <PageTitle title="Setup Contacts - Endpoints" error={formHasErrors(form)} />
      <input type="hidden" name="ep_id" value={target.ep_id} />
      <SelectField field={fields.primary_contact_id} label="Business Contact" options={options} placeholder="None" />
      <SelectField field={fields.secondary_contact_id} label="Technical Contact" options={options} placeholder="None" />
      <DialogActions>
        <SubmitButton pending={usePending("contacts")}>Save</SubmitButton>
      </DialogActions>
    </ConformForm>
  );
}

export function ResetDialog({ target }: { target: Endpoint | null }) {
  const [form] = useForm({ id: "reset-endpoint" });
  return (
    <UrlDialog name="reset" title="Reset Endpoint">
      {target ? (
        <ConformForm form={form} intent="reset">
          <input type="hidden" name="ep_id" value={target.ep_id} />
          <p>
            Reset the endpoint <strong>{target.ep_name}</strong>? Its connections are interrupted while it restarts.
          </p>
          <DialogActions>
            <SubmitButton pending={usePending("reset")}>Reset</SubmitButton>
          </DialogActions>
        </ConformForm>
      ) : (
        <Missing />
      )}
    </UrlDialog>
  );
}

/** Test Reachability: the measurement as key/value pairs (spec 1 §7). */
export function LatencyDialog({ target, result, error }: { target: Endpoint | null; result: Record<string, unknown> | null; error: string | null }) {
  return (
    <UrlDialog name="latency" title="Test Reachability">
      {!target ? (
        <Missing />
      ) : (
        <>
          <p className="mb-2">
            Reachability of <strong>{target.ep_name}</strong>
          </p>
          {error ? (
            <p role="alert" className="text-error">
              {error}
            </p>
          ) : (
            <DetailsTable items={Object.entries(result ?? {}).map(([k, v]) => ({ label: k, value: v === null ? "" : String(v) }))} />
          )}
          <DialogActions cancelLabel="Close" />
        </>
      )}
    </UrlDialog>
  );
}

/** Show Flows: the endpoint's flows open now (get-endpoint-sessions). */
export function FlowsDialog({ target, sessions, error }: { target: Endpoint | null; sessions: EndpointSession[]; error: string | null }) {
  return (
    <UrlDialog name="flows" title="Show Flows" size="lg">
      {!target ? (
        <Missing />
      ) : (
        <>
          {error ? (
            <p role="alert" className="text-error">
              {error}
            </p>
          ) : (
            <div className="kit-table-wrap">
              <table className="kit-table table table-sm">
                <caption className="sr-only">Flows of {target.ep_name}</caption>
                <thead>
                  <tr>
                    <th scope="col">Source</th>
                    <th scope="col">Destination</th>
                    <th scope="col">Protocol</th>
                    <th scope="col">Ports</th>
                    <th scope="col">Tx</th>
                    <th scope="col">Rx</th>
                    <th scope="col">Established</th>
                  </tr>
                </thead>
                <tbody>
                  {sessions.length === 0 ? (
                    <tr>
                      <td colSpan={7} className="text-base-content/70 py-6 text-center">
                        No data
                      </td>
                    </tr>
                  ) : (
                    sessions.map((s, i) => (
                      <tr key={i}>
                        <td className="kit-cell-name">{s.src_address}</td>
                        <td data-label="Destination">{s.dst_address}</td>
                        <td data-label="Protocol">{s.protocol}</td>
                        <td data-label="Ports">{s.ports}</td>
                        <td data-label="Tx">{formatBytes(s.tx_bytes)}</td>
                        <td data-label="Rx">{formatBytes(s.rx_bytes)}</td>
                        <td data-label="Established">{s.established}</td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
          )}
          <DialogActions cancelLabel="Close" />
        </>
      )}
    </UrlDialog>
  );
}
