import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, useLocation, useSearchParams } from "react-router";
import { z } from "zod";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase-dialog.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { DataTable, SelectionStatus } from "../../components/data-table.tsx";
import { PageTitle } from "../../components/forms.tsx";
import { useCanWrite } from "../../components/hooks.ts";
import { RowMenu, type MenuItem } from "../../components/row-menu.tsx";
import { currentTab } from "../../components/tabs.tsx";
import { toggleSchema, ToggleDialog } from "../../components/toggle-dialog.tsx";
import { apiGet, apiGetOrThrow, apiPost, detailMessages } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { requireWriter } from "../../lib/roles.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { fetchTablePage, parseTableQuery, platformFailure } from "../../lib/table.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { dialogHref, listParam, returnUrl } from "../../lib/url.ts";
import { columns, hideable, sortable } from "./columns.ts";
import {
  AgentDetailsDialog,
  ContactsDialog,
  CreateEndpointDialog,
  EditDescriptionDialog,
  EditNameDialog,
  FlowsDialog,
  LatencyDialog,
  ResetDialog,
  ResizeDialog,
  type AppServiceChoice,
  type ContactChoice,
  type Result,
} from "./dialogs.tsx";
import { DELETE_PHRASE, DRAFT_FIELDS, NETFLOW_RANGES, readDraft, writeDraft, type Draft, type Endpoint, type EndpointDetail, type EndpointNodeGroup, type EndpointSession, type NetflowRow } from "./model.ts";
import { AgentDetailsSchema, ContactsSchema, CreateEndpointSchema, DeleteSchema, DescriptionSchema, EpIdSchema, NameSchema, NodeGroupSchema, ResizeSchema } from "./schemas.server.ts";
import { EndpointTabs, TAB_IDS } from "./tabs.tsx";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Endpoints (spec 1 §2 Endpoints screen, §3 Endpoint, §4, §5, §7 Endpoints, §8, §9)
 * ---------------------------------------------------------------------------------------------- */

const getRowId = (r: Endpoint) => r.ep_id;
const DIALOGS = ["create", "name", "description", "latency", "flows", "visibility", "contacts", "agent", "resize", "reset", "delete"] as const;
type DialogName = (typeof DIALOGS)[number];

/* Loader --------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const url = new URL(request.url);
  const params = url.searchParams;
  const { state, headers } = parseTableQuery(request, { sortable, hideable });
  const dialogParam = params.get("dialog");
  const dialog = (DIALOGS as readonly string[]).includes(dialogParam ?? "") ? (dialogParam as DialogName) : null;
  const dialogId = params.get("id");
  const detail = (id: string) =>
    apiGet<EndpointDetail>(request, "get-endpoint-detail", { ep_id: id }).then((r) => (r.ok ? r.data : null));

  const [table, target] = await Promise.all([
    fetchTablePage<Endpoint>(request, "list-endpoint", state, { getRowId }),
    dialog && dialog !== "create" && dialogId ? detail(dialogId) : null,
  ]);

  // The create dialog: its choices, and the values typed before a switch (the URL's draft).
  let appServices: AppServiceChoice[] = [];
  let nodeGroups: EndpointNodeGroup[] = [];
  if (dialog === "create") {
    const [services, groups] = await Promise.all([
      apiGet<AppServiceChoice[]>(request, "list-app-service"),
      apiGetOrThrow<EndpointNodeGroup[]>(request, "list-endpoint-node-group"),
    ]);
    appServices = services.ok && Array.isArray(services.data) ? services.data.map((s) => ({ app_service_id: s.app_service_id, app_service_name: s.app_service_name })) : [];
    nodeGroups = groups;
  }
  const draft = readDraft(params.get("draft"));

  let contacts: ContactChoice[] = [];
  if (dialog === "contacts" && target) contacts = await apiGetOrThrow<ContactChoice[]>(request, "get-contact");

  // Test Reachability and Show Flows show what the platform measures when the dialog opens.
  let latency: Record<string, unknown> | null = null;
  let sessions: EndpointSession[] = [];
  let dialogError: string | null = null;
  if (dialog === "latency" && target) {
    const r = await apiPost<Record<string, unknown>>(request, "measure-endpoint-latency", { ep_id: target.ep_id });
    if (r.ok) latency = r.data;
    else dialogError = detailMessages(r.detail).join(" ");
  }
  if (dialog === "flows" && target) {
    const r = await apiGet<EndpointSession[]>(request, "get-endpoint-sessions", { ep_id: target.ep_id });
    if (r.ok) sessions = r.data;
    else dialogError = detailMessages(r.detail).join(" ");
  }

  // One selected endpoint: its tabs.
  const selected = table.selected.length === 1 ? await detail(table.selected[0]!) : null;
  const tab = currentTab(params, TAB_IDS);
  const range = NETFLOW_RANGES.find((r) => r.id === params.get("range")) ?? NETFLOW_RANGES[0];
  let netflows: NetflowRow[] = [];
  let netflowsError: string | null = null;
  if (selected && tab === "netflows") {
    const end = new Date();
    const start = new Date(end.getTime() - range.ms);
    const r = await apiGet<NetflowRow[]>(request, "get-ep-sessions", { ep_id: selected.ep_id, start_time: start.toISOString(), end_time: end.toISOString() });
    if (r.ok) netflows = r.data;
    else netflowsError = detailMessages(r.detail).join(" ");
  }

  return data(
    {
      table,
      dialog,
      target,
      appServices,
      nodeGroups,
      draft,
      panel: params.get("panel") === "group",
      contacts,
      latency,
      sessions,
      dialogError,
      selected,
      netflows,
      netflowsError,
      range: range.id,
      exportLink: exportHref("/endpoints/export.csv", state),
      constraints: formConstraints({ create: CreateEndpointSchema, group: NodeGroupSchema, name: NameSchema }),
    },
    { headers },
  );
}

/* Action --------------------------------------------------------------------------------------- */

const reply = (submission: { reply: () => unknown }) => data({ result: submission.reply() as Result }, { status: 400 });

/** The create form's typed values, to carry through the URL. */
function draftOf(formData: FormData): Draft {
  const d: Draft = {};
  for (const f of DRAFT_FIELDS) {
    const v = formData.get(f);
    if (typeof v === "string" && v !== "") d[f] = v;
  }
  return d;
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  await requireWriter(request);
  const intent = formData.get("intent");
  const success = (message: string, changes = {}) => redirectWithToast(request, returnUrl(request, changes), { type: "success", message });

  switch (intent) {
    case "create": {
      // A location switch or the new-node-group panel: keep what was typed, in the URL.
      const change = formData.get("switch");
      if (typeof change === "string" && change !== "") {
        const draft = draftOf(formData);
        if (change !== "group-panel") draft.deployment = change;
        return redirect(returnUrl(request, { dialog: "create", draft: writeDraft(draft), panel: change === "group-panel" ? "group" : null }), 303);
      }
      const submission = parseWithZod(formData, { schema: CreateEndpointSchema });
      if (submission.status !== "success") return reply(submission);
      const v = submission.value;
      const body: Record<string, unknown> = { ep_name: v.ep_name, app_service_id: v.app_service_id, deployment: v.deployment };
      if (v.deployment === "onprem" || v.deployment === "network") Object.assign(body, { ep_node_group_id: v.ep_node_group_id, ep_node_id: v.ep_node_id });
      if (v.deployment === "aws" || v.deployment === "azure") Object.assign(body, { region: v.region, consumer_principle: v.consumer_principle });
      if (v.deployment === "network") {
        body.real_subnets = v.real_subnets;
        body.bgp_enabled = Boolean(v.bgp_enabled);
        // ASNs are sent as numbers (spec 1 §5).
        if (v.bgp_enabled) Object.assign(body, { bgp_local_asn: v.bgp_local_asn, bgp_peer_asn: v.bgp_peer_asn, bgp_peer_ip: v.bgp_peer_ip });
      }
      const res = await apiPost(request, "create-endpoint", body);
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: [...DRAFT_FIELDS] });
      return success("Endpoint created.", { draft: null, panel: null });
    }
    case "create-node-group": {
      const submission = parseWithZod(formData, { schema: NodeGroupSchema });
      if (submission.status !== "success") return reply(submission);
      const res = await apiPost<{ ep_node_group_id: string; detail: string }>(request, "create-endpoint-node-group", { ep_node_group_name: submission.value.ep_node_group_name });
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["ep_node_group_name"] });
      // Back to the endpoint form with what was typed, and the new group chosen.
      const draft = { ...readDraft(submission.value.draft ?? ""), ep_node_group_id: res.data.ep_node_group_id };
      return redirectWithToast(request, returnUrl(request, { dialog: "create", panel: null, draft: writeDraft(draft) }), {
        type: "success",
        message: res.data.detail ?? "Endpoint Node Group created.",
      });
    }
    case "name": {
      const submission = parseWithZod(formData, { schema: NameSchema });
      if (submission.status !== "success") return reply(submission);
      const res = await apiPost(request, "set-endpoint-name", submission.value);
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["ep_name"] });
      return success("Endpoint name updated.");
    }
    case "description": {
      const submission = parseWithZod(formData, { schema: DescriptionSchema });
      if (submission.status !== "success") return reply(submission);
      const res = await apiPost(request, "set-endpoint-description", { ep_id: submission.value.ep_id, description: submission.value.description ?? "" });
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["description"] });
      return success("Endpoint description updated.");
    }
    case "agent": {
      const submission = parseWithZod(formData, { schema: AgentDetailsSchema });
      if (submission.status !== "success") return reply(submission);
      const v = submission.value;
      const res = await apiPost(request, "edit-endpoint", { ep_id: v.ep_id, user_agent_dns_servers: v.user_agent_dns_servers ?? "", user_agent_cidrs: v.user_agent_cidrs ?? "" });
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["user_agent_dns_servers", "user_agent_cidrs"] });
      return success("Endpoint updated.");
    }
    case "resize": {
      const submission = parseWithZod(formData, { schema: ResizeSchema });
      if (submission.status !== "success") return reply(submission);
      const res = await apiPost(request, "resize-endpoint-throughput", submission.value);
      // The dialog stays open with the platform's reason; Confirm works again (spec 1 §4).
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["direction"] });
      return success("Resized Endpoint successfully.");
    }
    case "visibility": {
      const epId = String(formData.get("ep_id") ?? "");
      const current = await apiGet<EndpointDetail>(request, "get-endpoint-detail", { ep_id: epId });
      if (!current.ok) return platformFailure(request, current);
      const submission = parseWithZod(formData, { schema: toggleSchema(current.data.proxying_enabled, { ep_id: z.string() }) });
      if (submission.status !== "success") return reply(submission);
      const res = await apiPost(request, "configure-endpoint-proxying", { ep_id: epId, enabled: submission.value.enabled });
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["enabled"] });
      return success("Configured visibility successfully.");
    }
    case "contacts": {
      const submission = parseWithZod(formData, { schema: ContactsSchema });
      if (submission.status !== "success") return reply(submission);
      const v = submission.value;
      const res = await apiPost(request, "set-endpoint-contact", { ep_id: v.ep_id, primary_contact_id: v.primary_contact_id ?? "", secondary_contact_id: v.secondary_contact_id ?? "" });
      if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["primary_contact_id", "secondary_contact_id"] });
      return success("Endpoint contacts updated.");
    }
    case "reset": {
      const submission = parseWithZod(formData, { schema: EpIdSchema });
      if (submission.status !== "success") return reply(submission);
      const res = await apiPost(request, "reset-endpoint", submission.value);
      if (!res.ok) return platformFailure(request, res);
      return success("Endpoint reset.");
    }
    case "delete": {
      const submission = parseWithZod(formData, { schema: DeleteSchema });
      if (submission.status !== "success") return reply(submission);
      const id = submission.value.ep_id;
      const res = await apiPost(request, "remove-endpoint", { ep_id: id });
      if (!res.ok) return platformFailure(request, res, { submission });
      const selected = listParam(new URL(request.url).searchParams, "selected").filter((s) => s !== id);
      return success("Endpoint removed.", { selected, tab: selected.length ? undefined : null });
    }
    default:
      throw data({ message: "Unknown action." }, { status: 400 });
  }
}

/* Component ------------------------------------------------------------------------------------ */

function menuItems(r: Endpoint, canWrite: boolean): MenuItem[] {
  const agent = r.deployment === "agent";
  const items: MenuItem[] = [];
  if (canWrite) {
    items.push({ label: "Edit Name", dialog: "name" }, { label: "Edit Description", dialog: "description" });
  }
  items.push(
    { label: "Test Reachability", dialog: "latency", disabled: agent },
    { label: "Show Flows", dialog: "flows", disabled: agent },
  );
  if (canWrite) {
    items.push({ label: "Advanced Visibility", dialog: "visibility" }, { label: "Setup Contacts", dialog: "contacts" });
    if (agent) items.push({ label: "Edit Agent Details", dialog: "agent" });
    items.push(
      { label: "Resize Endpoints", dialog: "resize", disabled: r.deployment === "onprem" },
      { label: "Reset", dialog: "reset" },
      { label: "Delete", dialog: "delete", danger: true },
    );
  }
  return items;
}

export default function Endpoints({ loaderData, actionData }: Route.ComponentProps) {
  const { table, target, appServices, nodeGroups, draft, panel, contacts, latency, sessions, dialogError, selected, netflows, netflowsError, range, exportLink, constraints } =
    loaderData;
  const [params] = useSearchParams();
  const location = useLocation();
  const canWrite = useCanWrite();
  const dialog = params.get("dialog");
  const result = actionData && "result" in actionData ? (actionData.result as Result) : undefined;
  const hasError = result?.status === "error";
  const mutating = dialog !== null && dialog !== "latency" && dialog !== "flows";

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageTitle title="Endpoints" error={hasError} />
      <h1 id="page-title" className="text-2xl font-semibold">
        Endpoints
      </h1>

      <DataTable
        caption="Endpoints"
        columns={columns}
        page={table}
        getRowId={getRowId}
        rowLabel={(r) => r.ep_name}
        selection="single"
        linkColumn="ep_name"
        toolbar={
          <>
            {canWrite ? (
              <a href={dialogHref(location, "create")} className="btn btn-primary btn-sm">
                Create Endpoint
              </a>
            ) : null}
            <a href={exportLink} className="btn btn-outline btn-sm" download>
              Export CSV
            </a>
          </>
        }
        rowMenu={(r, links, up) => <RowMenu label={`Actions for ${r.ep_name}`} up={up} items={menuItems(r, canWrite)} links={links} id={r.ep_id} />}
      />

      <SelectionStatus count={table.selected.length} plural="endpoints">
        {selected ? <EndpointTabs ep={selected} netflows={netflows} netflowsError={netflowsError} range={range} /> : null}
      </SelectionStatus>

      {dialog === "latency" ? <LatencyDialog target={target} result={latency} error={dialogError} /> : null}
      {dialog === "flows" ? <FlowsDialog target={target} sessions={sessions} error={dialogError} /> : null}
      {canWrite && mutating ? (
        <>
          {dialog === "create" ? (
            <CreateEndpointDialog appServices={appServices} nodeGroups={nodeGroups} draft={draft} panel={panel} lastResult={result} constraints={constraints} />
          ) : null}
          {dialog === "name" ? <EditNameDialog target={target} lastResult={result} constraint={constraints.name} /> : null}
          {dialog === "description" ? <EditDescriptionDialog target={target} lastResult={result} /> : null}
          {dialog === "agent" ? <AgentDetailsDialog target={target} lastResult={result} /> : null}
          {dialog === "resize" ? <ResizeDialog target={target} lastResult={result} /> : null}
          {dialog === "contacts" ? <ContactsDialog target={target} contacts={contacts} lastResult={result} /> : null}
          {dialog === "reset" ? <ResetDialog target={target} /> : null}
          {dialog === "visibility" && target ? (
            <ToggleDialog
              key={target.ep_id}
              name="visibility"
              title="Advanced Visibility"
              label="Advanced visibility"
              current={target.proxying_enabled}
              intent="visibility"
              fields={{ ep_id: target.ep_id }}
              lastResult={result}
            >
              <p className="mb-1">
                Endpoint: <strong>{target.ep_name}</strong>
              </p>
            </ToggleDialog>
          ) : null}
          {dialog === "delete" ? (
            <ConfirmPhraseDialog
              name="delete"
              title="Delete Endpoint"
              phrase={DELETE_PHRASE}
              intent="delete"
              fields={{ ep_id: target?.ep_id ?? params.get("id") ?? "" }}
              lastResult={result}
              submitLabel="Delete"
            >
              <p className="mb-2">{target ? <>Delete the endpoint <strong>{target.ep_name}</strong>? This cannot be undone.</> : "This endpoint no longer exists."}</p>
            </ConfirmPhraseDialog>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
