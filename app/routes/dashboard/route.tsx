import { Link } from "react-router";
import { ChartGrid, ChartPanel } from "../../components/chart/chart-grid.tsx";
import { DATA_PARAM } from "../../components/chart/data-link.tsx";
import { currentRange } from "../../components/chart/range-toggle.tsx";
import { PageTitle } from "../../components/forms.tsx";
import { RefreshButton } from "../../components/table-toolbar.tsx";
import { intentAction, refreshIntent } from "../../lib/action.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { dashboardRanges, type AccountSummary } from "../../../platform/contract/dashboard.ts";
import { accountSummary, charts as trafficCharts } from "../../lib/dashboard-traffic.server.ts";
import type { Route } from "./+types/route";

/*
 * /dashboard, the Private Access dashboard (spec 2 §2 '/main-dashboard' content, per DESIGN.md
 * 'Decisions'): five count cards, four traffic line charts (the chart kit), the time range, Refresh.
 * The loader prepares the charts (only the drawn series reach the page) and renders the one
 * 'Show data' table the URL asks for (`?data=<chart id>`): every object's figures, on demand.
 */

const TITLE = "Private Access Dashboard";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireSession(request);
  const params = new URL(request.url).searchParams;
  const range = currentRange(params, dashboardRanges);
  const [summary, traffic] = await Promise.all([accountSummary(request), trafficCharts(request, user.access_token, range, params.get(DATA_PARAM))]);
  return { range, summary, ...traffic };
}

// Refresh reads again (its redirect's view reads afresh: lib/dashboard-traffic.server.ts) and says so (every role may).
export const action = intentAction({ refresh: refreshIntent("Refreshed Dashboard.") }, { readable: ["refresh"] });

const cards: { key: keyof AccountSummary; label: string; to: string }[] = [
  { key: "app_services", label: "App Services", to: "/app-services" },
  { key: "endpoints", label: "Endpoints", to: "/endpoints" },
  { key: "service_nodes", label: "Service Nodes", to: "/service-nodes" },
  { key: "endpoint_nodes", label: "Endpoint Nodes", to: "/endpoint-nodes" },
  { key: "user_agents", label: "User Agents", to: "/user-agents" },
];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { range, summary, charts, error } = loaderData;
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageTitle title={TITLE} />
      <h1 id="page-title" className="text-2xl font-semibold">
        {TITLE}
      </h1>
      <h2 className="sr-only">Counts</h2>
      {summary.ok ? (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Counts">
          {cards.map((c) => (
            <li key={c.key}>
              <Link to={c.to} className="card bg-base-100 block h-full p-4 shadow-sm hover:bg-base-200" data-testid={`count-${c.key}`}>
                <span className="block text-sm">{c.label}</span>
                <span className="block text-3xl font-semibold tabular-nums">{summary.data[c.key]}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-error">{summary.error}</p>
      )}
      <ChartPanel title="Traffic" level={2} ranges={dashboardRanges} range={range} actions={<RefreshButton />}>
        <ChartGrid charts={charts} error={error} card />
      </ChartPanel>
    </section>
  );
}
