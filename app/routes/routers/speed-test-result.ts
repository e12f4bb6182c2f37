import { apiGet, detailText } from "../../lib/api.server.ts";
import { requireSession } from "../../lib/session.server.ts";

/*
 * GET /routers/speed-test-result?id=<cpe id>&type=<test type>: the poller's read (app/lib/live/
 * speed-test.ts) of get_cpe_speedtest_cli_test_result. The platform's 404 (not ready yet, spec 3
 * §8) is a 202 here; the result is the platform's answer as it is; any other failure its message.
 */
export async function loader({ request }: { request: Request }) {
  await requireSession(request);
  const params = new URL(request.url).searchParams;
  const res = await apiGet(request, "get_cpe_speedtest_cli_test_result", { cpe_id: params.get("id") ?? "", test_type: params.get("type") || "ookla" });
  const headers = { "cache-control": "no-store" };
  if (res.ok) return Response.json(res.data, { headers });
  if (res.status === 404) return Response.json({ state: "pending" }, { status: 202, headers });
  return Response.json({ message: detailText(res.detail) || `The result could not be read (${res.status}).` }, { status: res.status, headers });
}
