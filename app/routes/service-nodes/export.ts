import { csvExport } from "../../lib/export.server.ts";
import { csvColumns } from "./columns.ts";
import type { Route } from "./+types/export";

/* GET /service-nodes/export.csv?q=&sort=: the service nodes the table's search selects, as CSV (streamed). */
export const loader = ({ request }: Route.LoaderArgs) =>
  csvExport(request, { path: "export-service-nodes", columns: csvColumns, fileName: "service-nodes.csv" });
