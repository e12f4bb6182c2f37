import { inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../db/client.ts";
import { serviceNodeGroups } from "../db/schema.ts";
import { notFound } from "../lib/errors.ts";
import { columns, defineList, numberColumn, type ListQuery, listTable } from "../lib/list.ts";
import type { EndpointNodeGroup, EndpointNodeGroupSortColumn, ServiceNodeGroupRow, ServiceNodeGroupSortColumn } from "../contract/nodes.ts";
import { listEndpointNodeGroups } from "./endpoints.ts";
import { certificateWarningsFreshUntil, serviceNodeGroupNotFound, serviceNodeGroupRows } from "./nodes-service.ts";

/*
 * The node group lists (list-endpoint-node-group, list_service_node_group / list-service-node-group):
 * the spec's plain array without list parameters (as the create dialogs read them), one page
 * searched, sorted and paged in SQL with any.
 */

/** The account's endpoint node groups (listEndpointNodeGroups' rows), only `ids` when given. */
async function endpointGroupsWhere(db: DbOrTx, accountId: string, ids?: string[]): Promise<EndpointNodeGroup[]> {
  const rows = await listEndpointNodeGroups(db, accountId);
  return ids ? rows.filter((g) => ids.includes(g.ep_node_group_id)) : rows;
}

/** Both group lists: the table (alias g), searched over name and id (the code's own column names: raw SQL is safe). */
const groupList = (table: string, name: string, id: string) => ({
  ...listTable(table, "g", id),
  search: [sql.raw(`lower(g.${name})`), sql.raw(`lower(g.${id})`)],
});
/** Both group lists sort by name, id and creation time. */
const groupSortable = <const N extends string, const I extends string>(name: N, id: I) => ({ ...columns("text", "g", [name, id]), ...columns("time", "g", ["created_at"]) });

/** Endpoint node groups: search over name and id; sorted by name without `sort`. */
export const endpointNodeGroupList = defineList<EndpointNodeGroup, EndpointNodeGroupSortColumn>({
  ...groupList("endpoint_node_groups", "ep_node_group_name", "ep_node_group_id"),
  sortable: {
    ...groupSortable("ep_node_group_name", "ep_node_group_id"),
    dhcp_relay_enabled: numberColumn(sql`(g.dhcp_relay_enabled)::int`),
    vrrp_enabled: numberColumn(sql`(g.vrrp_enabled)::int`),
  },
  defaultSort: "ep_node_group_name",
  rows: (db, accountId, ids) => endpointGroupsWhere(db, accountId, ids),
  idOf: (g) => g.ep_node_group_id,
  notFound: () => notFound("Endpoint Node Group not found"),
  all: (db, accountId) => endpointGroupsWhere(db, accountId),
});

/** Service node groups: search over name and id; oldest first without `sort`. */
export const serviceNodeGroupList = defineList<ServiceNodeGroupRow, ServiceNodeGroupSortColumn>({
  ...groupList("service_node_groups", "service_node_group_name", "service_node_group_id"),
  sortable: {
    ...groupSortable("service_node_group_name", "service_node_group_id"),
    external_certificate: numberColumn(sql`(g.external_certificate)::int`),
  },
  defaultSort: "created_at",
  rows: (db, accountId, ids) => serviceNodeGroupRows(db, accountId, inArray(serviceNodeGroups.serviceNodeGroupId, ids)),
  idOf: (g) => g.service_node_group_id,
  notFound: serviceNodeGroupNotFound,
  all: (db, accountId) => serviceNodeGroupRows(db, accountId),
  // The certificate's 30-day warning depends on the time: remembered until the first one turns on.
  freshUntil: (rows, now) => certificateWarningsFreshUntil(rows.map((r) => r.certificate), now),
});

export type GroupListQuery = ListQuery;
