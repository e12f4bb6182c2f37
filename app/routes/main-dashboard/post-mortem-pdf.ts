import { proxyPostMortem } from "./post-mortem-proxy.server.ts";
import type { Route } from "./+types/post-mortem-pdf";

/* GET /main-dashboard/post-mortem/:outageId/analysis.pdf?device=…: the analysis as a multi-page A4 PDF (Download). */
export const loader = ({ request, params }: Route.LoaderArgs) => proxyPostMortem(request, params.outageId, "pdf");
