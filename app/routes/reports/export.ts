import { csvExport } from "../../lib/export.server.ts";
import { csvColumns } from "./columns.ts";
import type { Route } from "./+types/export";

/* GET /reports/export.csv?q=&sort=: every report schedule the table's search selects, as CSV (streamed). */
export const loader = ({ request }: Route.LoaderArgs) =>
  csvExport(request, { path: "export_report_schedules", columns: csvColumns, fileName: "report-schedules.csv" });
