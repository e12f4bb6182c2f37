import { callPlatformRaw, sessionEnded, unavailableResponse } from "../../lib/api.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { DEVICE_PARAM } from "./model.ts";
import { ANALYSIS_FAILED } from "../../lib/messages.ts";

/*
 * The post-mortem's stream and PDF, passed through from the platform with the session's token as
 * they come (nothing buffered here): the browser never holds the token. The device is `?device=`,
 * the outage the path's id; a refusal keeps the platform's status with its message as text.
 */

const kinds = {
  stream: {
    call: "dashboard_stream_post_mortem",
    accept: "text/event-stream",
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
    },
  },
  pdf: {
    call: "dashboard_get_post_mortem_pdf",
    accept: "application/pdf",
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": 'attachment; filename="analysis.pdf"',
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  },
} as const;

const text = (status: number, body: string) =>
  new Response(body, {
    status,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "private, no-store",
    },
  });

export async function proxyPostMortem(request: Request, outageId: string | undefined, kind: keyof typeof kinds): Promise<Response> {
  const user = await requireSession(request);
  const url = new URL(request.url);
  const device = url.searchParams.get(DEVICE_PARAM);
  if (!device || !outageId) return text(400, "The analysis needs a device and an outage.");
  const k = kinds[kind];
  const lastEventId = request.headers.get("last-event-id");
  let upstream: Response;
  try {
    upstream = await callPlatformRaw(user.access_token, "GET", k.call, {
      query: { node_id: device, outage_id: outageId },
      headers: {
        accept: k.accept,
        ...(lastEventId ? { "last-event-id": lastEventId } : {}),
      },
      signal: request.signal,
    });
  } catch {
    return unavailableResponse();
  }
  if (upstream.status === 401) {
    await upstream.body?.cancel();
    return sessionEnded(request, `/main-dashboard?tab=health&${DEVICE_PARAM}=${encodeURIComponent(device)}`);
  }
  if (!upstream.ok || !upstream.body) {
    const body = (await upstream.json().catch(() => null)) as {
      detail?: unknown;
    } | null;
    return text(upstream.status, typeof body?.detail === "string" ? body.detail : ANALYSIS_FAILED);
  }
  const headers = new Headers(k.headers);
  const length = upstream.headers.get("content-length");
  if (length && kind === "pdf") headers.set("Content-Length", length);
  return new Response(upstream.body, { status: 200, headers });
}
