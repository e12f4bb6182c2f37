import { pcapEndpoint, type PcapSession, type PcapSessionSort } from "../contract/pcap.ts";

/*
 * Search, sort and page the sessions of one analysis (analyze-s3-pcap's q/sort/page/size).
 * The analysis is stored as one JSON document per capture (pcap_analyses.result), not as rows,
 * so the platform pages it here, after reading that document, instead of in SQL.
 */

export interface SessionQuery {
  q?: string;
  /** Mirrored traffic: only the sessions seen through a mirror session of this VNI. */
  vni?: number;
  sort?: { id: PcapSessionSort; desc: boolean } | null;
  /** 1-based; clamped to the last page. */
  page?: number;
  /** Without a size, every matching session. */
  size?: number;
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

function sortValue(s: PcapSession, column: PcapSessionSort): string | number | null {
  if (column === "src") return pcapEndpoint(s.src_addr, s.src_port);
  if (column === "dst") return pcapEndpoint(s.dst_addr, s.dst_port);
  return s[column];
}

function searchText(s: PcapSession): string {
  return [s.app_name, s.server_name, pcapEndpoint(s.src_addr, s.src_port), pcapEndpoint(s.dst_addr, s.dst_port), s.proto, s.performance, s.start_time, s.mirror_session]
    .filter(Boolean)
    .join("\u0000")
    .toLowerCase();
}

/** Blanks last, numbers as numbers, text naturally and case-insensitively. */
function compare(a: string | number | null, b: string | number | null): number {
  const aBlank = a === null || a === "";
  const bBlank = b === null || b === "";
  if (aBlank || bBlank) return aBlank === bBlank ? 0 : aBlank ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return collator.compare(String(a), String(b));
}

export function querySessions(sessions: readonly PcapSession[], query: SessionQuery): { items: PcapSession[]; total: number; page: number } {
  let rows = [...sessions];
  const vni = query.vni;
  if (vni !== undefined) rows = rows.filter((s) => s.vni === vni);
  const words = (query.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  // Every word must appear in the row ("tcp https" finds TCP sessions to https).
  if (words.length) rows = rows.filter((s) => words.every((w) => searchText(s).includes(w)));
  const sort = query.sort;
  if (sort) {
    // Stable: equal values keep the capture's order.
    rows = rows
      .map((s, i) => ({ s, i }))
      .sort((a, b) => {
        const c = compare(sortValue(a.s, sort.id), sortValue(b.s, sort.id));
        // Blanks stay last in both directions.
        const blank = sortValue(a.s, sort.id) === null || sortValue(b.s, sort.id) === null;
        return (c === 0 ? 0 : sort.desc && !blank ? -c : c) || a.i - b.i;
      })
      .map(({ s }) => s);
  }
  const total = rows.length;
  if (!query.size) return { items: rows, total, page: 1 };
  const pages = Math.max(1, Math.ceil(total / query.size));
  const page = Math.min(Math.max(1, query.page ?? 1), pages);
  return { items: rows.slice((page - 1) * query.size, page * query.size), total, page };
}
