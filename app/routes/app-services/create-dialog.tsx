import type { GroupSchema } from "./schemas.server.ts";
import type { z } from "zod";
import { useEffect, useState } from "react";
import type { FormConstraint } from "../../components/constraints.server.ts";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { CheckboxField, ConformForm, SelectField, SubmitButton, TextareaField, TextField, useForm } from "../../components/forms.tsx";
import { useHydrated, useIsPending } from "../../components/hooks.ts";
import { BgpFields, DeploymentSwitch, markRequired } from "../services-shared/create-fields.tsx";
import type { Result } from "../services-shared/dialogs.tsx";
import type { Draft } from "../services-shared/draft.ts";
import {
  appServiceDeployments,
  appServiceProtocols,
  deploymentLabels,
  missingRequired,
  protoLabel,
  requiredFields,
  type AppServiceDeployment,
  type CloudRegion,
  type CreateField,
  type ServiceNodeGroup,
} from "./model.ts";
import { EMPTY as NO_GROUPS } from "../service-node-groups/model.ts";

/*
 * Create App Service (spec 1 §2, §5): the fields of the chosen deployment. Switching the deployment
 * keeps what was typed (the URL's draft, ../services-shared/draft.ts), as Endpoints' create does;
 * with JavaScript, Create waits for the deployment's required fields.
 */

/** Create's enabled state with JavaScript: the form's values, read on every change. */
function useRequiredFilled(formId: string, deployment: AppServiceDeployment) {
  const hydrated = useHydrated();
  const [missingSome, setMissing] = useState(true);
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
  return { disabled: hydrated && missingSome, onChange: read };
}

export function CreateDialog({ deployment, draft, regions, groups, lastResult, constraint }: {
  deployment: AppServiceDeployment;
  draft: Draft<CreateField>;
  regions: CloudRegion[];
  groups: ServiceNodeGroup[] | null;
  lastResult: Result;
  constraint: FormConstraint;
}) {
  const formId = `create-app-service-${deployment}`;
  const [form, fields] = useForm<Record<CreateField | "location", string>>({ id: formId, lastResult, defaultValue: { ...draft, location: deployment, ...(deployment === "aws" ? { proto: "TCP" } : {}) }, constraint: markRequired(constraint, requiredFields[deployment]) });
  const pending = useIsPending({ intent: "create" });
  const { disabled, onChange } = useRequiredFilled(formId, deployment);
  const protocols: readonly string[] = appServiceProtocols[deployment];
  const needsGroup = deployment === "onprem" || deployment === "network";
  const noGroups = needsGroup && groups !== null && groups.length === 0;
  const regionField = <SelectField field={fields.region} label="Region" options={regions.map((r) => ({ value: r.region, label: `${r.name} (${r.region})` }))} placeholder="Select a region" />;
  return (
    <UrlDialog name="create" title="Create App Service" size="lg">
      {noGroups ? (
        <CreateGroupForm />
      ) : (
        <ConformForm form={form} intent="create" onChange={onChange} onInput={onChange}>
          <DeploymentSwitch legend="Deployment" current={deployment} options={appServiceDeployments.map((d) => ({ value: d, label: deploymentLabels[d] }))} />
          <input type="hidden" name="location" value={deployment} />
          <div className="grid gap-x-4 sm:grid-cols-2">
            <TextField field={fields.app_service_name} label="Name" autoComplete="off" />
            {deployment === "aws" || deployment === "azure" ? regionField : null}
            {deployment === "aws" ? (
              <>
                <TextField field={fields.cloud_endpoint_service_name} label="Endpoint Service Name" placeholder="com.amazonaws.vpce.us-east-1.vpce-svc-…" autoComplete="off" />
                <TextField field={fields.proto} label="Protocol" readOnly hint="AWS endpoint services use TCP." />
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
              <BgpFields fields={fields} when="with BGP" asnInput="number" />
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
  const [form, fields] = useForm<z.input<typeof GroupSchema>>({ id: "create-service-node-group" });
  const pending = useIsPending({ intent: "create-group" });
  return (
    <>
      <p className="mb-2">{NO_GROUPS}</p>
      <ConformForm form={form} intent="create-group">
        <TextField field={fields.service_node_group_name} label="New Service Node Group name" autoComplete="off" />
        <DialogActions>
          <SubmitButton pending={pending}>Create Service Node Group</SubmitButton>
        </DialogActions>
      </ConformForm>
    </>
  );
}
