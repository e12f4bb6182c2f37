import { slaPdf } from "./downloads.server.ts";
import type { Route } from "./+types/report-pdf";

/* GET /sla/report.pdf?node_id=…|entity_id=…&month=YYYY-MM: the one-page SLA report (A4 PDF). */
export const loader = ({ request }: Route.LoaderArgs) => slaPdf(request);
