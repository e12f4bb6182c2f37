import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useLocation, useSearchParams } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase-dialog.tsx";
import { DataTable, SelectionStatus, type TableLinks } from "../../components/data-table.tsx";
import { PageTitle } from "../../components/forms.tsx";
import { useCanWrite } from "../../components/hooks.ts";
import { RowMenu, type MenuItem } from "../../components/row-menu.tsx";
import { apiGetOrThrow, apiPost } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { requireWriter } from "../../lib/roles.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { fetchTablePage, parseTableQuery, platformFailure, selectedRows } from "../../lib/table.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { dialogHref, listParam, returnUrl } from "../../lib/url.ts";
import { defaultVirtualPool } from "../../../platform/contract/net.ts";
import { columns, hideable, sortable, tableFields } from "./columns.ts";
import { AddHostingDialog, ContactsDialog, CreateDialog, DescriptionDialog, EditDialog, LatencyDialog, NameDialog, ResizeDialog, type ContactOption } from "./dialogs.tsx";
import {
  appServiceDeployments,
  topTalkerRangeMs,
  topTalkerRanges,
  type AppService,
  type AppServiceDeployment,
  type CloudRegion,
  type Endpoint,
  type Hosting,
  type ServiceNodeGroup,
  type TopTalker,
} from "./model.ts";
import {
  AddHostingSchema,
  ContactsSchema,
  CreateAppServiceSchema,
  DescriptionSchema,
  EditSchema,
  EndpointDecisionSchema,
  GroupSchema,
  IdSchema,
  NameSchema,
  removeHostingSchema,
  removeSchema,
  ResizeSchema,
  type CreateAppServiceValues,
} from "./schemas.server.ts";
import { AppServiceTabs, tabIds, type TabData } from "./tabs.tsx";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * App Services (spec 1 §2 App Services screen, §3 AppService/Hosting/Top talker, §5, §7, §8, §9)
 * ---------------------------------------------------------------------------------------------- */

const getRowId = (r: AppService) => r.app_service_id;
const rowLabel = (r: AppService) => r.app_service_name;

const deploymentOf = (v: string | null): AppServiceDeployment => (appServiceDeployments as readonly string[]).includes(v ?? "") ? (v as AppServiceDeployment) : "aws";
const hostingLocationOf = (v: string | null): "aws" | "azure" | "onprem" => (v === "azure" || v === "onprem" ? v : "aws");

/* Loader --------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const url = new URL(request.url);
  const p = url.searchParams;
  const { state, headers } = parseTableQuery(request, { sortable, hideable });
  const dialog = p.get("dialog");
  const dialogId = p.get("id");
  const detail = (id: string) => apiGetOrThrow<AppService>(request, "get-app-service-detail", { app_service_id: id }).catch(() => null);
  const deployment = deploymentOf(p.get("deployment"));
  const hostingLocation = hostingLocationOf(p.get("location"));
  const regionsFor = (d: string) => (d === "aws" ? apiGetOrThrow<CloudRegion[]>(request, "list-aws-regions") : d === "azure" ? apiGetOrThrow<CloudRegion[]>(request, "list-azure-regions") : Promise.resolve([]));
  const needsGroups = (dialog === "create" && (deployment === "onprem" || deployment === "network")) || (dialog === "add-hosting" && hostingLocation === "onprem");
  const [table, regions, groups, dialogService, contacts] = await Promise.all([
    fetchTablePage<AppService>(request, "list-app-service", state, { getRowId, fields: tableFields }),
    dialog === "create" ? regionsFor(deployment) : dialog === "add-hosting" ? regionsFor(hostingLocation) : Promise.resolve([]),
    needsGroups ? apiGetOrThrow<ServiceNodeGroup[]>(request, "list-service-node-group") : Promise.resolve(null),
    dialogId && dialog && dialog !== "remove-hosting" ? detail(dialogId) : Promise.resolve(null),
    dialog === "contacts" ? apiGetOrThrow<ContactOption[]>(request, "get-contact") : Promise.resolve([]),
  ]);
  const resizeHostings =
    dialog === "resize" && dialogService ? await apiGetOrThrow<Hosting[]>(request, "app-service-get-hosting", { app_service_id: dialogService.app_service_id }) : [];

  // The tabs: only for one selected App Service that the current result holds.
  // The list's row is the whole AppService (the detail call's shape): no second call for it.
  const selected = table.selected.length === 1 ? (selectedRows(table)[0] ?? null) : null;
  const tab = tabIds.includes(p.get("tab") as never) ? p.get("tab") : "details";
  const tabData: TabData = {};
  if (selected) {
    const id = { app_service_id: selected.app_service_id };
    if (tab === "endpoints") tabData.endpoints = await apiGetOrThrow<Endpoint[]>(request, "get-app-service-endpoints", id);
    if (tab === "top-talkers") {
      const range = (topTalkerRanges as readonly string[]).includes(p.get("range") ?? "") ? (p.get("range") as keyof typeof topTalkerRangeMs) : "1h";
      const end = Date.now();
      tabData.range = range;
      tabData.talkers = await apiGetOrThrow<TopTalker[]>(request, "get-top-talker-ep", {
        ...id,
        start_time: new Date(end - topTalkerRangeMs[range]).toISOString(),
        end_time: new Date(end).toISOString(),
      });
    }
    if (tab === "hosting" || dialog === "add-hosting") tabData.hostings = await apiGetOrThrow<Hosting[]>(request, "app-service-get-hosting", id);
  }
  const exportLink = exportHref("/app-services/export.csv", state);
  return data({ table, regions, groups, dialogService, contacts, resizeHostings, selected, tabData, deployment, hostingLocation, exportLink }, { headers });
}

/* Action --------------------------------------------------------------------------------------- */

type Reply = Awaited<ReturnType<typeof platformFailure>>;

/** The create-app-service body for the chosen deployment (spec 1 §7): only its fields, empty ones left out. */
function createBody(v: CreateAppServiceValues) {
  const t = (s: string | undefined) => (s ? s : undefined);
  const base = { app_service_name: v.app_service_name, description: t(v.description), location: v.location };
  switch (v.location) {
    case "aws":
      return { ...base, region: t(v.region), cloud_endpoint_service_name: t(v.cloud_endpoint_service_name), proto: "tcp", port: v.port };
    case "onprem":
      return { ...base, fqdn: t(v.fqdn), service_node_group_id: t(v.service_node_group_id), proto: t(v.proto), port: v.port };
    case "azure":
      return v.open_ai_private_link
        ? {
            ...base,
            proto: t(v.proto),
            port: v.port,
            region: t(v.region),
            open_ai_private_link: true,
            private_endpoint_ip_address: t(v.private_endpoint_ip_address),
            remote_vnet_resource_id: t(v.remote_vnet_resource_id),
            azure_user_email: t(v.azure_user_email),
          }
        : { ...base, proto: t(v.proto), port: v.port, region: t(v.region), cloud_endpoint_service_name: t(v.cloud_endpoint_service_name), open_ai_private_link: false };
    case "network": {
      const pools = v.virtual_subnet_pools.length ? v.virtual_subnet_pools : v.real_subnets[0] ? [defaultVirtualPool(v.real_subnets[0])].filter(Boolean) : [];
      return {
        ...base,
        network_mode_enabled: true,
        real_subnets: v.real_subnets,
        service_node_group_id: t(v.service_node_group_id),
        address_translation_enabled: v.address_translation_enabled,
        ...(v.address_translation_enabled ? { virtual_subnet_pools: pools } : {}),
        bgp_enabled: v.bgp_enabled,
        ...(v.bgp_enabled ? { bgp_local_asn: v.bgp_local_asn, bgp_peer_asn: v.bgp_peer_asn, bgp_peer_ip: t(v.bgp_peer_ip) } : {}),
      };
    }
  }
}

const createFields = [
  "app_service_name",
  "description",
  "region",
  "cloud_endpoint_service_name",
  "proto",
  "port",
  "fqdn",
  "service_node_group_id",
  "real_subnets",
  "virtual_subnet_pools",
  "bgp_local_asn",
  "bgp_peer_asn",
  "bgp_peer_ip",
  "private_endpoint_ip_address",
  "azure_user_email",
  "remote_vnet_resource_id",
];

async function simple(request: Request, formData: FormData, schema: Parameters<typeof parseWithZod>[1]["schema"], call: string, body: (v: any) => unknown, toast: string, fieldNames: string[]): Promise<Reply | Response> {
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const res = await apiPost<{ detail?: string }>(request, call, body(submission.value));
  if (!res.ok) return platformFailure(request, res, { submission, fieldNames });
  return redirectWithToast(request, returnUrl(request), { type: "success", message: toast });
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  // Refresh reads again and says so: open to every role. Everything else changes something.
  if (intent !== "refresh") await requireWriter(request);
  switch (intent) {
    case "create": {
      const submission = parseWithZod(formData, { schema: CreateAppServiceSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const res = await apiPost<{ app_service_id: string }>(request, "create-app-service", createBody(submission.value));
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: createFields });
      return redirectWithToast(request, returnUrl(request, { deployment: null, selected: [res.data.app_service_id], tab: null }), { type: "success", message: "App Service created." });
    }
    case "create-group": {
      const submission = parseWithZod(formData, { schema: GroupSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const res = await apiPost(request, "create-service-node-group", submission.value);
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["service_node_group_name"] });
      // Back to the create dialog, which now offers the group.
      return redirectWithToast(request, new URL(request.url).pathname + new URL(request.url).search, { type: "success", message: "Service Node Group created." });
    }
    case "rename":
      return simple(request, formData, NameSchema, "set-app-service-name", (v) => v, "App Service name updated.", ["app_service_name"]);
    case "describe":
      return simple(request, formData, DescriptionSchema, "set-app-service-description", (v) => ({ ...v, description: v.description ?? "" }), "App Service description updated.", ["description"]);
    case "edit":
      return simple(request, formData, EditSchema, "edit-app-service", (v) => ({ app_service_id: v.app_service_id, proto: v.proto || undefined, port: v.port, fqdn: v.fqdn }), "App Service updated.", ["proto", "port", "fqdn"]);
    case "contacts":
      return simple(
        request,
        formData,
        ContactsSchema,
        "set-app-service-contact",
        (v) => ({ app_service_id: v.app_service_id, primary_contact_id: v.primary_contact_id ?? "", secondary_contact_id: v.secondary_contact_id ?? "" }),
        "Contacts updated.",
        ["primary_contact_id", "secondary_contact_id"],
      );
    case "resize":
      return simple(request, formData, ResizeSchema, "resize-app-service", (v) => v, "Resized App Service successfully.", ["hosting_id", "direction"]);
    case "latency": {
      const submission = parseWithZod(formData, { schema: IdSchema });
      if (submission.status !== "success") throw data({ message: "The request was incomplete." }, { status: 400 });
      const res = await apiPost<Record<string, unknown>>(request, "measure-app-service-latency", submission.value);
      if (!res.ok) return platformFailure(request, res);
      return data({ latency: res.data });
    }
    case "remove": {
      const id = String(formData.get("app_service_id") ?? "");
      const submission = parseWithZod(formData, { schema: removeSchema(id) });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const res = await apiPost(request, "remove-app-service", { app_service_id: id });
      // A list detail (endpoints still using it): each item a persistent toast; the dialog closes.
      if (!res.ok) return platformFailure(request, res);
      const selected = listParam(new URL(request.url).searchParams, "selected").filter((s) => s !== id);
      return redirectWithToast(request, returnUrl(request, { selected, tab: selected.length ? undefined : null }), { type: "success", message: "App Service removed." });
    }
    case "endpoint": {
      const submission = parseWithZod(formData, { schema: EndpointDecisionSchema });
      if (submission.status !== "success") {
        return redirectWithToast(request, returnUrl(request), { type: "error", message: "Select an endpoint.", persistent: true });
      }
      const { ep_id, decision } = submission.value;
      const res = await apiPost(request, decision === "approve" ? "approve-endpoint" : "reject-endpoint", { ep_id });
      if (!res.ok) return platformFailure(request, res);
      return redirectWithToast(request, returnUrl(request), { type: "success", message: decision === "approve" ? "Endpoint approved." : "Endpoint rejected." });
    }
    case "add-hosting": {
      const submission = parseWithZod(formData, { schema: AddHostingSchema });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const v = submission.value;
      const body =
        v.location === "onprem"
          ? { app_service_id: v.app_service_id, location: v.location, fqdn: v.fqdn, service_node_group_id: v.service_node_group_id }
          : { app_service_id: v.app_service_id, location: v.location, region: v.region, cloud_endpoint_service_name: v.cloud_endpoint_service_name };
      const res = await apiPost(request, "app-service-add-hosting", body);
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["region", "cloud_endpoint_service_name", "fqdn", "service_node_group_id"] });
      return redirectWithToast(request, returnUrl(request, { location: null }), { type: "success", message: "Hosting added." });
    }
    case "remove-hosting": {
      const hostingId = String(formData.get("hosting_id") ?? "");
      const submission = parseWithZod(formData, { schema: removeHostingSchema(hostingId) });
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const res = await apiPost(request, "app-service-remove-hosting", { app_service_id: submission.value.app_service_id, hosting_id: hostingId });
      if (!res.ok) return platformFailure(request, res);
      return redirectWithToast(request, returnUrl(request), { type: "success", message: "Hosting removed." });
    }
    case "refresh":
      return redirectWithToast(request, returnUrl(request), { type: "success", message: "Refreshed App Services." });
    default:
      throw data({ message: "Unknown action." }, { status: 400 });
  }
}

/* Component ------------------------------------------------------------------------------------ */

export default function AppServices({ loaderData, actionData }: Route.ComponentProps) {
  const { table, regions, groups, dialogService, contacts, resizeHostings, selected, tabData, deployment, hostingLocation, exportLink } = loaderData;
  const [params] = useSearchParams();
  const location = useLocation();
  const canWrite = useCanWrite();
  const dialog = params.get("dialog");
  const dialogId = params.get("id");
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const latency = actionData && "latency" in actionData ? (actionData.latency as Record<string, unknown>) : null;
  const hasError = result?.status === "error";

  const menu = (r: AppService, links: TableLinks, up: boolean) => {
    const items: MenuItem[] = canWrite
      ? [
          { label: "Edit Name", dialog: "rename" },
          { label: "Edit Description", dialog: "describe" },
          { label: "Edit App Service", dialog: "edit" },
          { label: "Test Reachability", dialog: "latency" },
          { label: "Setup Contacts", dialog: "contacts" },
          { label: "Resize App Service", dialog: "resize", disabled: r.deployment === "onprem" },
          { label: "Delete", dialog: "remove", danger: true },
        ]
      : [];
    return items.length ? <RowMenu label={`Actions for ${r.app_service_name}`} up={up} items={items} links={links} id={r.app_service_id} /> : null;
  };

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageTitle title="App Services" error={hasError} />
      <h1 id="page-title" className="text-2xl font-semibold">
        App Services
      </h1>

      <DataTable
        caption="App Services"
        columns={columns}
        page={table}
        getRowId={getRowId}
        rowLabel={rowLabel}
        selection="multiple"
        linkColumn="app_service_name"
        toolbar={
          <>
            {canWrite ? (
              <a href={dialogHref(location, "create")} className="btn btn-primary btn-sm">
                Create App Service
              </a>
            ) : null}
            <RefreshButton />
            <a href={exportLink} className="btn btn-outline btn-sm" download>
              Export CSV
            </a>
          </>
        }
        rowMenu={process.env.NOMENU ? undefined : canWrite ? menu : undefined}
      />

      <SelectionStatus count={table.selected.length} plural="App Services">
        {selected ? <AppServiceTabs service={selected} data={{ ...tabData, latency }} /> : null}
      </SelectionStatus>

      {canWrite && dialog === "create" ? <CreateDialog key={deployment} deployment={deployment} regions={regions} groups={groups} lastResult={result} /> : null}
      {canWrite && dialog === "rename" ? <NameDialog service={dialogService} lastResult={result} /> : null}
      {canWrite && dialog === "describe" ? <DescriptionDialog service={dialogService} lastResult={result} /> : null}
      {canWrite && dialog === "edit" ? <EditDialog service={dialogService} lastResult={result} /> : null}
      {canWrite && dialog === "contacts" ? <ContactsDialog service={dialogService} contacts={contacts} lastResult={result} /> : null}
      {canWrite && dialog === "resize" ? <ResizeDialog key={JSON.stringify(result ?? null)} service={dialogService} hostings={resizeHostings} lastResult={result} /> : null}
      {canWrite && dialog === "latency" ? <LatencyDialog service={dialogService} result={latency} /> : null}
      {canWrite && dialog === "add-hosting" ? (
        <AddHostingDialog key={hostingLocation} service={selected} location={hostingLocation} regions={regions} groups={groups ?? []} lastResult={result} />
      ) : null}
      {canWrite && dialog === "remove" ? (
        <ConfirmPhraseDialog
          name="remove"
          title="Delete App Service"
          phrase={dialogId ?? ""}
          intent="remove"
          fields={{ app_service_id: dialogId ?? "" }}
          lastResult={result}
          submitLabel="Delete"
        >
          <p className="mb-2">
            {dialogService ? (
              <>
                Delete the App Service <strong>{dialogService.app_service_name}</strong> and its hostings?
              </>
            ) : (
              "This App Service no longer exists."
            )}
          </p>
        </ConfirmPhraseDialog>
      ) : null}
      {canWrite && dialog === "remove-hosting" && selected ? (
        <ConfirmPhraseDialog
          name="remove-hosting"
          title="Remove Hosting"
          phrase={dialogId ?? ""}
          intent="remove-hosting"
          fields={{ app_service_id: selected.app_service_id, hosting_id: dialogId ?? "" }}
          lastResult={result}
          submitLabel="Remove"
        >
          <p className="mb-2">Remove this hosting of {selected.app_service_name}?</p>
        </ConfirmPhraseDialog>
      ) : null}
    </section>
  );
}

/** Refresh: reloads the list (a POST that redirects back with 'Refreshed App Services.'). */
function RefreshButton() {
  return (
    <Form method="post" preventScrollReset className="inline">
      <AuthenticityTokenInput name="csrf" />
      <input type="hidden" name="intent" value="refresh" />
      <button type="submit" className="btn btn-outline btn-sm">
        Refresh
      </button>
    </Form>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
