import { apiGetOrThrow } from "../../lib/api.server.ts";
import { fetchTablePage, listQuery, pageRows, type TablePage, type TableState } from "../../lib/table.server.ts";

/*
 * A node group list's page. The group calls (list-endpoint-node-group, list_service_node_group)
 * answer the spec's plain array; a group list is short (an account's groups), so it is searched,
 * sorted and paged here (pageRows, bounded). Once the platform pages them ({items, total}), the
 * platform's page is used as it is.
 */
export async function groupPage<T>(request: Request, path: string, state: TableState, getRowId: (row: T) => string, search: readonly (keyof T & string)[]): Promise<TablePage<T>> {
  const answer = await apiGetOrThrow<T[] | { items: T[]; total: number }>(request, path, listQuery(state));
  if (Array.isArray(answer)) return pageRows(answer, state, { getRowId, search });
  return fetchTablePage<T>(request, path, state, { getRowId });
}
