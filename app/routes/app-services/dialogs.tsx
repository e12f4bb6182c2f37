import type { AddHostingSchema, EditSchema } from "./schemas.server.ts";
import type { z } from "zod";
import { Link, useLocation } from "react-router";
import type { FormConstraint } from "../../components/constraints.server.ts";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ConformForm, SelectField, SubmitButton, TextField, useForm } from "../../components/forms.tsx";
import { useIsPending } from "../../components/hooks.ts";
import { hrefWith } from "../../lib/url.ts";
import { Missing, type Result } from "../services-shared/dialogs.tsx";
import { markRequired } from "../services-shared/create-fields.tsx";
import { addHostingRequired } from "../../../platform/contract/app-services.ts";
import { appServiceProtocols, protoLabel, type AppService, type CloudRegion, type ServiceNodeGroup } from "./model.ts";

/*
 * The App Services screen's own dialogs (spec 1 §2): Edit App Service (protocol/port/fqdn), Test
 * Reachability, Add Hosting; Create is ./create-dialog.tsx. The ones it shares with Endpoints are in ../services-shared/dialogs.tsx. Each opens by
 * URL (?dialog=…&id=…) and posts to the route's action, which validates (no schema here).
 */

export const missing = "This App Service no longer exists.";


export function EditDialog({ service, lastResult, constraint }: { service: AppService | null; lastResult: Result; constraint: FormConstraint }) {
  const [form, fields] = useForm<z.input<typeof EditSchema>>({
    id: `edit-${service?.app_service_id}`,
    lastResult,
    constraint,
    defaultValue: { proto: service?.proto, port: service?.port === null ? "" : String(service?.port ?? ""), fqdn: service?.fqdn },
  });
  const pending = useIsPending({ intent: "edit" });
  const protocols: readonly string[] = service ? appServiceProtocols[service.deployment] : [];
  return (
    <UrlDialog name="edit" title="Edit App Service">
      {!service ? (
        <Missing text={missing} />
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
            <SubmitButton pending={pending}>Save</SubmitButton>
          </DialogActions>
        </ConformForm>
      )}
    </UrlDialog>
  );
}

const hostingLocations = [
  { value: "aws", label: "AWS" },
  { value: "azure", label: "Azure" },
  { value: "onprem", label: "On-prem" },
] as const;

/** Add Hosting: the location is chosen with links kept in the URL (works without JavaScript). */
export function AddHostingDialog({ service, location, regions, groups, lastResult, constraint }: {
  service: AppService | null;
  location: "aws" | "azure" | "onprem";
  regions: CloudRegion[];
  groups: ServiceNodeGroup[];
  lastResult: Result;
  constraint: FormConstraint;
}) {
  // The location's required fields (the call's rules) marked `required`.
  const [form, fields] = useForm<z.input<typeof AddHostingSchema>>({ id: `add-hosting-${location}`, lastResult, constraint: markRequired(constraint, addHostingRequired(location).map(([f]) => f)) });
  const pending = useIsPending({ intent: "add-hosting" });
  const here = useLocation();
  return (
    <UrlDialog name="add-hosting" title="Add Hosting">
      {!service ? (
        <Missing text={missing} />
      ) : (
        <>
          <nav aria-label="Hosting location" className="mb-3">
            <div role="list" className="join flex-wrap">
              {hostingLocations.map((o) => (
                <span role="listitem" key={o.value}>
                  <Link
                    to={hrefWith(here, { location: o.value })}
                    replace
                    preventScrollReset
                    aria-current={o.value === location ? "true" : undefined}
                    className={`btn btn-sm join-item ${o.value === location ? "btn-primary" : "btn-outline"}`}
                  >
                    {o.label}
                  </Link>
                </span>
              ))}
            </div>
          </nav>
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
                <TextField field={fields.cloud_endpoint_service_name} label={location === "aws" ? "Endpoint Service Name" : "Private Link Service Id"} autoComplete="off" />
              </>
            )}
            <DialogActions>
              <SubmitButton pending={pending}>Add Hosting</SubmitButton>
            </DialogActions>
          </ConformForm>
        </>
      )}
    </UrlDialog>
  );
}
