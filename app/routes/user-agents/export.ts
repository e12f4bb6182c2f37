import { csvExport } from "../../lib/export.server.ts";
import { csvColumns } from "./columns.ts";
import type { Route } from "./+types/export";

/* GET /user-agents/export.csv?q=&sort=: every user agent the table's search selects, as CSV (streamed). */
export const loader = ({ request }: Route.LoaderArgs) =>
  csvExport(request, { path: "export-user-agents", columns: csvColumns, fileName: "user-agents.csv" });
