import { slaCsv } from "./downloads.server.ts";
import type { Route } from "./+types/report-csv";

/* GET /sla/report.csv?node_id=…|entity_id=…&month=YYYY-MM: the SLA report's figures as CSV. */
export const loader = ({ request }: Route.LoaderArgs) => slaCsv(request);
