import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import { deviceMessages, metroSortable } from "../contract/devices.ts";
import { CreateMetroBody, EditOamBody, Metro, MetroCreated, MetroDetail, MetroPage, MetroProduct, UpdateMetroInfoBody } from "../contract/devices.shapes.ts";
import { ccmIntervalList, createMetro, editOam, metroDetail, metroList, metroProductList, removeMetro, updateMetroInfo } from "../domain/metro.ts";
import { answerChange, answerDetail, answerQuery, caller } from "../lib/context.ts";
import { defineCall } from "../lib/openapi.ts";
import { deviceKindCalls } from "./device-kind.ts";

/*
 * Metro Ethernet NIDs (spec 3 §2.11, §5, §7.2): the spec's calls with their paths and fields; OAM
 * validated as IEEE 802.1ag / ITU-T Y.1731 define it. The activation test, its stream and report,
 * and the shared node calls: routes/devices.ts.
 */

const tags = ["Metro Ethernet NIDs"];
export const kind = deviceKindCalls("metro", "metro_id", tags[0]);
const { write } = kind;

export const listRoute = kind.list("/get_metro", "The caller's Metro Ethernet NIDs", "metro", metroSortable, Metro, MetroPage);
export const detailRoute = kind.read("/get_metro_detail", "One Metro Ethernet NID: General (every setting) and Interfaces", kind.IdQuery, MetroDetail);
export const productsRoute = defineCall({ method: "get", path: "/metro_products", tags, summary: "The Metro Ethernet NID products", response: z.array(MetroProduct) });
export const ccmRoute = defineCall({ method: "get", path: "/metro_ccm_interval", tags, summary: "The CCM intervals of IEEE 802.1ag", response: z.array(z.string()) });

export const createRoute = defineCall({
  method: "post",
  path: "/create_metro",
  tags,
  summary: "Create a Metro Ethernet NID (Create Device)",
  description:
    "Name and product code required; VLAN ids 1–4094, CIR and EIR numeric (Mbps); management VLAN default 100; SFP types (sfp_mmf, sfp_smf) only for BN-METRO-1000F. Errors as a detail list (one item per field). Answers 'Metro device created.' and metro_id.",
  only: "writer",
  body: CreateMetroBody,
  response: MetroCreated,
  errors: [404],
});
export const updateRoute = write("/update_metro_info", "Edit NID info", "The create fields and the description; name required, numeric CIR, EIR and VLAN ids. Answers 'Updated metro info successfully.'.", UpdateMetroInfoBody);

export const oamRoute = write("/edit_oam", "Edit OAM info", "Loopback and continuity check; the CFM fields only when continuity check is on (stored then, cleared when off). Answers 'Updated OAM info successfully.'.", EditOamBody);

export const toggleRoutes = kind.toggles([
  ["/toggle_metro_netflow", "Edit Appflow (netflow export)", "netflow_enabled"],
  ["/toggle_metro_geo_visibility", "Geo visibility: the inbound and outbound flags together", "geo_visibility"],
  ["/toggle_metro_denial_of_service", "DDoS mitigation (the switch)", "denial_of_service_enabled"],
  ["/toggle_metro_malicious_ip_block", "Block malicious sources", "malicious_ip_block_enabled"],
] as const);

export function registerMetroCalls(app: PlatformApp) {
  app.openapi(listRoute, async (c) => metroList.answer(c, caller(c).accountId, c.req.valid("query")));
  app.openapi(detailRoute, answerQuery(detailRoute, (deps, who, q, remember) => metroDetail(deps, who.accountId, q.metro_id, remember)));
  app.openapi(productsRoute, (c) => c.json(metroProductList(), 200));
  app.openapi(ccmRoute, (c) => c.json(ccmIntervalList(), 200));
  app.openapi(createRoute, answerChange(createRoute, (deps, who, b) => createMetro(deps, who.accountId, b), (metro_id) => ({ metro_id, detail: deviceMessages.metroCreated })));
  app.openapi(updateRoute, answerDetail(updateRoute, (deps, who, b) => updateMetroInfo(deps, who.accountId, b), deviceMessages.metroUpdated));
  app.openapi(oamRoute, answerDetail(oamRoute, (deps, who, b) => editOam(deps.db, who.accountId, b), deviceMessages.oamUpdated));
  kind.register.toggles(app, toggleRoutes);
  kind.register.thresholds(app);
  kind.register.assign(app);
  kind.register.lan(app);
  kind.register.shipping(app);
  kind.register.announcement(app);
  app.openapi(kind.remove, answerDetail(kind.remove, (deps, who, b) => removeMetro(deps.db, who.accountId, b.metro_id), deviceMessages.metroRemoved));
}
