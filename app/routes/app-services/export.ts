import { csvExport } from "../../lib/export.server.ts";
import { csvColumns } from "./columns.tsx";
import type { Route } from "./+types/export";

/* GET /app-services/export.csv?q=&sort=: every app service the search selects, as CSV (streamed). */
export const loader = ({ request }: Route.LoaderArgs) => csvExport(request, { path: "export-app-services", columns: csvColumns, fileName: "app-services.csv" });
