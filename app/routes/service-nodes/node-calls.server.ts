import { apiGet, apiList, apiPost, type ApiResult } from "../../lib/api.server.ts";
import { fetchTablePage, type TablePage, type TableState } from "../../lib/table.server.ts";
import type { CallBody, CallRow, ListCallName } from "../../../platform/contract/calls.ts";
import type { NodeKind } from "./node-kind.ts";

/*
 * Each node kind's platform calls (spec 2 §2, §4), typed per kind by the contract (platform/
 * contract/calls.ts): the two kinds name their fields differently (ep_node_id, service_node_id…),
 * so each call is written once per kind here, and the shared loader and intents take the kind's
 * table. A generic screen reads its rows and detail through NodeCalls (checked where a route binds
 * its kind: the kind's own row and detail types).
 */

/** What the shared loader reads with the kind's own row and detail types. */
export interface NodeCalls<Row, Detail> {
  list: (request: Request, state: TableState, options: { getRowId: (row: Row) => string; fields?: readonly (keyof Row & string)[] }) => Promise<TablePage<Row>>;
  detail: (request: Request, id: string) => Promise<ApiResult<Detail>>;
}

/** What the table asks of a list: its rows' ids, the fields it reads. */
type ListOptions<N extends ListCallName> = { getRowId: (row: CallRow<N>) => string; fields?: readonly (keyof CallRow<N> & string)[] };

/** Step 1's node: its name, and an existing group or a new one. */
export interface NewNode {
  name: string;
  group: { id: string } | { newName: string };
}

/** A form factor as both kinds' calls take it (the node's id is node_id in both). */
type FormFactorBody = CallBody<"set-endpoint-node-form-factor"> & CallBody<"set-service-node-form-factor">;

/** The created node's id, or the failed call. */
const createdId = <T>(res: ApiResult<T>, id: (answer: T) => string): ApiResult<{ id: string }> => (res.ok ? { ...res, data: { id: id(res.data) } } : res);

export const nodeCalls = {
  endpoint: {
    list: (request: Request, state: TableState, options: ListOptions<"list-endpoint-node">) => fetchTablePage(request, "list-endpoint-node", state, options),
    detail: (request: Request, id: string) => apiGet(request, "get-endpoint-node-detail", { ep_node_id: id }),
    groups: async (request: Request) => {
      const res = await apiList(request, "list-endpoint-node-group");
      return res.ok ? res.data.map((g) => ({ id: g.ep_node_group_id, name: g.ep_node_group_name })) : [];
    },
    create: async (request: Request, n: NewNode) =>
      createdId(
        await apiPost(
          request,
          "create-endpoint-node",
          "newName" in n.group ? { ep_node_name: n.name, ep_node_group_name: n.group.newName, new_ep_node_group: true } : { ep_node_name: n.name, ep_node_group_id: n.group.id, new_ep_node_group: false },
        ),
        (a) => a.ep_node_id,
      ),
    setFormFactor: (request: Request, body: FormFactorBody) => apiPost(request, "set-endpoint-node-form-factor", body),
    prepareOva: (request: Request, id: string) => apiGet(request, "prepare-epn-ova", { ep_node_id: id }),
    remove: (request: Request, v: { node_id: string; group_id?: string }) => apiPost(request, "remove-endpoint-node", { ep_node_id: v.node_id, ep_node_group_id: v.group_id ?? "" }),
  },
  service: {
    list: (request: Request, state: TableState, options: ListOptions<"list_service_node">) => fetchTablePage(request, "list_service_node", state, options),
    detail: (request: Request, id: string) => apiGet(request, "get_service_node_detail", { service_node_id: id }),
    groups: async (request: Request) => {
      const res = await apiList(request, "list_service_node_group");
      return res.ok ? res.data.map((g) => ({ id: g.service_node_group_id, name: g.service_node_group_name })) : [];
    },
    create: async (request: Request, n: NewNode) =>
      createdId(
        await apiPost(
          request,
          "create-service-node",
          "newName" in n.group
            ? { service_node_name: n.name, service_node_group_name: n.group.newName, new_service_node_group: true }
            : { service_node_name: n.name, service_node_group_id: n.group.id, new_service_node_group: false },
        ),
        (a) => a.service_node_id,
      ),
    setFormFactor: (request: Request, body: FormFactorBody) => apiPost(request, "set-service-node-form-factor", body),
    prepareOva: (request: Request, id: string) => apiGet(request, "prepare-sn-ova", { service_node_id: id }),
    remove: (request: Request, v: { node_id: string }) => apiPost(request, "remove_service_node", { service_node_id: v.node_id }),
  },
} satisfies Record<NodeKind, unknown>;
