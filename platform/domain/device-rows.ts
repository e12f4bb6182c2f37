import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../db/client.ts";
import { textColumn } from "../lib/list.ts";
import { testStatuses } from "../contract/devices.ts";
import { accounts, entities } from "../db/schema.ts";

/*
 * The columns both device rows show the same way (spec 3 §3): their entity and account names, and
 * the conversion of stored values to the contract's (ISO times, numbers).
 */

/** The entity's name of a device row (`table`: cpes or metros; qualified, as the select names no table). */
export const entityNameOf = (table: "cpes" | "metros") =>
  sql<string | null>`(select e.entity_name from ${entities} e where e.entity_id = ${sql.identifier(table)}.entity_id)`;
export const accountNameOf = (table: "cpes" | "metros") =>
  sql<string>`(select coalesce(nullif(a.name, ''), a.account_domain) from ${accounts} a where a.account_id = ${sql.identifier(table)}.account_id)`;

/** `entityCol` is the id of the account's entity named `name` (get_cpe / get_metro `entity_name`). */
export const entityNamed = (entityCol: SQL | AnyPgColumn, accountId: string, name: string) =>
  sql`${entityCol} = (select e.entity_id from entities e where e.account_id = ${accountId} and e.entity_name = ${name})`;

/** What both device lists (alias `alias`: c or m) share: sorting by entity name, filtering by `entity_name`. */
export const deviceListEntity = (alias: "c" | "m") => ({
  entityNameColumn: textColumn(sql`coalesce((select e.entity_name from entities e where e.entity_id = ${sql.raw(alias)}.entity_id), '')`),
  // `entity_name=` (empty, as a cleared filter sends it) filters nothing, as absent does (issue 63 item 26).
  filter: (_db: DbOrTx, accountId: string, q: { entity_name?: string }) => (q.entity_name ? { where: [entityNamed(sql.raw(`${alias}.entity_id`), accountId, q.entity_name)] } : {}),
});

export interface StoredDevice {
  accountId: string;
  prodCode: string;
  entityId: string | null;
  description: string;
  siteAddress: string;
  shippingAddress: string;
  trackingNumber: string;
  latitude: number | null;
  longitude: number | null;
  region: string;
  adminState: string;
  adminStateChangeAt: Date;
  opState: string | null;
  opStateChangeAt: Date | null;
  state: string;
  testStatus: string;
  providerServiceId: string;
  clientCircuitId: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  netflowEnabled: boolean;
  monitorInboundPubIpEnabled: boolean;
  monitorOutboundPubIpEnabled: boolean;
  maliciousIpBlockEnabled: boolean;
  denialOfServiceEnabled: boolean;
  createdAt: Date;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** The fields of spec 3 §3 both kinds have, as the contract answers them. */
export function commonFields(r: StoredDevice, names: { entity_name: string | null; account_name: string | null }) {
  return {
    account_id: r.accountId,
    account_name: names.account_name ?? "",
    entity_id: r.entityId,
    entity_name: names.entity_name,
    prod_code: r.prodCode,
    description: r.description,
    site_address: r.siteAddress,
    shipping_address: r.shippingAddress,
    tracking_number: r.trackingNumber,
    latitude: r.latitude === null ? null : Number(r.latitude),
    longitude: r.longitude === null ? null : Number(r.longitude),
    region: r.region,
    admin_state: r.adminState === "active" ? ("active" as const) : ("inactive" as const),
    admin_state_change_at: iso(r.adminStateChangeAt),
    op_state: r.opState === "up" ? ("up" as const) : r.opState === "down" ? ("down" as const) : null,
    op_state_change_at: r.opStateChangeAt ? iso(r.opStateChangeAt) : null,
    state: r.state,
    test_status: testStatuses.find((x) => x === r.testStatus) ?? "none",
    provider_service_id: r.providerServiceId,
    client_circuit_id: r.clientCircuitId,
    contact_name: r.contactName,
    contact_email: r.contactEmail,
    contact_phone: r.contactPhone,
    netflow_enabled: r.netflowEnabled,
    monitor_inbound_pub_ip_enabled: r.monitorInboundPubIpEnabled,
    monitor_outbound_pub_ip_enabled: r.monitorOutboundPubIpEnabled,
    malicious_ip_block_enabled: r.maliciousIpBlockEnabled,
    denial_of_service_enabled: r.denialOfServiceEnabled,
    created_at: iso(r.createdAt),
  };
}
