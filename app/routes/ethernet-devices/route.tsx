import { data } from "react-router";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";
import { openDialogConstraints } from "../../components/constraints.server.ts";
import { deviceDialogForm } from "../devices-shared/toggles.ts";
import { ListScreen } from "../../components/list-screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { useScreen } from "../../components/screen.tsx";
import { currentTab } from "../../components/tabs.tsx";
import { formFailure, intentAction, refreshIntent, submitForm, validateForm } from "../../lib/action.server.ts";
import { apiGet, apiPost, detailMessages } from "../../lib/api.server.ts";
import { fetchTablePage, listScreenQuery, selectedRows } from "../../lib/table.server.ts";
import { flashToasts, redirectWithToast } from "../../lib/toast.server.ts";
import { returnUrl } from "../../lib/url.ts";
import { activationDialogs, deviceMessages } from "../devices-shared/activation.ts";
import { activationDialogData, activationHeaders, activationRefreshHeaders, startActivationIntent } from "../devices-shared/activation.server.ts";
import { deviceDialogData } from "../devices-shared/dialog-data.server.ts";
import { EntityFilter } from "../devices-shared/entity-filter.tsx";
import { withEntityFilter } from "../devices-shared/entity-filter.server.ts";
import { DEVICE_READABLE, deviceIntents } from "../devices-shared/intents.server.ts";
import { COMMON_MENU, DEVICE_TAB_IDS, READABLE_DIALOGS, READABLE_MENU } from "../devices-shared/kind.ts";
import { ActivationDialogs, DeviceDialogs, DialogsBoundary } from "../devices-shared/lazy-dialogs.tsx";
import { cpeMonitoring } from "../../lib/device-monitoring.server.ts";
import { hideable, screen, sortable } from "./columns.ts";
import { MetroTabs } from "./tabs.tsx";
import { KIND, metroDialogs, ROW_FIELDS, type Metro } from "./model.ts";
import { constraints, CreateMetroSchema, EditMetroSchema, metroBody, metroFormFields, oamFields, OamSchema } from "./schemas.server.ts";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Metro Ethernet NIDs (spec 3 §2.11, §3, §4, §5, §7.2, §8): the account's metro devices, the
 * entity filter, single selection with the Details and Monitoring tabs, and the row menu. The
 * dialogs both kinds share are devices-shared/'s (the activation test among them); this screen
 * adds Create Device, Edit NID info and Edit OAM info.
 * ---------------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const [filter, table] = await withEntityFilter(request, (query) => fetchTablePage(request, "get_metro", state, { ...screen, query, fields: ROW_FIELDS }));
  const [row] = selectedRows(table);
  const tab = currentTab(new URL(request.url).searchParams, DEVICE_TAB_IDS);
  const needsProducts = dialog === metroDialogs.create || dialog === metroDialogs.edit;
  const [dialogData, activation, selected, monitoring, products, ccmIntervals] = await Promise.all([
    deviceDialogData(request, KIND, dialog, dialogId),
    activationDialogData(request, KIND, dialog, dialogId),
    row ? apiGet(request, "get_metro_detail", { metro_id: row.metro_id }).then((r) => (r.ok ? r.data : null)) : null,
    row && tab === "monitoring" ? cpeMonitoring(request, row.metro_id, { name: row.metro_name, op_state: row.op_state, admin_state: row.admin_state }) : null,
    needsProducts ? apiGet(request, "metro_products").then((r) => (r.ok ? r.data : [])) : [],
    dialog === metroDialogs.oam ? apiGet(request, "metro_ccm_interval").then((r) => (r.ok ? r.data : [])) : [],
  ]);
  for (const [name, value] of Object.entries(activationRefreshHeaders(activation))) headers.set(name, value);
  return data(
    { table, entities: filter.entities, entity: filter.entity, ...dialogData, activation, selected, monitoring, products, ccmIntervals, constraints: openDialogConstraints(constraints, deviceDialogForm("metro", dialog)) },
    { headers },
  );
}

// The shell's cache policy, and the no-JS live view's Refresh.
export const headers = activationHeaders;

/* Action: one function per intent -------------------------------------------------------------- */

/** Create Device: a list detail is shown as persistent toasts (spec 3 §8) as well as beside its fields. */
async function create(request: Request, formData: FormData) {
  const form = validateForm(formData, CreateMetroSchema);
  if (!form.ok) return form.reply;
  const res = await apiPost(request, "create_metro", metroBody(form.value));
  if (!res.ok) {
    const toasts = Array.isArray(res.detail) ? detailMessages(res.detail).map((message) => ({ type: "error" as const, message, persistent: true })) : [];
    const headers = toasts.length ? { "Set-Cookie": await flashToasts(request, toasts) } : undefined;
    return formFailure(form.submission, res, { fields: metroFormFields, headers });
  }
  return redirectWithToast(request, returnUrl(request, { selected: res.data.metro_id, tab: null }), { type: "success", message: res.data.detail || deviceMessages.metroCreated });
}

const editNid = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: EditMetroSchema,
    call: "update_metro_info",
    body: metroBody,
    fields: metroFormFields,
    toast: deviceMessages.metroUpdated,
  });

/** Edit OAM: edit_oam's request as the form gives it (the CFM fields only with continuity check on). */
const editOam = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: OamSchema,
    call: "edit_oam",
    fields: oamFields,
    toast: deviceMessages.oamUpdated,
  });

const shared = deviceIntents(KIND);
export const action = intentAction(
  {
    ...shared,
    ping: shared.ping!, // named, so that it may be readable
    create,
    [metroDialogs.edit]: editNid,
    [metroDialogs.oam]: editOam,
    [activationDialogs.start]: startActivationIntent(KIND),
    refresh: refreshIntent("Refreshed Metro Ethernet NIDs."),
  },
  { readable: [...DEVICE_READABLE, "refresh"] },
);

/* Component ------------------------------------------------------------------------------------ */

const reportItem: MenuItem = { label: "Retrieve Activation Test Report", dialog: activationDialogs.report };
// Spec 3 §2.11's menu, in its order.
const writerMenu: MenuItem[] = [
  { label: "Edit NID info", dialog: metroDialogs.edit },
  { label: "Edit OAM info", dialog: metroDialogs.oam },
  { label: "Assign Entity", dialog: "assign" },
  { label: "Start Activation Test", dialog: activationDialogs.start },
  reportItem,
  { label: "Edit Appflow", dialog: "appflow" },
  ...COMMON_MENU,
];
// A readonly user: what only shows something.
const readerMenu: MenuItem[] = [reportItem, ...READABLE_MENU];
const menu = (_row: Metro, canWrite: boolean) => (canWrite ? writerMenu : readerMenu);
const readableDialogs = [...READABLE_DIALOGS, activationDialogs.report, activationDialogs.progress];

// The screen's own dialogs: loaded in the browser when one opens (devices-shared/lazy-dialogs.tsx).
const CreateMetroDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.CreateMetroDialog));
const EditNidDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.EditNidDialog));
const OamDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.OamDialog));

export default function EthernetDevices({ loaderData, actionData }: Route.ComponentProps) {
  const { table, entities, entity, selected, monitoring, products, ccmIntervals, activation, device } = loaderData;
  const { dialog, result, error } = useScreen(actionData, readableDialogs);
  const metro = device && "metro_id" in device ? device : null;
  return (
    <ListScreen
      screen={screen}
      page={table}
      error={error}
      toolbar={{ children: <EntityFilter entities={entities} current={entity} /> }}
      menu={menu}
      details={selected ? <MetroTabs metro={selected} monitoring={monitoring} /> : null}
    >
      <DialogsBoundary dialog={dialog}>
        {dialog === metroDialogs.create ? <CreateMetroDialog products={products} lastResult={result} /> : null}
        {dialog === metroDialogs.edit ? <EditNidDialog device={metro} products={products} lastResult={result} /> : null}
        {dialog === metroDialogs.oam ? <OamDialog device={metro} ccmIntervals={ccmIntervals} lastResult={result} /> : null}
        <DeviceDialogs kind={KIND} dialog={dialog} data={loaderData} actionData={actionData} lastResult={result} />
        <ActivationDialogs kind={KIND} dialog={dialog} device={metro ? { id: metro.metro_id, name: metro.metro_name } : null} data={activation} lastResult={result} />
      </DialogsBoundary>
    </ListScreen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
