import { csvExport } from "../../lib/export.server.ts";
import { csvColumns } from "./columns.ts";
import type { Route } from "./+types/export";

/* GET /iam/export.csv?q=&sort=: every IAM user the table's search selects, as CSV (streamed). */
export const loader = ({ request }: Route.LoaderArgs) =>
  csvExport(request, { path: "export-iam-users", columns: csvColumns, fileName: "iam-users.csv" });
