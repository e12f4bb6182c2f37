import { csvExport } from "../../lib/export.server.ts";
import { csvColumns } from "./columns.ts";
import type { Route } from "./+types/export";

/* GET /histories/export.csv?q=&sort=&username=&command=&from=&to=: every log entry the filters select, as CSV (streamed). */
export const loader = ({ request }: Route.LoaderArgs) =>
  csvExport(request, { path: "export_api_log", columns: csvColumns, fileName: "change-log.csv", filters: ["username", "command", "from", "to"] });
