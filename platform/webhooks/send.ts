import http from "node:http";
import https from "node:https";

/** What one attempt got: the status (and Retry-After), or why there was no answer. */
export interface AttemptResult {
  status: number | null;
  retryAfter: string | null;
  latencyMs: number;
  error: string | null;
}

export const DELIVERY_TIMEOUT_MS = 15_000;

/**
 * One POST of the body, through `agent` (the SSRF filter), never following redirects (a 3xx is an
 * answer like any other: not 2xx, so a failure), bounded by `timeoutMs` from the start to the
 * response headers. The response body is not read.
 */
export function postOnce(url: URL, body: string, headers: Record<string, string>, agent: http.Agent, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<AttemptResult> {
  const started = performance.now();
  const request = url.protocol === "https:" ? https.request : http.request;
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Omit<AttemptResult, "latencyMs">) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      resolve({ ...r, latencyMs: Math.round(performance.now() - started) });
    };
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "Linkwise-Webhooks/1",
        },
      },
      (res) => {
        const retryAfter = res.headers["retry-after"];
        finish({ status: res.statusCode ?? null, retryAfter: typeof retryAfter === "string" ? retryAfter : null, error: null });
        res.destroy();
      },
    );
    const deadline = setTimeout(() => {
      finish({ status: null, retryAfter: null, error: `No answer within ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.on("error", (error) => finish({ status: null, retryAfter: null, error: error.message.slice(0, 500) }));
    req.end(body);
  });
}
