import { apiGet, detailText } from "../../lib/api.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { deviceMessages } from "../../../platform/contract/devices.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * Get Diagnostics' download (spec 3 §7.1 run_health_check, §8): GET …/diagnostics.json?id=<device
 * id> answers the device's diagnostics as a JSON attachment; a device that does not answer: 404
 * 'No diagnostic data available to download.'. A resource route, so it works without JavaScript.
 * Mapped under /routers and /ethernet-devices (app/routes.ts).
 */
export async function loader({ request }: { request: Request }) {
  await requireSession(request);
  const id = new URL(request.url).searchParams.get("id") ?? "";
  const res = id ? await apiGet(request, "run_health_check", { node_id: id }) : null;
  if (!res || !res.ok) {
    const message = res ? detailText(res.detail) || "Not found" : formMessages.deviceIdMissing;
    return new Response(message, { status: res?.status === 404 || !res ? 404 : 502, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  if (!res.data) return new Response(deviceMessages.noDiagnostics, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  let body = res.data;
  try {
    body = JSON.stringify(JSON.parse(res.data), null, 2);
  } catch {
    // Not JSON after all: sent as the device gave it.
  }
  const fileName = `diagnostics-${id}.json`.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(body, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
      "cache-control": "private, no-store",
    },
  });
}
