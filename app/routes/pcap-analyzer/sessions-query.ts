import type { TableState } from "../../lib/table.server.ts";

/** The sessions table's URL state as analyze-s3-pcap's q/sort/page/size (the platform pages). */
export function sessionQuery(state: Pick<TableState, "q" | "sort" | "page" | "size">, paged = true, vni: number | null = null) {
  return {
    vni: vni ?? undefined,
    q: state.q || undefined,
    sort: state.sort ? `${state.sort.desc ? "-" : ""}${state.sort.id}` : undefined,
    page: paged ? state.page : undefined,
    size: paged ? state.size : undefined,
  };
}
