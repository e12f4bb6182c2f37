import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { cpeSortable, deviceMessages, scanInterval } from "../contract/devices.ts";
import {
  ConfigurePerfTestBody,
  Cpe,
  CpeCreated,
  CpeDetail,
  CpePage,
  CpeProduct,
  CreateCpeBody,
  PeerRegion,
  SetCpeScanIntervalBody,
  SpeedTestAnswer,
  SpeedTestStarted,
  StartCpeSpeedTestBody,
  UpdateCpeInfoBody,
  UpdateCpeIpMonitorTargetBody,
  UpdateCpeNetworkBody,
} from "../contract/devices.shapes.ts";
import {
  configurePerfTest,
  cpeDetail,
  cpeList,
  cpeProductList,
  createCpe,
  removeCpe,
  setMonitorTarget,
  setScanInterval,
  setService,
  speedTestResult,
  startSpeedTest,
  updateCpeInfo,
  updateNetworkInfo,
} from "../domain/cpe.ts";
import { fleetOf } from "../fleet/runtime.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { defineCall } from "../lib/openapi.ts";
import { deviceKindCalls } from "./device-kind.ts";
import { cpeId, testType } from "../contract/devices-fields.shapes.ts";

/*
 * Internet NIDs (spec 3 §2.10, §5, §7.1): the spec's calls with their paths and fields, and the
 * ones it leaves out defined in the same style (create_cpe, get_cpe_products, activate/stop
 * service, Appflow, iPerf server, Edit Network Info). Shared node calls, the activation test and
 * its report: routes/devices.ts.
 */

const tags = ["Internet NIDs"];
export const kind = deviceKindCalls("cpe", "cpe_id", tags[0]);
const { read, write, IdQuery: CpeIdQuery, IdBody: CpeIdBody } = kind;

export const listRoute = kind.list("/get_cpe", "The caller's Internet NIDs", "CPE", cpeSortable, Cpe, CpePage);
export const detailRoute = read("/get_cpe_detail", "One Internet NID with every setting, its ports, DDoS thresholds and announcements", CpeIdQuery, CpeDetail);
export const productsRoute = defineCall({ method: "get", path: "/get_cpe_products", tags, summary: "The Internet NID products (Create Device)", response: z.array(CpeProduct) });
export const peerRegionsRoute = defineCall({ method: "get", path: "/get_peer_regions", tags, summary: "The peer regions of the daily performance test", response: z.array(PeerRegion) });

export const createRoute = defineCall({
  method: "post",
  path: "/create_cpe",
  tags,
  summary: "Create an Internet NID (Create Device)",
  description: "BN-CPE-IP starts inactive (Activate Service); the others active. Answers 'CPE router created.' and cpe_id; an unknown entity_name: 404.",
  only: "writer",
  body: CreateCpeBody,
  response: CpeCreated,
  errors: [404],
});

export const infoRoute = write("/update_cpe_info", "Edit CPE Info (and Edit Site of BN-CPE-IP)", "Name and Site Address are required (spec 3 §5). Answers 'Updated CPE info successfully.'.", UpdateCpeInfoBody);

export const networkRoute = write(
  "/update_cpe_network_info",
  "Edit Network Info",
  "Mode ROUTER or BRIDGE; WAN by DHCP or static (address with prefix and gateway); DNS servers comma-separated; the LAN address in ROUTER mode. Answers 'Updated network info successfully.'.",
  UpdateCpeNetworkBody,
);

export const activateRoute = write("/activate_cpe_service", "Activate Service (BN-CPE-IP)", "Allowed when the admin state is not active (409 otherwise); other products: 400. Answers 'Service activated.'.", CpeIdBody, [400, 404, 409]);
export const stopRoute = write("/stop_cpe_service", "Stop Service (BN-CPE-IP)", "Allowed when the admin state is active (409 otherwise); other products: 400. Answers 'Service stopped.'.", CpeIdBody, [400, 404, 409]);

export const toggleRoutes = kind.toggles([
  ["/toggle_cpe_geo_visibility", "Edit Geo Visibility: the inbound and outbound flags together", "geo_visibility"],
  ["/toggle_cpe_malicious_ip_block", "Edit Block Malicious Sources", "malicious_ip_block_enabled"],
  ["/toggle_cpe_app_visibility", "Edit App Visibility", "app_visibility_enabled"],
  ["/toggle_cpe_denial_of_service", "Edit DDoS Mitigation (the switch)", "denial_of_service_enabled"],
  ["/toggle_cpe_appflow", "Edit Appflow (netflow export)", "netflow_enabled"],
  ["/toggle_cpe_iperf_server", "Edit iPerf Server (the device answers iPerf3 on port 5201)", "iperf_server"],
] as const);

export const scanRoute = write(
  "/set_cpe_scan_interval",
  "Edit Down Notification Interval (minutes)",
  `1–60 minutes; default ${scanInterval.default}. Answers 'Down notification interval updated.'.`,
  SetCpeScanIntervalBody,
);
export const targetRoute = write("/update_cpe_ip_monitor_target", "Edit IP Monitor Target", "An IP address. Answers 'IP monitor target updated.'.", UpdateCpeIpMonitorTargetBody);

export const perfRoute = write(
  "/configure_perf_test_schedule",
  "Edit Daily Performance Test: start (enable) or stop",
  "Start needs a peer region of get_peer_regions and an hour 0–23 UTC ('Select the Peer region and hour of day.'); Start only when not scheduled, Stop only when scheduled (409).",
  ConfigurePerfTestBody,
  [400, 404, 409],
);

export const speedStartRoute = defineCall({
  method: "post",
  path: "/start_cpe_speedtest_cli",
  tags,
  summary: "Run Speed Test",
  description: "test_type 'ookla' (the Speedtest CLI) or an iPerf3 server's host. The test takes 8–14 s; read the result with get_cpe_speedtest_cli_test_result. A stopped BN-CPE-IP service: 409.",
  only: "writer",
  body: StartCpeSpeedTestBody,
  response: SpeedTestStarted,
  errors: [404, 409],
});
export const speedResultRoute = defineCall({
  method: "get",
  path: "/get_cpe_speedtest_cli_test_result",
  tags,
  summary: "The speed test's result",
  description: "404 while no test of this type was started or it is still running (poll). Then download/upload Mbps, latency, jitter, the result URL, and the tool's raw JSON (Ookla CLI or iperf3).",
  query: z.object({ cpe_id: cpeId(), test_type: testType() }),
  response: SpeedTestAnswer,
  errors: [404],
});

export function registerCpeCalls(app: PlatformApp) {
  app.openapi(listRoute, async (c) => cpeList.answer(c, caller(c).accountId, c.req.valid("query")));
  app.openapi(detailRoute, answerQuery(detailRoute, (deps, who, q, remember) => cpeDetail(deps, who.accountId, q.cpe_id, remember)));
  app.openapi(productsRoute, (c) => c.json(cpeProductList(), 200));
  app.openapi(peerRegionsRoute, (c) => c.json(fleetOf(c.get("deps")).peerRegions(), 200));
  app.openapi(createRoute, answerChange(createRoute, (deps, who, b) => createCpe(deps, who.accountId, b), (cpe_id) => ({ cpe_id, detail: deviceMessages.cpeCreated })));
  app.openapi(infoRoute, answerDetail(infoRoute, (deps, who, b) => updateCpeInfo(deps, who.accountId, b), deviceMessages.cpeUpdated));
  app.openapi(networkRoute, answerDetail(networkRoute, (deps, who, b) => updateNetworkInfo(deps.db, who.accountId, b), deviceMessages.networkUpdated));
  app.openapi(activateRoute, answerDetail(activateRoute, (deps, who, b) => setService(deps.db, who.accountId, b.cpe_id, true), deviceMessages.serviceActivated));
  app.openapi(stopRoute, answerDetail(stopRoute, (deps, who, b) => setService(deps.db, who.accountId, b.cpe_id, false), deviceMessages.serviceStopped));
  kind.register.assign(app);
  kind.register.toggles(app, toggleRoutes);
  kind.register.thresholds(app);
  app.openapi(scanRoute, answerDetail(scanRoute, (deps, who, b) => setScanInterval(deps.db, who.accountId, b.cpe_id, b.scan_interval), deviceMessages.scanInterval));
  app.openapi(targetRoute, answerDetail(targetRoute, (deps, who, b) => setMonitorTarget(deps.db, who.accountId, b.cpe_id, b.ip_monitor_target), deviceMessages.monitorTarget));
  app.openapi(perfRoute, answerChange(perfRoute, (deps, who, b) => configurePerfTest(deps, who.accountId, { ...b, hour_of_day: b.hour_of_day }), (detail) => ({ detail })));
  kind.register.shipping(app);
  kind.register.announcement(app);
  app.openapi(kind.remove, answerDetail(kind.remove, (deps, who, b) => removeCpe(deps.db, who.accountId, b.cpe_id), deviceMessages.cpeRemoved));
  kind.register.lan(app);
  app.openapi(speedStartRoute, answerChange(speedStartRoute, (deps, who, b) => startSpeedTest(deps, who.accountId, b.cpe_id, b.test_type), (r) => r));
  app.openapi(speedResultRoute, answerQuery(speedResultRoute, (deps, who, q) => speedTestResult(deps, who.accountId, q.cpe_id, q.test_type)));
}
