import { reportPdf } from "./downloads.server.ts";
import type { Route } from "./+types/report-pdf";

/* GET /reports/:reportId/report.pdf: a report made, as it was e-mailed. */
export const loader = ({ request, params }: Route.LoaderArgs) => reportPdf(request, params.reportId);
