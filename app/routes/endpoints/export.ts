import { csvExport } from "../../lib/export.server.ts";
import { csvColumns } from "./columns.ts";
import type { Route } from "./+types/export";

/* GET /endpoints/export.csv?q=&sort=: every endpoint the table's search selects, as CSV (streamed). */
export const loader = ({ request }: Route.LoaderArgs) => csvExport(request, { path: "export-endpoints", columns: csvColumns, fileName: "endpoints.csv" });
