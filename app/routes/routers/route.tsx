import { data } from "react-router";
import { lazyChart } from "../../components/chart/lazy-chart.tsx";
import { openDialogConstraints } from "../../components/constraints.server.ts";
import { deviceDialogForm } from "../devices-shared/toggles.ts";
import type { MenuItem } from "../../components/row-menu.tsx";
import { useScreen } from "../../components/screen.tsx";
import { currentTab } from "../../components/tabs.tsx";
import { detailOr, intentAction, refreshIntent, submitForm, validateForm } from "../../lib/action.server.ts";
import { apiGet, apiGetOrThrow, apiPost, detailText } from "../../lib/api.server.ts";
import { fetchTablePage, listScreenQuery, selectedRows } from "../../lib/table.server.ts";
import { speedTestProgress, speedTestTimedOut } from "../../lib/live/speed-test.ts";
import { deviceMessages } from "../../../platform/contract/devices.ts";
import { activationDialogData, activationHeaders, activationRefreshHeaders, activationConstraints, startActivationIntent } from "../devices-shared/activation.server.ts";
import { activationDialogs } from "../devices-shared/activation.ts";
import { deviceDialogData } from "../devices-shared/dialog-data.server.ts";
import { DeviceScreen } from "../devices-shared/device-screen.tsx";
import { withEntityFilter } from "../devices-shared/entity-filter.server.ts";
import { DEVICE_READABLE, deviceDetail, deviceIntents } from "../devices-shared/intents.server.ts";
import { COMMON_MENU, DEVICE_TAB_IDS, READABLE_DIALOGS, READABLE_MENU, type DeviceDetail } from "../devices-shared/kind.ts";
import { hideable, screen, sortable } from "./columns.ts";
import type { PerfConfirm } from "./dialogs.tsx";
import {
  ROW_FIELDS,
  RUN_PARAMS,
  SERVICE_PRODUCT,
  type Cpe,
  type CpeDetail,
  type SpeedTestRun,
} from "./model.ts";
import { cpeMonitoring, earlyMonitoring } from "../../lib/device-monitoring.server.ts";
import {
  constraints as ownConstraints,
  CreateCpeSchema,
  EditSiteSchema,
  MonitorTargetSchema,
  NetworkInfoSchema,
  PerfTestSchema,
  ScanIntervalSchema,
  ServiceSchema,
  SpeedTestSchema,
  UpdateCpeInfoSchema,
} from "./schemas.server.ts";
import { CpeTabs, type SelectedCpe } from "./tabs.tsx";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Internet NIDs (spec 3 §2.10, §3 CPE, §4, §5, §7.1, §8, §9): the customer's routers (CPE) with
 * the entity filter, Create Device, the row menus of BN-CPE-IP and of the other products, and the
 * selected device's Details and Monitoring tabs. The dialogs both kinds share (and the activation
 * test) live in ../devices-shared/, parameterised by kind.
 * ---------------------------------------------------------------------------------------------- */

const constraints = { ...ownConstraints, ...activationConstraints };
const asCpe = (d: DeviceDetail | null): CpeDetail | null => (d && "cpe_id" in d ? d : null);

/** The speed test the URL follows (`&type=&started=&until=`), read once on the server. */
async function speedTestRun(request: Request, cpeId: string, params: URLSearchParams): Promise<SpeedTestRun | null> {
  const [type, started, until] = RUN_PARAMS.map((p) => params.get(p) ?? "");
  const startedAt = Date.parse(started!);
  const finishesAt = Date.parse(until!);
  if (!type || !Number.isFinite(startedAt) || !Number.isFinite(finishesAt)) return null;
  const res = await apiGet(request, "get_cpe_speedtest_cli_test_result", { cpe_id: cpeId, test_type: type });
  if (res.ok) return { state: "done", type, answer: res.data };
  if (res.status !== 404) return { state: "error", type, message: detailText(res.detail) };
  const now = Date.now();
  if (speedTestTimedOut(startedAt, now)) return { state: "timeout", type };
  return { state: "running", type, startedAt: started!, finishesAt: until!, progress: speedTestProgress(startedAt, finishesAt, now) };
}

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const params = new URL(request.url).searchParams;
  // On the Monitoring tab the samples are asked for at once, beside the page; used only if the page holds the device.
  const early = await earlyMonitoring(request, state.selected.length === 1 && currentTab(params, DEVICE_TAB_IDS) === "monitoring" ? state.selected[0]! : null);
  const [[filter, table], deviceDialog, activation, products, regions, speedRun] = await Promise.all([
    withEntityFilter(request, (query) => fetchTablePage(request, "get_cpe", state, { ...screen, query, fields: ROW_FIELDS })),
    deviceDialogData(request, "cpe", dialog, dialogId),
    activationDialogData(request, "cpe", dialog, dialogId),
    dialog === "create" ? apiGetOrThrow(request, "get_cpe_products") : null,
    dialog === "perf" ? apiGet(request, "get_peer_regions").then((r) => (r.ok ? r.data : [])) : null,
    dialog === "speed-test" && dialogId ? speedTestRun(request, dialogId, params) : null,
  ]);
  // The selected device's tab: Details reads the device's detail; Monitoring needs only the row's
  // name and product (the list answered them), so it asks for nothing else and sends no detail.
  const picked = selectedRows(table)[0];
  const onMonitoring = Boolean(picked && picked.prod_code !== SERVICE_PRODUCT && currentTab(params, DEVICE_TAB_IDS) === "monitoring");
  const [detail, monitoring] = await Promise.all([
    picked && !onMonitoring ? deviceDetail(request, "cpe", picked.cpe_id).then((r) => asCpe(r.ok ? r.data : null)) : null,
    picked && onMonitoring ? cpeMonitoring(request, picked.cpe_id, { name: picked.cpe_name, op_state: picked.op_state, admin_state: picked.admin_state }, early) : null,
  ]);
  const selected: SelectedCpe | null = picked && (onMonitoring || detail) ? { cpe_name: picked.cpe_name, prod_code: picked.prod_code, detail } : null;
  for (const [k, v] of Object.entries(activationRefreshHeaders(activation))) headers.set(k, v);
  return data(
    { table, entities: filter.entities, entity: filter.entity, deviceDialog, activation, products, regions, speedRun, selected, monitoring, constraints: openDialogConstraints(constraints, deviceDialogForm("cpe", dialog)) },
    { headers },
  );
}

export const headers = activationHeaders;

/* Action: one function per intent (the shared ones from ../devices-shared/intents.server.ts) ---- */

const create = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: CreateCpeSchema,
    call: "create_cpe",
    fields: ["prod_code", "cpe_name", "site_address", "shipping_address", "provider_service_id", "client_circuit_id", "entity_name", "contact_name", "contact_email", "contact_phone", "description"],
    toast: detailOr(deviceMessages.cpeCreated),
    redirect: (answer) => ({ selected: answer.cpe_id }),
  });

const info = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: UpdateCpeInfoSchema,
    call: "update_cpe_info",
    fields: ["cpe_name", "site_address", "provider_service_id", "client_circuit_id", "ping_dns_ip", "ping_gw_ip", "description"],
    toast: detailOr(deviceMessages.cpeUpdated),
  });

/** Edit Site (BN-CPE-IP): update_cpe_info with the site fields changed and the rest as they are. */
const site = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: EditSiteSchema,
    call: async (v, req) => {
      const res = await deviceDetail(req, "cpe", v.cpe_id);
      const c = asCpe(res.ok ? res.data : null);
      if (!res.ok || !c) return res;
      return apiPost(req, "update_cpe_info", {
        cpe_id: c.cpe_id,
        cpe_name: c.cpe_name,
        provider_service_id: c.provider_service_id,
        client_circuit_id: c.client_circuit_id,
        ping_dns_ip: c.ping_dns_ip,
        ping_gw_ip: c.ping_gw_ip,
        ping_email_notification: c.ping_email_notification,
        ping_webhook_notification: c.ping_webhook_notification,
        site_address: v.site_address,
        shipping_address: v.shipping_address ?? "",
        latitude: v.latitude ?? null,
        longitude: v.longitude ?? null,
      });
    },
    fields: ["site_address", "shipping_address", "latitude", "longitude"],
    toast: detailOr(deviceMessages.cpeUpdated),
  });

const network = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: NetworkInfoSchema,
    call: "update_cpe_network_info",
    // The request's field gave the typed DNS servers as a list; the call takes them comma-separated.
    body: (v) => ({ ...v, dns_servers: v.dns_servers.join(", ") }),
    fields: ["mode", "wan_addressing", "wan_cidr", "wan_gateway", "dns_servers", "lan_cidr"],
    toast: detailOr(deviceMessages.networkUpdated),
  });

/** Activate Service (a button in the row menu) / Stop Service (its confirmation dialog), BN-CPE-IP. */
const service = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: ServiceSchema,
    call: (v, req) => apiPost(req, v.service === "activate" ? "activate_cpe_service" : "stop_cpe_service", { cpe_id: v.cpe_id }),
    toast: detailOr((v: { service: string }) => (v.service === "activate" ? deviceMessages.serviceActivated : deviceMessages.serviceStopped)),
    errors: "toast",
  });

/** Edit Daily Performance Test: a checked Start or Stop is shown for confirmation first, then sent. */
const perf = async (request: Request, formData: FormData) => {
  const form = validateForm(formData, PerfTestSchema);
  if (!form.ok) return form.reply;
  const v = form.value;
  if (!v.confirmed) return { perfConfirm: { enable: v.enable ? "start" : "stop", peer_region: v.peer_region, hour_of_day: v.hour_of_day?.toString() } satisfies PerfConfirm };
  return submitForm(request, formData, {
    schema: PerfTestSchema,
    call: "configure_perf_test_schedule",
    body: (x) => (x.enable ? { cpe_id: x.cpe_id, enable: true, peer_region: x.peer_region, hour_of_day: x.hour_of_day } : { cpe_id: x.cpe_id, enable: false }),
    fields: ["peer_region", "hour_of_day"],
    toast: detailOr((x: { enable: boolean }) => (x.enable ? deviceMessages.perfScheduled : deviceMessages.perfStopped)),
  });
};

const scan = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: ScanIntervalSchema, call: "set_cpe_scan_interval", fields: ["scan_interval"], toast: detailOr(deviceMessages.scanInterval) });

const target = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: MonitorTargetSchema, call: "update_cpe_ip_monitor_target", fields: ["ip_monitor_target"], toast: detailOr(deviceMessages.monitorTarget) });

/** Run Speed Test: start it, then the dialog follows it (its run in the URL). */
const speedTest = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: SpeedTestSchema,
    call: "start_cpe_speedtest_cli",
    fields: ["host"],
    toast: (answer) => answer.status || deviceMessages.speedStarted,
    redirect: (answer, v) => ({ dialog: "speed-test", id: v.cpe_id, type: v.test_type, started: answer.started_at, until: answer.finishes_at }),
  });

export const action = intentAction(
  {
    ...deviceIntents("cpe"),
    create,
    info,
    site,
    network,
    service,
    perf,
    scan,
    target,
    "speed-test": speedTest,
    [activationDialogs.start]: startActivationIntent("cpe"),
    refresh: refreshIntent("Refreshed Internet NIDs."),
  },
  { readable: [...DEVICE_READABLE, "refresh"] },
);

/* Component ------------------------------------------------------------------------------------ */

// The screen's own dialogs: loaded in the browser when one opens (devices-shared/lazy-dialogs.tsx).
const CreateDeviceDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.CreateDeviceDialog));
const EditInfoDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.EditInfoDialog));
const EditSiteDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.EditSiteDialog));
const NetworkInfoDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.NetworkInfoDialog));
const PerfTestDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.PerfTestDialog));
const OneValueDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.OneValueDialog));
const StopServiceDialog = lazyChart(() => import("./dialogs.tsx").then((m) => m.StopServiceDialog));
const SpeedTestDialog = lazyChart(() => import("./speed-test.tsx").then((m) => m.SpeedTestDialog));

const activationItems: MenuItem[] = [
  { label: "Start Activation Test", dialog: activationDialogs.start },
  { label: "Retrieve Activation Test Report", dialog: activationDialogs.report },
];

/** Spec 3 §2.10's menu for devices other than BN-CPE-IP. */
const productMenu: readonly MenuItem[] = [
  { label: "Edit CPE Info", dialog: "info" },
  { label: "Edit Network Info", dialog: "network" },
  { label: "Assign Entity", dialog: "assign" },
  { label: "Run Speed Test", dialog: "speed-test" },
  ...activationItems,
  { label: "Edit Daily Performance Test", dialog: "perf" },
  { label: "Edit Appflow", dialog: "appflow" },
  { label: "Edit Down Notification Interval", dialog: "scan" },
  { label: "Edit IP Monitor Target", dialog: "target" },
  { label: "Edit iPerf Server", dialog: "iperf" },
  { label: "Edit App Visibility", dialog: "app-visibility" },
  { label: "Edit Geo Visibility", dialog: "geo" },
  { label: "Edit Block Malicious Sources", dialog: "malicious" },
  { label: "Edit DDoS Mitigation", dialog: "ddos" },
  ...COMMON_MENU,
];
const readonlyMenu: readonly MenuItem[] = [activationItems[1]!, ...READABLE_MENU];
const readableDialogs = [...READABLE_DIALOGS, activationDialogs.report];

function menuItems(r: Cpe, canWrite: boolean): readonly MenuItem[] {
  if (!canWrite) return r.prod_code === SERVICE_PRODUCT ? READABLE_MENU : readonlyMenu;
  if (r.prod_code !== SERVICE_PRODUCT) return productMenu;
  const active = r.admin_state === "active";
  return [
    { label: "Edit Site", dialog: "site" },
    { label: "Activate Service", intent: "service", fields: { cpe_id: r.cpe_id, service: "activate" }, disabled: active },
    // Stopping cuts the site off the Internet: a confirmation first, as Reset Device (issue 63 item 15).
    { label: "Stop Service", dialog: "stop-service", disabled: !active },
    ...COMMON_MENU,
  ];
}

const isPerfConfirm = (d: unknown): d is { perfConfirm: PerfConfirm } => Boolean(d && typeof d === "object" && "perfConfirm" in d);
const perfConfirmOf = (d: unknown) => (isPerfConfirm(d) ? d.perfConfirm : null);

export default function Routers({ loaderData, actionData }: Route.ComponentProps) {
  const { table, entities, entity, deviceDialog, activation, products, regions, speedRun, selected, monitoring } = loaderData;
  const { dialog, result, error } = useScreen(actionData, readableDialogs);
  const cpe = asCpe(deviceDialog.device);
  return (
    <DeviceScreen
      kind="cpe"
      screen={screen}
      page={table}
      error={error}
      menu={menuItems}
      details={selected ? <CpeTabs cpe={selected} monitoring={monitoring} /> : null}
      {...{ entities, entity, dialog, deviceDialog, activation, actionData }}
      lastResult={result}
    >
      {dialog === "create" ? <CreateDeviceDialog products={products ?? []} entityNames={entities} lastResult={result} /> : null}
      {dialog === "info" ? <EditInfoDialog device={cpe} lastResult={result} /> : null}
      {dialog === "site" ? <EditSiteDialog device={cpe} lastResult={result} /> : null}
      {dialog === "stop-service" ? <StopServiceDialog device={cpe} /> : null}
      {dialog === "network" ? <NetworkInfoDialog device={cpe} lastResult={result} /> : null}
      {dialog === "perf" ? <PerfTestDialog cpe={cpe} regions={regions ?? []} confirm={perfConfirmOf(actionData)} lastResult={result} /> : null}
      {dialog === "scan" || dialog === "target" ? <OneValueDialog name={dialog} cpe={cpe} lastResult={result} /> : null}
      {dialog === "speed-test" ? <SpeedTestDialog cpe={cpe} run={speedRun} lastResult={result} /> : null}
    </DeviceScreen>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
