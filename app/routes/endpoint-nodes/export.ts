import { csvExport } from "../../lib/export.server.ts";
import { csvColumns } from "./columns.ts";
import type { Route } from "./+types/export";

/* GET /endpoint-nodes/export.csv?q=&sort=: the endpoint nodes the table's search selects, as CSV (streamed). */
export const loader = ({ request }: Route.LoaderArgs) =>
  csvExport(request, { path: "export-endpoint-nodes", columns: csvColumns, fileName: "endpoint-nodes.csv" });
