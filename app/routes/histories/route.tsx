import { data, Form, useLocation } from "react-router";
import { DataTable } from "../../components/data-table.tsx";
import { Screen } from "../../components/screen.tsx";
import { exportHref } from "../../lib/export.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { fetchTablePage, parseTableQuery } from "../../lib/table.server.ts";
import { hrefWithout, keptParams } from "../../lib/url.ts";
import { apiLogCountCap } from "../../../platform/contract/support.ts";
import { columns, hideable, sortable } from "./columns.ts";
import { platformFilters, readFilters } from "./filters.ts";
import type { Route } from "./+types/route";

/*
 * /histories, View Changes (spec 3 §2.13, §3 Api log): the account's change log, newest first,
 * paged on the platform (get_api_log). Beyond the spec, as audit users ask: filters by username,
 * command and time range (UTC) and a free-text search, all in the URL, and a CSV export of what
 * they select (streamed from export_api_log).
 */

/** The filter inputs (GET parameters of the same names). */
const FILTER_FIELDS: readonly { name: "username" | "command" | "from" | "to"; label: string; type: "text" | "datetime-local"; placeholder?: string }[] = [
  { name: "username", label: "Username", type: "text" },
  { name: "command", label: "Command", type: "text", placeholder: "e.g. /create_ticket" },
  { name: "from", label: "From (UTC)", type: "datetime-local" },
  { name: "to", label: "To (UTC)", type: "datetime-local" },
];
const FILTER_NAMES = FILTER_FIELDS.map((f) => f.name);

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const url = new URL(request.url);
  const { state, headers } = parseTableQuery(request, { sortable, hideable });
  const { filters, errors } = readFilters(url.searchParams);
  const query = platformFilters(filters, errors);
  const table = await fetchTablePage(request, "get_api_log", state, { getRowId: (e) => e.id, query });
  const filtered = Object.keys(query).length > 0 || state.q !== "";
  // Filters that match nothing say 'No data found.', not 'No data' (an empty log).
  if (filtered) table.unfiltered = Math.max(table.total, 1);
  const capped = filtered && table.total >= apiLogCountCap;
  const exportLink = exportHref("/histories/export.csv", state, query);
  return data({ table, filters, errors, capped, exportLink }, { headers });
}

export default function Histories({ loaderData }: Route.ComponentProps) {
  const { table, filters, errors, capped, exportLink } = loaderData;
  const location = useLocation();
  const active = FILTER_NAMES.some((n) => filters[n]);

  return (
    <Screen title="View Changes" error={errors.length > 0}>

      {/* The filters: a GET form, so they live in the URL (with or without JavaScript). */}
      <Form method="get" className="card bg-base-100 shadow-sm" aria-labelledby="filters-heading" preventScrollReset>
        <div className="card-body gap-2 p-4">
          <h2 id="filters-heading" className="text-lg font-semibold">
            Filters
          </h2>
          {keptParams(location.search, [...FILTER_NAMES, "page"]).map(([k, v], i) => (
            <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
          ))}
          {errors.length ? (
            <div role="alert" className="text-error text-sm">
              {errors.join(" ")}
            </div>
          ) : null}
          <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-4">
            {FILTER_FIELDS.map((f) => (
              <div key={f.name} className="fieldset">
                <label className="fieldset-legend" htmlFor={`filter-${f.name}`}>
                  {f.label}
                </label>
                <input
                  id={`filter-${f.name}`}
                  name={f.name}
                  type={f.type}
                  defaultValue={filters[f.name]}
                  className="input w-full"
                  autoComplete={f.type === "text" ? "off" : undefined}
                  placeholder={f.placeholder}
                />
              </div>
            ))}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <button type="submit" className="btn btn-primary btn-sm">
              Apply filters
            </button>
            {active ? (
              <a href={hrefWithout(location, [...FILTER_NAMES, "page"])} className="btn btn-ghost btn-sm">
                Clear filters
              </a>
            ) : null}
          </div>
        </div>
      </Form>

      {capped ? (
        <p className="text-sm" role="status">
          More than {apiLogCountCap.toLocaleString("en")} entries match: the pages show the newest {apiLogCountCap.toLocaleString("en")}. Narrow the
          filters, or export them all as CSV.
        </p>
      ) : null}

      <DataTable
        caption="Change log"
        columns={columns}
        page={table}
        getRowId={(e) => e.id}
        rowLabel={(e) => `${e.url_path} ${e.created_at}`}
        searchPlaceholder="Search the log"
        toolbar={
          <a href={exportLink} className="btn btn-outline btn-sm" download>
            Export CSV
          </a>
        }
      />
    </Screen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
