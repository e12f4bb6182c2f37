import { callApi } from "../lib/api.server.ts";

/** Liveness of the console and its platform, for load balancers. */
export async function loader() {
  try {
    const result = await callApi(null, "GET", "health");
    return Response.json({ console: "ok", platform: result.ok ? "ok" : "error" }, { status: result.ok ? 200 : 503 });
  } catch {
    return Response.json({ console: "ok", platform: "unavailable" }, { status: 503 });
  }
}
