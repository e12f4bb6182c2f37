import { reportCsv } from "./downloads.server.ts";
import type { Route } from "./+types/report-csv";

/* GET /reports/:reportId/report.csv: the tables of a report made, as CSV. */
export const loader = ({ request, params }: Route.LoaderArgs) => reportCsv(request, params.reportId);
