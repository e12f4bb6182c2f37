import { data } from "react-router";
import { useScreen } from "../../components/screen.tsx";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase-dialog.tsx";
import { ListScreen } from "../../components/list-screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { apiGet, apiGetOrThrow, apiList, apiListOrThrow, detailMessages, type ApiResult } from "../../lib/api.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { fetchTablePage, listScreenQuery } from "../../lib/table.server.ts";
import { ContactsDialog, DescriptionDialog, LatencyDialog, NameDialog, ResizeDialog } from "../services-shared/dialogs.tsx";
import { readDraft } from "../services-shared/draft.ts";
import { contactOptions } from "../services-shared/intents.server.ts";
import { endpointAction } from "./actions.server.ts";
import { hideable, screen, sortable, tableFields } from "./columns.ts";
import { AgentDetailsDialog, CreateEndpointDialog, FlowsDialog, missing, ResetDialog, VisibilityDialog } from "./dialogs.tsx";
import { CREATE_FIELDS, DELETE_PHRASE, defaultEndpointDeployment, endpointDeployments, NETFLOW_RANGES, type Endpoint, type EndpointDeployment } from "./model.ts";
import { constraints } from "./schemas.server.ts";
import { EndpointDecision } from "./decision.tsx";
import { EndpointTabs, tabs } from "./tabs.tsx";
import type { Route } from "./+types/route";
import { endpointMessages } from "../../../platform/contract/messages.ts";

/* ------------------------------------------------------------------------------------------------
 * Endpoints (spec 1 §2 Endpoints screen, §3 Endpoint, §4, §5, §7 Endpoints, §8, §9). The action
 * is ./actions.server.ts; the dialogs shared with App Services ../services-shared/.
 * ---------------------------------------------------------------------------------------------- */

const words = { screen: "Endpoints", missing };
const subjectOf = (e: Endpoint | null) => (e ? { idField: "ep_id", id: e.ep_id, name: e.ep_name } : null);
const deploymentOf = (v: string | null): EndpointDeployment => ((endpointDeployments as readonly string[]).includes(v ?? "") ? (v as EndpointDeployment) : defaultEndpointDeployment);

/** A platform answer the dialog shows: its data, or its error as one line. */
const answer = <T,>(r: ApiResult<T>, empty: T) => (r.ok ? { value: r.data, error: null } : { value: empty, error: detailMessages(r.detail).join(" ") });

/* Loader --------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const params = new URL(request.url).searchParams;
  const detail = (id: string) => apiGet(request, "get-endpoint-detail", { ep_id: id }).then((r) => (r.ok ? r.data : null));

  const deployment = deploymentOf(params.get("deployment"));
  const cloud = dialog === "create" && (deployment === "aws" || deployment === "azure");
  const usesNode = dialog === "create" && (deployment === "onprem" || deployment === "network");
  const [table, target, services, nodeGroups, regions, nodes] = await Promise.all([
    fetchTablePage(request, "list-endpoint", state, { ...screen, fields: tableFields }),
    dialog && dialog !== "create" && dialogId ? detail(dialogId) : null,
    // The create dialog's choices.
    dialog === "create" ? apiList(request, "list-app-service") : null,
    dialog === "create" ? apiListOrThrow(request, "list-endpoint-node-group") : [],
    // Region from the location's list, as App Services offers it (issue 27 item 14).
    cloud ? apiGetOrThrow(request, `list-${deployment}-regions`) : [],
    // The Node picker: the account's endpoint nodes (issue 27 item 14; #28 "Links to what exists").
    usesNode ? apiListOrThrow(request, "list-endpoint-node") : [],
  ]);
  const appServices = services?.ok && Array.isArray(services.data) ? services.data.map((s) => ({ app_service_id: s.app_service_id, app_service_name: s.app_service_name })) : [];
  const contacts = dialog === "contacts" && target ? await contactOptions(request) : [];

  // Show Flows reads the flows open now. Test Reachability measures only when its button is pressed
  // (a POST; a GET never measures: issue 27 item 8).
  const flows = dialog === "flows" && target ? answer(await apiGet(request, "get-endpoint-sessions", { ep_id: target.ep_id }), []) : null;

  // One selected endpoint: its tabs.
  const selected = table.selected.length === 1 ? await detail(table.selected[0]!) : null;
  const range = NETFLOW_RANGES.find((r) => r.id === params.get("range")) ?? NETFLOW_RANGES[0];
  let netflows = null;
  if (selected && tabs.current(params) === "netflows") {
    const end = new Date();
    const start = new Date(end.getTime() - range.ms);
    netflows = answer(await apiGet(request, "get-ep-sessions", { ep_id: selected.ep_id, start_time: start.toISOString(), end_time: end.toISOString() }), []);
  }

  return data(
    {
      table,
      target,
      appServices,
      nodeGroups,
      deployment,
      regions,
      nodes: nodes.map((n) => ({ ep_node_id: n.ep_node_id, ep_node_name: n.ep_node_name, ep_node_group_id: n.ep_node_group_id, ep_node_group_name: n.ep_node_group_name })),
      draft: readDraft(params.get("draft"), CREATE_FIELDS),
      panel: params.get("panel") === "group",
      contacts,
      flows,
      selected,
      netflows,
      range: range.id,
      exportLink: exportHref("/endpoints/export.csv", state),
      constraints,
    },
    { headers },
  );
}

export const action = endpointAction;

/* Component ------------------------------------------------------------------------------------ */

function menuItems(r: Endpoint, canWrite: boolean): MenuItem[] {
  const agent = r.deployment === "agent";
  const look: MenuItem[] = [
    { label: "Test Reachability", dialog: "latency", disabled: agent },
    { label: "Show Flows", dialog: "flows", disabled: agent },
  ];
  if (!canWrite) return look;
  return [
    { label: "Edit Name", dialog: "rename" },
    { label: "Edit Description", dialog: "describe" },
    ...look,
    { label: "Advanced Visibility", dialog: "visibility" },
    { label: "Setup Contacts", dialog: "contacts" },
    ...(agent ? [{ label: "Edit Agent Details", dialog: "agent" }] : []),
    { label: "Resize Endpoints", dialog: "resize", disabled: r.deployment === "onprem" },
    { label: "Reset", dialog: "reset" },
    { label: "Delete", dialog: "remove", danger: true },
  ];
}

export default function Endpoints({ loaderData, actionData }: Route.ComponentProps) {
  const { table, target, appServices, nodeGroups, regions, nodes, deployment, draft, panel, contacts, flows, selected, netflows, range, exportLink, constraints } = loaderData;
  // Every role may look (reachability, flows); the other dialogs change something (writers only).
  const { dialog, dialogId, result, error } = useScreen(actionData, ["latency", "flows"]);
  const subject = subjectOf(target);
  const latency = actionData && "latency" in actionData ? (actionData.latency as Record<string, unknown>) : null;

  return (
    <ListScreen
      screen={screen}
      error={error}
      page={table}
      toolbar={{ exportLink }}
      menu={menuItems}
      details={
        selected ? (
          <>
            <EndpointDecision ep={selected} />
            <EndpointTabs ep={selected} netflows={netflows?.value ?? []} netflowsError={netflows?.error ?? null} range={range} />
          </>
        ) : null
      }
    >
      {dialog === "latency" ? <LatencyDialog subject={subject} words={words} from="its PoP" result={latency} /> : null}
      {dialog === "flows" ? <FlowsDialog target={target} sessions={flows?.value ?? []} error={flows?.error ?? null} /> : null}
      {dialog === "create" ? (
        <CreateEndpointDialog deployment={deployment} appServices={appServices} regions={regions} nodes={nodes} nodeGroups={nodeGroups} draft={draft} panel={panel} lastResult={result} constraints={constraints} />
      ) : null}
      {dialog === "rename" ? <NameDialog subject={subject} words={words} field="ep_name" label="Endpoint Name" lastResult={result} constraint={constraints.rename} /> : null}
      {dialog === "describe" ? <DescriptionDialog subject={subject} words={words} description={target?.description ?? ""} lastResult={result} constraint={constraints.describe} /> : null}
      {dialog === "agent" ? <AgentDetailsDialog target={target} lastResult={result} constraint={constraints.agent} /> : null}
      {dialog === "resize" ? (
        <ResizeDialog subject={subject} words={words} title="Resize Endpoints" blocked={target?.deployment === "onprem" ? endpointMessages.onpremResize : null} lastResult={result} constraint={constraints.resize}>
          {() =>
            target ? (
              <p className="mb-1">
                <strong>{target.ep_name}</strong> is now <strong>{target.size}</strong>.
              </p>
            ) : null
          }
        </ResizeDialog>
      ) : null}
      {dialog === "contacts" ? (
        <ContactsDialog subject={subject} words={words} contacts={contacts} primary={target?.primary_contact_id ?? null} secondary={target?.secondary_contact_id ?? null} lastResult={result} constraint={constraints.contacts} />
      ) : null}
      {dialog === "reset" ? <ResetDialog target={target} lastResult={result} /> : null}
      {dialog === "visibility" && target ? <VisibilityDialog key={target.ep_id} target={target} lastResult={result} /> : null}
      {dialog === "remove" ? (
        <ConfirmPhraseDialog name="remove" title="Delete Endpoint" phrase={DELETE_PHRASE} intent="remove" fields={{ ep_id: target?.ep_id ?? dialogId ?? "" }} lastResult={result} submitLabel="Delete">
          <p className="mb-2">{target ? <>Delete the endpoint <strong>{target.ep_name}</strong>? This cannot be undone.</> : missing}</p>
        </ConfirmPhraseDialog>
      ) : null}
    </ListScreen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
