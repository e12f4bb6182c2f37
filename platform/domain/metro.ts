import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../db/client.ts";
import { metros } from "../db/schema.ts";
import { ccmIntervals, DEFAULT_MGMT_VLAN, deviceMessages, metroProducts, SFP_PRODUCT, sfpTypes, type MetroSortColumn } from "../contract/devices.ts";
import type { DevicePort, Metro, MetroDetail, MetroProduct } from "../contract/devices.shapes.ts";
import type { PlatformDeps } from "../lib/context.ts";
import { badRequest, notFound } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { columns, defineList, listTable, textColumn, type ListQuery } from "../lib/list.ts";
import { accountNameOf, commonFields, deviceListEntity, entityNamed, entityNameOf } from "./device-rows.ts";
import { deviceLanPorts, deviceNow, entityIdOf, removeDeviceRows, requireDevice, siteFacts, storedDevice, updateDevice, type StoredDevice } from "./devices.ts";
import { computeNow, type Remember } from "../lib/auth.ts";

/*
 * Metro Ethernet NIDs (spec 3 §2.11, §3 Metro, §5, §7.2, §9): the list, the detail (General and
 * Interfaces), create and edit with their VLANs, CIR/EIR and SFPs, and OAM (IEEE 802.1ag /
 * ITU-T Y.1731 continuity check and loopback).
 */

type Deps = Pick<PlatformDeps, "db" | "fleet" | "config">;

export const metroProductList = (): MetroProduct[] => metroProducts.map((p) => ({ ...p, sfp_types: p.prod_code === SFP_PRODUCT ? [...sfpTypes] : [] }));
export const ccmIntervalList = (): string[] => [...ccmIntervals];

const select = { row: metros, entity_name: entityNameOf("metros"), account_name: accountNameOf("metros") };
type SelectedRow = { row: typeof metros.$inferSelect; entity_name: string | null; account_name: string | null };

function toMetro({ row: r, entity_name, account_name }: SelectedRow): Metro {
  return {
    metro_id: r.metroId,
    metro_name: r.metroName,
    ...commonFields(r, { entity_name, account_name }),
    wan_cir_mbps: r.wanCirMbps === null ? null : Number(r.wanCirMbps),
    wan_eir_mbps: r.wanEirMbps === null ? null : Number(r.wanEirMbps),
    wan_data_vlan_id: r.wanDataVlanId,
    wan_q_in_q_vlan_id: r.wanQInQVlanId,
    lan_data_vlan_id: r.lanDataVlanId,
    lan_q_in_q_vlan_id: r.lanQInQVlanId,
    wan_mgmt_vlan_id: r.wanMgmtVlanId,
    wan_sfp: r.wanSfp,
    lan_sfp: r.lanSfp,
    oam_loopback_enabled: r.oamLoopbackEnabled,
    oam_ccp_enabled: r.oamCcpEnabled,
    oam_ccm_interval: ccmIntervals.find((x) => x === r.oamCcmInterval) ?? null,
    oam_md_name: r.oamMdName,
    oam_md_level: r.oamMdLevel,
    oam_md_association: r.oamMdAssociation,
    oam_mep_id: r.oamMepId,
    oam_vlan_id: r.oamVlanId,
  };
}

async function metroRows(db: DbOrTx, accountId: string, ids?: string[], entityName?: string): Promise<Metro[]> {
  const where = [eq(metros.accountId, accountId)];
  if (ids) where.push(inArray(metros.metroId, ids));
  if (entityName) where.push(entityNamed(metros.entityId, accountId, entityName));
  const rows = await db.select(select).from(metros).where(and(...where)).orderBy(sql`lower(${metros.metroName})`, metros.metroId);
  return rows.map(toMetro);
}

export interface MetroListQuery extends ListQuery {
  entity_name?: string;
}

/** get_metro: the account's Metro Ethernet NIDs, by name; `entity_name` filters. */
export const metroList = defineList<Metro, MetroSortColumn, MetroListQuery>({
  ...listTable("metros", "m", "metro_id"),
  search: [sql`m.search_text`],
  sortable: {
    ...columns("text", "m", ["metro_name", "metro_id", "prod_code", "admin_state", "provider_service_id", "client_circuit_id"]),
    ...columns("time", "m", ["created_at"]),
    op_state: textColumn(sql`coalesce(case when m.state = 'registered' then m.op_state end, '')`),
    entity_id: textColumn(sql`coalesce(m.entity_id, '')`),
    entity_name: deviceListEntity("m").entityNameColumn,
  },
  defaultSort: "metro_name",
  filter: deviceListEntity("m").filter,
  rows: (db, accountId, ids) => metroRows(db, accountId, ids),
  idOf: (r) => r.metro_id,
  notFound: () => notFound(deviceMessages.deviceNotFound("Metro")),
  all: (db, accountId, q) => metroRows(db, accountId, undefined, q.entity_name),
});

/** The metro's WAN (UNI towards the provider) and LAN (customer) ports with their VLANs and SFPs. */
function metroPorts(deps: Deps, m: Metro, stored: StoredDevice, now: number): DevicePort[] {
  const { down, site } = deviceNow(deps, stored, now);
  const fibre = m.prod_code === SFP_PRODUCT;
  const speed = m.prod_code === "BN-METRO-100" ? "100Mb/s" : "1000Mb/s";
  // Its one LAN port, as get_metro_lan_interfaces and reset_interface know it.
  const lan = deviceLanPorts(deps, stored.d, stored.events, now)[0]!.port;
  return [
    {
      name: "wan0",
      intf: fibre ? "sfp0" : "ge0",
      role: "wan",
      cidr_addr: `${site.wan}/30`,
      sfp_type: fibre ? m.wan_sfp : null,
      operational_state: down ? "DOWN" : "UP",
      speed: down ? "Unknown!" : speed,
      vlan_ids: { mgmt: m.wan_mgmt_vlan_id, data: m.wan_data_vlan_id, q_in_q: m.wan_q_in_q_vlan_id },
    },
    {
      name: lan.name,
      intf: lan.intf,
      role: "lan",
      cidr_addr: "",
      sfp_type: fibre ? m.lan_sfp : null,
      operational_state: lan.operational_state,
      speed: lan.speed,
      vlan_ids: { mgmt: null, data: m.lan_data_vlan_id, q_in_q: m.lan_q_in_q_vlan_id },
    },
  ];
}

/** get_metro_detail: the row with its ports, thresholds, announcements and token time (rows through `remember`, ports the fleet's now). */
export async function metroDetail(deps: Deps, accountId: string, metroId: string, remember: Remember = computeNow, now = Date.now()): Promise<MetroDetail> {
  const { m, stored } = await remember(async () => ({ m: await metroList.one(deps.db, accountId, metroId), stored: await storedDevice(deps.db, accountId, "metro", metroId) }));
  return {
    ...m,
    ports: metroPorts(deps, m, stored, now),
    ddos_thresholds: stored.d.ddos,
    announcements: stored.announcements,
    token_issued_at: stored.tokenIssuedAt,
  };
}

export interface MetroFields {
  metro_name: string;
  prod_code: string;
  shipping_address?: string;
  site_address?: string;
  provider_service_id?: string;
  client_circuit_id?: string;
  contact_name?: string;
  contact_email?: string;
  contact_phone?: string;
  wan_data_vlan_id?: number | null;
  wan_q_in_q_vlan_id?: number | null;
  lan_data_vlan_id?: number | null;
  lan_q_in_q_vlan_id?: number | null;
  wan_mgmt_vlan_id?: number | null;
  wan_cir_mbps?: number | null;
  wan_eir_mbps?: number | null;
  wan_sfp?: string | null;
  lan_sfp?: string | null;
  entity_name?: string;
  latitude?: number | null;
  longitude?: number | null;
  description?: string;
}

const productOf = (code: string) => metroProducts.find((p) => p.prod_code === code);

/** The stored columns of the create/update fields (undefined: unchanged). */
function columnsOf(b: MetroFields) {
  const fibre = b.prod_code === SFP_PRODUCT;
  return {
    metro_name: b.metro_name,
    prod_code: b.prod_code,
    shipping_address: b.shipping_address,
    site_address: b.site_address,
    provider_service_id: b.provider_service_id,
    client_circuit_id: b.client_circuit_id,
    contact_name: b.contact_name,
    contact_email: b.contact_email,
    contact_phone: b.contact_phone,
    wan_data_vlan_id: b.wan_data_vlan_id,
    wan_q_in_q_vlan_id: b.wan_q_in_q_vlan_id,
    lan_data_vlan_id: b.lan_data_vlan_id,
    lan_q_in_q_vlan_id: b.lan_q_in_q_vlan_id,
    wan_mgmt_vlan_id: b.wan_mgmt_vlan_id ?? undefined,
    wan_cir_mbps: b.wan_cir_mbps,
    wan_eir_mbps: b.wan_eir_mbps,
    wan_sfp: fibre ? (b.wan_sfp ?? "sfp_smf") : null,
    lan_sfp: fibre ? (b.lan_sfp ?? "sfp_mmf") : null,
    latitude: b.latitude,
    longitude: b.longitude,
    description: b.description,
  };
}

/** create_metro: the CIR defaults to the product's speed, the management VLAN to 100. */
export async function createMetro(deps: Deps, accountId: string, b: MetroFields): Promise<string> {
  const product = productOf(b.prod_code);
  if (!product) throw badRequest(`Unknown product ${b.prod_code}`);
  const entityId = await entityIdOf(deps.db, accountId, b.entity_name);
  const metroId = newId("metro");
  const site = siteFacts(deps.config.fleetSeed, metroId, "metro", b.latitude, b.longitude);
  const cols = columnsOf({ ...b, wan_cir_mbps: b.wan_cir_mbps ?? product.cir_mbps, wan_eir_mbps: b.wan_eir_mbps ?? product.eir_mbps, wan_mgmt_vlan_id: b.wan_mgmt_vlan_id ?? DEFAULT_MGMT_VLAN });
  await deps.db.insert(metros).values({
    metroId,
    accountId,
    metroName: b.metro_name,
    prodCode: product.prod_code,
    entityId,
    description: b.description ?? "",
    siteAddress: b.site_address ?? "",
    shippingAddress: b.shipping_address ?? "",
    latitude: b.latitude ?? null,
    longitude: b.longitude ?? null,
    region: site.region,
    providerServiceId: b.provider_service_id ?? "",
    clientCircuitId: b.client_circuit_id ?? "",
    contactName: b.contact_name ?? "",
    contactEmail: b.contact_email ?? "",
    contactPhone: b.contact_phone ?? "",
    wanDataVlanId: cols.wan_data_vlan_id ?? null,
    wanQInQVlanId: cols.wan_q_in_q_vlan_id ?? null,
    lanDataVlanId: cols.lan_data_vlan_id ?? null,
    lanQInQVlanId: cols.lan_q_in_q_vlan_id ?? null,
    wanMgmtVlanId: cols.wan_mgmt_vlan_id ?? DEFAULT_MGMT_VLAN,
    wanCirMbps: cols.wan_cir_mbps ?? null,
    wanEirMbps: cols.wan_eir_mbps ?? null,
    wanSfp: cols.wan_sfp,
    lanSfp: cols.lan_sfp,
  });
  return metroId;
}

/** update_metro_info: the create fields and the description. */
export async function updateMetroInfo(deps: Deps, accountId: string, b: MetroFields & { metro_id: string }): Promise<void> {
  const d = await requireDevice(deps.db, accountId, "metro", b.metro_id);
  if (!productOf(b.prod_code)) throw badRequest(`Unknown product ${b.prod_code}`);
  const { entity_name: _ignored, ...fields } = b;
  const lat = b.latitude === undefined ? d.lat : b.latitude;
  const lon = b.longitude === undefined ? d.lon : b.longitude;
  const entityId = b.entity_name ? await entityIdOf(deps.db, accountId, b.entity_name) : undefined;
  await updateDevice(deps.db, accountId, "metro", b.metro_id, {
    ...columnsOf(fields),
    entity_id: entityId,
    region: siteFacts(deps.config.fleetSeed, d.id, "metro", lat, lon).region,
  });
}

export interface OamInput {
  metro_id: string;
  loopback_enabled: boolean;
  ccp_enabled: boolean;
  ccm_interval?: string;
  md_name?: string;
  md_level?: number;
  md_association?: string;
  mep_id?: number;
  vlan_id?: number;
}

/** edit_oam: the continuity check's fields are stored only when it is on (spec 3 §5); off clears them. */
export const editOam = (db: Db, accountId: string, b: OamInput) =>
  updateDevice(db, accountId, "metro", b.metro_id, {
    oam_loopback_enabled: b.loopback_enabled,
    oam_ccp_enabled: b.ccp_enabled,
    oam_ccm_interval: b.ccp_enabled ? b.ccm_interval : null,
    oam_md_name: b.ccp_enabled ? b.md_name : null,
    oam_md_level: b.ccp_enabled ? b.md_level : null,
    oam_md_association: b.ccp_enabled ? b.md_association : null,
    oam_mep_id: b.ccp_enabled ? b.mep_id : null,
    oam_vlan_id: b.ccp_enabled ? b.vlan_id : null,
  });

export const removeMetro = (db: Db, accountId: string, metroId: string) => db.transaction((tx) => removeDeviceRows(tx, accountId, "metro", metroId));
