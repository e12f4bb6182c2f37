import { callPlatformRaw, sessionEnded, unavailableResponse } from "../../lib/api.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import type { Route } from "./+types/files";

/*
 * GET /{endpoint,service}-nodes/files/{ova|vpn}/{file name}: a node's prepared OVA
 * (download-node-ova, the node_url of prepare-*-ova) or its WireGuard configuration
 * (download-hsn-vpn-config, spec 2 §7), fetched with the session's token and passed through as an
 * attachment as it streams. A plain link: works without JavaScript. The platform serves a file to
 * its owner only (another account's file: 404), and to writers only (readonly users: 403).
 */

const calls = { ova: "download-node-ova", vpn: "download-hsn-vpn-config" } as const;
const types = { ova: "application/ovf", vpn: "text/plain; charset=utf-8" } as const;

function text(status: number, body: string) {
  return new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireSession(request);
  const kind = params.kind as keyof typeof calls;
  const file = params.file ?? "";
  if (!(kind in calls) || !/^[\w.-]{1,200}$/.test(file)) return text(404, "No such file.");
  let upstream: Response;
  try {
    upstream = await callPlatformRaw(user.access_token, "GET", `${calls[kind]}/${encodeURIComponent(file)}`, { signal: request.signal });
  } catch {
    return unavailableResponse();
  }
  if (upstream.status === 401) {
    await upstream.body?.cancel();
    return sessionEnded(request, new URL(request.url).pathname.replace(/\/files\/.*$/, ""));
  }
  if (upstream.status === 403) {
    await upstream.body?.cancel();
    // Both files hold a secret (a registration token, a private key): writers only.
    return text(403, "Readonly users cannot download this file: it holds a secret of the node.");
  }
  if (!upstream.ok || !upstream.body) {
    await upstream.body?.cancel();
    return text(upstream.status === 404 ? 404 : 502, upstream.status === 404 ? "No such file." : "The download failed. Please try again.");
  }
  const headers = new Headers({
    "Content-Type": upstream.headers.get("content-type") ?? types[kind],
    "Content-Disposition": upstream.headers.get("content-disposition") ?? `attachment; filename="${file}"`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  const length = upstream.headers.get("content-length");
  if (length) headers.set("Content-Length", length);
  return new Response(upstream.body, { status: 200, headers });
}
