import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { CheckboxField, ConformForm, SelectField, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { useHydrated, usePendingIntent } from "../../components/hooks.ts";
import { hrefWith } from "../../lib/url.ts";
import {
  appServiceDeployments,
  appServiceProtocols,
  deploymentLabels,
  missingRequired,
  protoLabel,
  type AppService,
  type AppServiceDeployment,
  type CloudRegion,
  type Hosting,
  type ServiceNodeGroup,
} from "./model.ts";

/*
 * The App Services dialogs (spec 1 §2: create, Add Hosting, edit name, edit description, edit
 * protocol/port/fqdn, resize, contacts assignment, Test Reachability). Each opens by URL
 * (?dialog=…&id=…) and posts to the route's action; the action validates (no schema here).
 */

type Result = SubmissionResult<string[]> | null | undefined;

const pendingOf = (intent: string) => usePendingIntent() === intent;

function Missing() {
  return (
    <>
      <p>This App Service no longer exists.</p>
      <DialogActions />
    </>
  );
}

/** Links that choose an option kept in the URL (works without JavaScript). */
function Choice({ label, param, value, options }: { label: string; param: string; value: string; options: { value: string; label: string }[] }) {
  const location = useLocation();
  return (
    <nav aria-label={label} className="mb-3">
      <div role="list" className="join flex-wrap">
        {options.map((o) => (
          <span role="listitem" key={o.value}>
            <Link
              to={hrefWith(location, { [param]: o.value })}
              replace
              preventScrollReset
              aria-current={o.value === value ? "true" : undefined}
              className={`btn btn-sm join-item ${o.value === value ? "btn-primary" : "btn-outline"}`}
            >
              {o.label}
            </Link>
          </span>
        ))}
      </div>
    </nav>
  );
}

/** Create's enabled state with JavaScript: the form's values, read on every change. */
function useRequiredFilled(formId: string, deployment: AppServiceDeployment) {
  const hydrated = useHydrated();
  const [missing, setMissing] = useState(true);
  const read = () => {
    const form = document.getElementById(formId) as HTMLFormElement | null;
    if (!form) return;
    const values: Record<string, string | boolean> = {};
    for (const el of Array.from(form.elements) as HTMLInputElement[]) {
      if (!el.name) continue;
      values[el.name] = el.type === "checkbox" ? el.checked : el.value;
    }
    setMissing(missingRequired(deployment, values));
  };
  useEffect(read, [formId, deployment]);
  return { disabled: hydrated && missing, onChange: read };
}

const req = (...names: string[]) => Object.fromEntries(names.map((n) => [n, { required: true }]));
/** The required marks of each deployment (spec 1 §5); the conditional ones say so in their labels. */
const requiredBy: Record<AppServiceDeployment, Record<string, { required: boolean }>> = {
  aws: req("app_service_name", "region", "cloud_endpoint_service_name", "port"),
  onprem: req("app_service_name", "fqdn", "service_node_group_id", "proto", "port"),
  azure: req("app_service_name", "proto", "port", "region"),
  network: req("app_service_name", "real_subnets", "service_node_group_id"),
};

export function CreateDialog({
  deployment,
  regions,
  groups,
  lastResult,
}: {
  deployment: AppServiceDeployment;
  regions: CloudRegion[];
  groups: ServiceNodeGroup[] | null;
  lastResult: Result;
}) {
  const formId = `create-app-service-${deployment}`;
  const [form, fields] = useForm<Record<string, any>>({ id: formId, lastResult, defaultValue: { location: deployment }, constraint: requiredBy[deployment] });
  const pending = pendingOf("create");
  const { disabled, onChange } = useRequiredFilled(formId, deployment);
  const protocols: readonly string[] = appServiceProtocols[deployment];
  const needsGroup = deployment === "onprem" || deployment === "network";
  const noGroups = needsGroup && groups !== null && groups.length === 0;
  return (
    <UrlDialog name="create" title="Create App Service" size="lg">
      <Choice label="Deployment" param="deployment" value={deployment} options={appServiceDeployments.map((d) => ({ value: d, label: deploymentLabels[d] }))} />
      {noGroups ? (
        <CreateGroupForm />
      ) : (
        <ConformForm form={form} intent="create" onChange={onChange} onInput={onChange}>
          <input type="hidden" name="location" value={deployment} />
          <div className="grid gap-x-4 sm:grid-cols-2">
            <TextField field={fields.app_service_name} label="Name" autoComplete="off" />
            {deployment === "aws" || deployment === "azure" ? (
              <SelectField field={fields.region} label="Region" options={regions.map((r) => ({ value: r.region, label: `${r.name} (${r.region})` }))} placeholder="Select a region" />
            ) : null}
            {deployment === "aws" ? (
              <>
                <TextField field={fields.cloud_endpoint_service_name} label="Endpoint Service Name" placeholder="com.amazonaws.vpce.us-east-1.vpce-svc-…" autoComplete="off" />
                <TextField field={fields.proto} label="Protocol" readOnly placeholder="TCP" />
              </>
            ) : null}
            {deployment === "onprem" ? <TextField field={fields.fqdn} label="FQDN" placeholder="app.example.com" autoComplete="off" /> : null}
            {needsGroup ? (
              <SelectField
                field={fields.service_node_group_id}
                label="Service Node Group"
                options={(groups ?? []).map((g) => ({ value: g.service_node_group_id, label: g.service_node_group_name }))}
                placeholder="Select a node group"
              />
            ) : null}
            {protocols.length > 1 ? (
              <SelectField field={fields.proto} label="Protocol" options={protocols.map((p) => ({ value: p, label: protoLabel(p) }))} placeholder="Select a protocol" />
            ) : null}
            {deployment !== "network" ? <TextField field={fields.port} label="Port" type="number" placeholder="1–65535" /> : null}
          </div>
          {deployment === "azure" ? (
            <fieldset className="mt-2">
              <TextField field={fields.cloud_endpoint_service_name} label="Private Link Service Id (required without OpenAI/PaaS)" placeholder="/subscriptions/…/privateLinkServices/…" autoComplete="off" />
              <CheckboxField field={fields.open_ai_private_link} label="OpenAI/PaaS private link" />
              <div className="grid gap-x-4 sm:grid-cols-2">
                <TextField field={fields.private_endpoint_ip_address} label="Private Endpoint IP (OpenAI/PaaS)" autoComplete="off" />
                <TextField field={fields.azure_user_email} label="Customer User Email (OpenAI/PaaS)" type="email" autoComplete="off" />
              </div>
              <TextField field={fields.remote_vnet_resource_id} label="Remote VNET Resource Id (OpenAI/PaaS)" placeholder="/subscriptions/…/virtualNetworks/…" autoComplete="off" />
            </fieldset>
          ) : null}
          {deployment === "network" ? (
            <fieldset className="mt-2">
              <TextField field={fields.real_subnets} label="Real Subnets" hint="Comma separated CIDRs, e.g. 10.20.1.0/24, 10.20.2.0/24" autoComplete="off" />
              <CheckboxField field={fields.address_translation_enabled} label="Address translation" />
              <TextField field={fields.virtual_subnet_pools} label="Virtual Subnet Pools (with address translation)" hint="Comma separated CIDRs; default {ip}/16 of the first real subnet" autoComplete="off" />
              <CheckboxField field={fields.bgp_enabled} label="BGP" />
              <div className="grid gap-x-4 sm:grid-cols-3">
                <TextField field={fields.bgp_local_asn} label="Local ASN (with BGP)" type="number" />
                <TextField field={fields.bgp_peer_asn} label="Peer ASN (with BGP)" type="number" />
                <TextField field={fields.bgp_peer_ip} label="Peer IP (with BGP)" autoComplete="off" />
              </div>
            </fieldset>
          ) : null}
          <TextareaField field={fields.description} label="Description" rows={2} />
          <DialogActions>
            <SubmitButton pending={pending} disabled={disabled}>
              Create
            </SubmitButton>
          </DialogActions>
        </ConformForm>
      )}
    </UrlDialog>
  );
}

/** 'No Service Node Groups found.' and the way out: create one here (the dialog then offers it). */
function CreateGroupForm() {
  const [form, fields] = useForm({ id: "create-service-node-group" });
  return (
    <>
      <p className="mb-2">No Service Node Groups found.</p>
      <ConformForm form={form} intent="create-group">
        <TextField field={fields.service_node_group_name} label="New Service Node Group name" autoComplete="off" />
        <DialogActions>
          <SubmitButton pending={pendingOf("create-group")}>Create Service Node Group</SubmitButton>
        </DialogActions>
      </ConformForm>
    </>
  );
}

export function NameDialog({ service, lastResult }: { service: AppService | null; lastResult: Result }) {
  const [form, fields] = useForm({ id: `name-${service?.app_service_id}`, lastResult, defaultValue: { app_service_name: service?.app_service_name } });
  return (
    <UrlDialog name="rename" title="Edit Name">
      {service ? (
        <ConformForm form={form} intent="rename">
          <input type="hidden" name="app_service_id" value={service.app_service_id} />
          <TextField field={fields.app_service_name} label="Name" autoComplete="off" />
          <DialogActions>
            <SubmitButton pending={pendingOf("rename")}>Save</SubmitButton>
          </DialogActions>
        </ConformForm>
      ) : (
        <Missing />
      )}
    </UrlDialog>
  );
}

export function DescriptionDialog({ service, lastResult }: { service: AppService | null; lastResult: Result }) {
  const [form, fields] = useForm({ id: `describe-${service?.app_service_id}`, lastResult, defaultValue: { description: service?.description } });
  return (
    <UrlDialog name="describe" title="Edit Description">
      {service ? (
        <ConformForm form={form} intent="describe">
          <input type="hidden" name="app_service_id" value={service.app_service_id} />
          <TextareaField field={fields.description} label="Description" rows={3} />
          <DialogActions>
            <SubmitButton pending={pendingOf("describe")}>Save</SubmitButton>
          </DialogActions>
        </ConformForm>
      ) : (
        <Missing />
      )}
    </UrlDialog>
  );
}

export function EditDialog({ service, lastResult }: { service: AppService | null; lastResult: Result }) {
  const [form, fields] = useForm({
    id: `edit-${service?.app_service_id}`,
    lastResult,
    defaultValue: { proto: service?.proto, port: service?.port === null ? "" : String(service?.port ?? ""), fqdn: service?.fqdn },
  });
  const protocols: readonly string[] = service ? appServiceProtocols[service.deployment] : [];
  return (
    <UrlDialog name="edit" title="Edit App Service">
      {!service ? (
        <Missing />
      ) : service.deployment === "network" ? (
        <>
          <p>A network App Service has no protocol, port or FQDN.</p>
          <DialogActions />
        </>
      ) : (
        <ConformForm form={form} intent="edit">
          <input type="hidden" name="app_service_id" value={service.app_service_id} />
          <SelectField field={fields.proto} label="Protocol" options={protocols.map((p) => ({ value: p, label: protoLabel(p) }))} placeholder={null} />
          <TextField field={fields.port} label="Port" type="number" />
          {service.deployment === "onprem" ? <TextField field={fields.fqdn} label="FQDN" autoComplete="off" /> : null}
          <DialogActions>
            <SubmitButton pending={pendingOf("edit")}>Save</SubmitButton>
          </DialogActions>
        </ConformForm>
      )}
    </UrlDialog>
  );
}

export interface ContactOption {
  contact_id: string;
  first_name: string;
  last_name: string;
  email: string;
}

export function ContactsDialog({ service, contacts, lastResult }: { service: AppService | null; contacts: ContactOption[]; lastResult: Result }) {
  const [form, fields] = useForm({
    id: `contacts-${service?.app_service_id}`,
    lastResult,
    defaultValue: { primary_contact_id: service?.primary_contact_id ?? "", secondary_contact_id: service?.secondary_contact_id ?? "" },
  });
  const options = contacts.map((c) => ({ value: c.contact_id, label: `${`${c.first_name} ${c.last_name}`.trim() || c.email} (${c.email})` }));
  return (
    <UrlDialog name="contacts" title="Setup Contacts">
      {!service ? (
        <Missing />
      ) : contacts.length === 0 ? (
        <>
          <p role="alert" className="font-semibold">
            Missing Contacts
          </p>
          <p>
            There are no contacts yet: <Link to="/contacts?dialog=create" className="link link-primary">create a contact</Link> first.
          </p>
          <DialogActions />
        </>
      ) : (
        <ConformForm form={form} intent="contacts">
          <input type="hidden" name="app_service_id" value={service.app_service_id} />
          <SelectField field={fields.primary_contact_id} label="Business Contact" options={options} />
          <SelectField field={fields.secondary_contact_id} label="Technical Contact" options={options} />
          <DialogActions>
            <SubmitButton pending={pendingOf("contacts")}>Save</SubmitButton>
          </DialogActions>
        </ConformForm>
      )}
    </UrlDialog>
  );
}

export function ResizeDialog({ service, hostings, lastResult }: { service: AppService | null; hostings: Hosting[]; lastResult: Result }) {
  // A new form after each refusal: Confirm is enabled again after an error (spec 1 §4).
  const [form, fields] = useForm<Record<string, any>>({ id: `resize-${service?.app_service_id}`, lastResult, defaultValue: { direction: "up" } });
  return (
    <UrlDialog name="resize" title="Resize App Service">
      {!service ? (
        <Missing />
      ) : service.deployment === "onprem" ? (
        <>
          <p>An onprem App Service cannot be resized.</p>
          <DialogActions />
        </>
      ) : (
        <ConformForm form={form} intent="resize">
          <input type="hidden" name="app_service_id" value={service.app_service_id} />
          <SelectField
            field={fields.hosting_id}
            label="Hosting location"
            options={hostings.map((h) => ({ value: h.hosting_id, label: `${h.service_provider} ${h.region || h.fqdn} (${h.size})` }))}
            placeholder="Select a hosting location"
          />
          <fieldset className="fieldset">
            <legend className="fieldset-legend">Direction</legend>
            {(["up", "down"] as const).map((d) => (
              <label key={d} className="label cursor-pointer justify-start gap-2">
                <input type="radio" name={fields.direction.name} value={d} defaultChecked={d === "up"} className="radio" />
                <span>{d === "up" ? "Up" : "Down"}</span>
              </label>
            ))}
          </fieldset>
          <DialogActions>
            <SubmitButton pending={pendingOf("resize")}>Confirm</SubmitButton>
          </DialogActions>
        </ConformForm>
      )}
    </UrlDialog>
  );
}

/** Test Reachability: runs measure-app-service-latency; the answer as key/value pairs. */
export function LatencyForm({ service, result }: { service: AppService; result: Record<string, unknown> | null }) {
  return (
    <>
      <Form method="post" preventScrollReset>
        <AuthenticityTokenInput name="csrf" />
        <input type="hidden" name="intent" value="latency" />
        <input type="hidden" name="app_service_id" value={service.app_service_id} />
        <SubmitButton pending={pendingOf("latency")} className="btn btn-primary btn-sm">
          Test Reachability
        </SubmitButton>
      </Form>
      {result ? <KeyValues values={result} label="Reachability result" /> : null}
    </>
  );
}

export function KeyValues({ values, label }: { values: Record<string, unknown>; label: string }) {
  return (
    <dl aria-label={label} className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="key-values">
      {Object.entries(values).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-semibold">{k}</dt>
          <dd className="break-all">{v === null ? "—" : String(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function LatencyDialog({ service, result }: { service: AppService | null; result: Record<string, unknown> | null }) {
  return (
    <UrlDialog name="latency" title="Test Reachability">
      {service ? (
        <>
          <p className="mb-2">
            Measure the reachability of <strong>{service.app_service_name}</strong> from the nearest PoP.
          </p>
          <LatencyForm service={service} result={result} />
          <DialogActions cancelLabel="Close" />
        </>
      ) : (
        <Missing />
      )}
    </UrlDialog>
  );
}

export function AddHostingDialog({
  service,
  location,
  regions,
  groups,
  lastResult,
}: {
  service: AppService | null;
  location: "aws" | "azure" | "onprem";
  regions: CloudRegion[];
  groups: ServiceNodeGroup[];
  lastResult: Result;
}) {
  const [form, fields] = useForm({ id: `add-hosting-${location}`, lastResult });
  return (
    <UrlDialog name="add-hosting" title="Add Hosting">
      {!service ? (
        <Missing />
      ) : (
        <>
          <Choice
            label="Hosting location"
            param="location"
            value={location}
            options={[
              { value: "aws", label: "AWS" },
              { value: "azure", label: "Azure" },
              { value: "onprem", label: "On-prem" },
            ]}
          />
          <ConformForm form={form} intent="add-hosting">
            <input type="hidden" name="app_service_id" value={service.app_service_id} />
            <input type="hidden" name="location" value={location} />
            {location === "onprem" ? (
              <>
                <TextField field={fields.fqdn} label="FQDN" autoComplete="off" />
                <SelectField
                  field={fields.service_node_group_id}
                  label="Node Group"
                  options={groups.map((g) => ({ value: g.service_node_group_id, label: g.service_node_group_name }))}
                  placeholder="Select a node group"
                />
              </>
            ) : (
              <>
                <SelectField field={fields.region} label="Region" options={regions.map((r) => ({ value: r.region, label: `${r.name} (${r.region})` }))} placeholder="Select a region" />
                <TextField
                  field={fields.cloud_endpoint_service_name}
                  label={location === "aws" ? "Endpoint Service Name" : "Private Link Service Id"}
                  autoComplete="off"
                />
              </>
            )}
            <DialogActions>
              <SubmitButton pending={pendingOf("add-hosting")}>Add Hosting</SubmitButton>
            </DialogActions>
          </ConformForm>
        </>
      )}
    </UrlDialog>
  );
}
