import { Suspense, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";
import { DetailsTable, type DetailsItem } from "../../components/details-table.tsx";
import { ListScreen, type ListScreenDef } from "../../components/list-screen.tsx";
import { OpState } from "../../components/op-state.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { useScreen } from "../../components/screen.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { SubjectTabs } from "../../components/subject-tabs.tsx";
import { currentTab } from "../../components/tabs.tsx";
import type { TablePage } from "../../lib/table.server.ts";
import { formatTime } from "../../lib/format.ts";
import type { CloudRegion, CreationChoice, NodeCloudInit, NodeHealth } from "../../../platform/contract/nodes.ts";
import { CreateNodeDialog, type CreateStep, type GroupChoice } from "./node-create.tsx";
import { FormFactorDialog, HealthDialog, RemoveNodeDialog } from "./node-dialogs.tsx";
import { formFactorText, type NodeKindInfo, type NodeView } from "./node-kind.ts";
import type { Monitoring } from "./node-metrics.ts";

/*
 * One node screen for both kinds (spec 2 §2, §4): /service-nodes and /endpoint-nodes are this
 * component, its loader and action (node-screen.server.ts) driven by a defineNodeScreen, the kind's
 * table (node-kind.ts), columns, tabs and own row actions. Each route module only binds its def
 * (and adds its own dialogs: Add Secondary IPs, Configure LAN Interface).
 */

// The chart kit only on the Monitoring tab (lazyChart: drawn by the server, lazy in the browser).
const NodeMonitoring = lazyChart(() => import("./node-monitoring.tsx").then((m) => m.NodeMonitoring));

/** A tab that lists rows of the selected node (App Services, Connected Endpoints, Endpoints). */
export interface NodeTabTable<D> {
  caption: string;
  render: (node: D, caption: string) => ReactNode;
}

/** A tab's table of the node's rows: `caption` is "{what} of {node name}". */
export function tabTable<D, R>(what: string, columns: readonly SimpleColumn<R>[], rows: (node: D) => R[], getRowId: (row: R) => string): NodeTabTable<D> {
  return { caption: what, render: (node, caption) => <SimpleTable caption={caption} columns={columns} rows={rows(node)} getRowId={getRowId} /> };
}

/** A kind's node screen: its words and calls (node-kind.ts), its table (columns.ts), its node as the flow sees it, its tabs. */
export interface NodeScreenBase<Row> {
  info: NodeKindInfo;
  screen: ListScreenDef<Row>;
  view: (node: Row) => NodeView;
  tabs: readonly { id: string; label: string }[];
  /** The only fields the table and its row menu read: the browser gets just these. */
  fields: readonly (keyof Row & string)[];
}

/** What the kind shows of a node and adds to the row menu. */
export interface NodeScreenParts<Detail> {
  /** The Details tab. */
  details: (node: Detail) => DetailsItem[];
  /** The tabs that list the node's rows, by tab id. */
  tables: Partial<Record<string, NodeTabTable<Detail>>>;
  /** This kind's own row actions (writers): [before Test Node Health, after it]. */
  ownMenu?: readonly [readonly MenuItem[], readonly MenuItem[]];
}

export interface NodeScreenKind<Row, Detail extends Row> extends NodeScreenBase<Row>, NodeScreenParts<Detail> {
  tabIds: string[];
  /** The row menu: Test Node Health for every role (it changes nothing), the rest for writers. */
  menu: (row: Row, canWrite: boolean) => MenuItem[];
}

const health: MenuItem = { label: "Test Node Health", dialog: "health" };
const remove: MenuItem = { label: "Delete", dialog: "remove", danger: true };

/** A node screen's definition, with what is derived from it once (tab ids, the row menu). */
export function defineNodeScreen<Row, Detail extends Row>(base: NodeScreenBase<Row>, parts: NodeScreenParts<Detail>): NodeScreenKind<Row, Detail> {
  const def = { ...base, ...parts };
  const [before, after] = def.ownMenu ?? [[], []];
  const menu = (row: Row, canWrite: boolean): MenuItem[] => {
    if (!canWrite) return [health];
    const node = def.view(row);
    // A node without a form factor resumes the creation flow at its step 2.
    const formFactor: MenuItem = node.form_factor
      ? { label: "Manage Form Factor", dialog: "form-factor" }
      : { label: "Manage Form Factor", href: `?dialog=create&step=form-factor&id=${encodeURIComponent(node.id)}&ff=hosted_aws` };
    return [formFactor, ...before, health, ...after, remove];
  };
  return { ...def, tabIds: def.tabs.map((t) => t.id), menu };
}

/** The dialogs only showing something: a readonly user may open them. */
export const readableNodeDialogs = ["health"];

/* The Details tab's rows both kinds have ------------------------------------------------------------ */

type NodeStateFields = Pick<NodeView, "op_state" | "registered_at"> & { admin_state: string; admin_state_change_at: string | null; op_state_change_at: string | null; account_id: string };

/** The first rows: the node's name, id and group (each kind's labels), and Created at. */
export const identityItems = (view: NodeView, labels: readonly [name: string, id: string, group: string], group: string, createdAt: string): DetailsItem[] => [
  { label: labels[0], value: view.name },
  { label: labels[1], value: view.id },
  { label: labels[2], value: group },
  { label: "Created at", value: formatTime(createdAt) },
];

/** Admin State to Account Id (spec 2 §2 Details fields, the same for both kinds). */
export const stateItems = (n: NodeStateFields): DetailsItem[] => [
  { label: "Admin State", value: n.admin_state },
  { label: "Admin State Change at", value: formatTime(n.admin_state_change_at) },
  { label: "OP State", value: <OpState value={n.op_state} /> },
  { label: "OP State Change at", value: formatTime(n.op_state_change_at) },
  { label: "Registered at", value: n.registered_at ? formatTime(n.registered_at) : "Not registered" },
  { label: "Account Id", value: n.account_id },
];

/** Form Factor and Shipping Addr. */
export const formFactorItems = (n: Pick<NodeView, "form_factor" | "shipping_addr">): DetailsItem[] => [
  { label: "Form Factor", value: formFactorText(n.form_factor) },
  { label: "Shipping Addr", value: n.shipping_addr },
];

/* The screen ------------------------------------------------------------------------------------- */

/** What the open dialog needs (node-loader.server.ts): its node, the flow's step, the choices, the health check. */
export interface NodeDialogData {
  target: NodeView | null;
  step: CreateStep;
  choice: CreationChoice;
  groups: GroupChoice[];
  regions: CloudRegion[];
  health: NodeHealth | null;
  healthError: string | null;
}

/** What the node loader answers (node-screen.server.ts), as the component reads it. */
export interface NodeScreenData<Row, Detail> extends NodeDialogData {
  table: TablePage<Row>;
  selected: Detail | null;
  monitoring: Monitoring | null;
  exportLink: string;
}

const cloudInitOf = (actionData: unknown) => (actionData && typeof actionData === "object" && "cloudInit" in actionData ? (actionData.cloudInit as NodeCloudInit) : null);

function NodeTabs<Row, Detail extends Row>({ kind, node, monitoring }: { kind: NodeScreenKind<Row, Detail>; node: Detail; monitoring: Monitoring | null }) {
  const [params] = useSearchParams();
  const tab = currentTab(params, kind.tabIds);
  const { name } = kind.view(node);
  const table = kind.tables[tab];
  return (
    <SubjectTabs name={name} label={`${kind.info.noun.replace(" Node", " node")} ${name}`} tabs={kind.tabs} current={tab}>
      {tab === "details" ? <DetailsTable items={kind.details(node)} /> : null}
      {table ? table.render(node, `${table.caption} of ${name}`) : null}
      {tab === "monitoring" && monitoring ? (
        <Suspense fallback={<p>Loading the charts…</p>}>
          <NodeMonitoring charts={monitoring.charts} range={monitoring.range} error={monitoring.error} />
        </Suspense>
      ) : null}
    </SubjectTabs>
  );
}

export function NodeScreen<Row, Detail extends Row>({ kind, data, actionData, children }: { kind: NodeScreenKind<Row, Detail>; data: NodeScreenData<Row, Detail>; actionData: unknown; children?: ReactNode }) {
  const { table, target, step, choice, groups, regions, health, healthError, selected, monitoring, exportLink } = data;
  const { dialog, dialogId, result, error } = useScreen(actionData, readableNodeDialogs);
  const { info } = kind;
  const ff = { info, choice, regions, cloudInit: cloudInitOf(actionData), lastResult: result };
  return (
    <ListScreen
      screen={kind.screen}
      error={error}
      page={table}
      toolbar={{
        exportLink,
        children: (
          <Link to={info.groupsPath} className="btn btn-outline btn-sm">
            {info.groupsLabel}
          </Link>
        ),
      }}
      menu={kind.menu}
      details={selected ? <NodeTabs kind={kind} node={selected} monitoring={monitoring} /> : null}
    >
      {dialog === "create" ? <CreateNodeDialog {...ff} step={step} node={target} groups={groups} screen={info.title} /> : null}
      {dialog === "form-factor" ? <FormFactorDialog {...ff} node={target} /> : null}
      {dialog === "health" ? <HealthDialog node={target} health={health} error={healthError} /> : null}
      {dialog === "remove" ? <RemoveNodeDialog info={info} node={target} dialogId={dialogId} lastResult={result} /> : null}
      {children}
    </ListScreen>
  );
}
