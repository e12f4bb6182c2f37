import { proxyPostMortem } from "./post-mortem-proxy.server.ts";
import type { Route } from "./+types/post-mortem-stream";

/* GET /main-dashboard/post-mortem/:outageId/stream?device=…: the analysis as server-sent events (the dialog's). */
export const loader = ({ request, params }: Route.LoaderArgs) => proxyPostMortem(request, params.outageId, "stream");
