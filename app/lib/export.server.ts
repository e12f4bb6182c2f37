import { csvHeader, ndjsonToCsv, type CsvColumn } from "./csv.ts";
import { callPlatformRaw, platformUnavailable, sessionEnded } from "./pcap.server.ts";
import { requireSession } from "./session.server.ts";
import type { TableState } from "./table.server.ts";
import { observe } from "../../server/observe.mjs";

/*
 * A table's CSV export as a resource route (a plain link: works without JavaScript). The platform's
 * export call streams the rows its search and filters select as NDJSON, read from SQL in batches;
 * this passes them through ndjsonToCsv as they come: flat memory at any size. A table adds export
 * with a route file of a few lines:
 *
 *   export const loader = ({ request }) =>
 *     csvExport(request, { path: "export-contacts", columns: contactCsvColumns, fileName: "contacts.csv" });
 *
 * and a link to `exportHref("/contacts/export.csv", state)` in its toolbar.
 */

/** The export link of a table: its search and sort (and the filters given), no paging. */
export function exportHref(path: string, state: Pick<TableState, "q" | "sort">, filters: Record<string, string> = {}): string {
  const params = new URLSearchParams(filters);
  if (state.q) params.set("q", state.q);
  if (state.sort) params.set("sort", `${state.sort.desc ? "-" : ""}${state.sort.id}`);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

function text(status: number, body: string) {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

export async function csvExport<T>(
  request: Request,
  options: { path: string; columns: readonly CsvColumn<T>[]; fileName: string; filters?: readonly string[] },
): Promise<Response> {
  const user = await requireSession(request);
  const url = new URL(request.url);
  // Only the list's own parameters travel on: search, sort and the named filters.
  const query: Record<string, string> = {};
  for (const name of ["q", "sort", ...(options.filters ?? [])]) {
    const value = url.searchParams.get(name);
    if (value) query[name] = value;
  }
  let upstream: Response;
  try {
    upstream = await callPlatformRaw(user.access_token, "GET", options.path, { query, headers: { accept: "application/x-ndjson" }, signal: request.signal });
  } catch (error) {
    observe().logger.warn({ err: error, call: options.path }, "platform unreachable");
    return platformUnavailable();
  }
  if (upstream.status === 401) {
    await upstream.body?.cancel();
    return sessionEnded(request, url.pathname.replace(/\/export\.csv$/, "") || "/");
  }
  if (!upstream.ok || !upstream.body) {
    const body = await upstream.text().catch(() => "");
    let message = "The export failed. Please try again.";
    try {
      const detail = (JSON.parse(body) as { detail?: unknown }).detail;
      if (typeof detail === "string") message = detail;
      else if (Array.isArray(detail)) message = detail.map((d) => (d as { msg?: string }).msg ?? "").filter(Boolean).join(" ") || message;
    } catch {}
    if (upstream.status >= 502 && upstream.status <= 504) return platformUnavailable();
    return text(upstream.status >= 400 && upstream.status < 500 ? upstream.status : 502, message);
  }
  const asciiName = options.fileName.replace(/[^\x20-\x7E]|["\\]/g, "_");
  return new Response(upstream.body.pipeThrough(ndjsonToCsv(options.columns)), {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(options.fileName)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export { csvHeader };
