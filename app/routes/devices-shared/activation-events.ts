import { callPlatformRaw, unavailableResponse } from "../../lib/api.server.ts";
import { getUser } from "../../lib/session.server.ts";
import { kindOf, idField, SSE_PARAM } from "./activation.ts";
import type { Route } from "./+types/activation-events";
import { observe } from "../../../server/observe.mjs";
import { SESSION_ENDED } from "../../lib/messages.ts";

/*
 * GET /devices/:kind/:id/activation-events?sse_id=…: the activation test's server-sent events,
 * followed from the platform's check-test-status/<kind> with the session's token and passed on as
 * they come (one event per step; the platform closes the stream after the final one). A
 * Last-Event-ID header resumes after that event (the client's reconnect, app/lib/live/
 * event-stream.ts). Never buffered or compressed (server/http.mjs leaves text/event-stream alone).
 */

const text = (status: number, body: string) => new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

export async function loader({ request, params }: Route.LoaderArgs) {
  const kind = kindOf(params.kind);
  if (!kind) return text(404, "Not found");
  // A stream is not a page: an ended session is a 401 the client stops on, not a redirect to /login.
  const user = await getUser(request);
  if (!user) return text(401, SESSION_ENDED);
  const sseId = new URL(request.url).searchParams.get(SSE_PARAM) ?? "";
  const lastEventId = request.headers.get("last-event-id");
  let upstream: Response;
  try {
    upstream = await callPlatformRaw(user.access_token, "GET", `check-test-status/${kind}`, {
      query: { [idField(kind)]: params.id, sse_id: sseId },
      headers: { accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
      signal: request.signal,
    });
  } catch (error) {
    observe().logger.warn({ err: error, call: `check-test-status/${kind}` }, "platform unreachable");
    return unavailableResponse();
  }
  if (!upstream.ok || !upstream.body) {
    const body = await upstream.text().catch(() => "");
    return text(upstream.status === 422 ? 404 : upstream.status, body || "The test cannot be followed.");
  }
  return new Response(upstream.body, {
    status: 200,
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" },
  });
}
