import { csvExport } from "../../lib/export.server.ts";
import { csvColumns } from "./columns.ts";
import type { Route } from "./+types/export";

/* GET /contacts/export.csv?q=&sort=[&entity_id=]: every contact the search (and entity) selects, as CSV (streamed). */
export const loader = ({ request }: Route.LoaderArgs) =>
  csvExport(request, { path: "export-contacts", columns: csvColumns, fileName: "contacts.csv", filters: ["entity_id"] });
