/*
 * Spec 1 §8: "A failed fetch shows 'An error occurred while fetching data.'" (issue 63 item 32).
 * With JavaScript the router reads a page's data and sends its forms as requests of their own
 * (`/contacts.data`: navigations, Refresh, every submit, revalidations). A request that fails on
 * the network (the server unreachable, the connection gone, a gateway answering 502–504 in its
 * place) used to reach the router as a loader's error: a navigation showed a whole-page
 * 'Something went wrong', a failed Refresh replaced the page too (or showed nothing).
 *
 * Such a request is held instead: the router goes on waiting (the page it shows stays, its data
 * too), the shell shows the spec's message with a Retry button (DataRequestNotice), and Retry
 * sends the held requests again, as they were, the router then finishing what it was doing. A
 * request the router gives up (another navigation aborts it) is dropped with its abort. Only the
 * router's data requests are held: the page's own fetches (the speed test's poll, uploads) keep
 * their own error handling.
 *
 * The router calls the global `fetch` for them (react-router's single fetch); `installDataRetry`
 * wraps it once, in the browser (root.tsx).
 */

interface Held {
  send: () => void;
}

const held = new Set<Held>();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/** A request of the router's single fetch: `/path.data`, `/_root.data`. */
export function isDataRequest(url: URL): boolean {
  return url.pathname.endsWith(".data");
}

/** An answer that is not the console's: a gateway in front of it that could not reach it. */
export function isGatewayFailure(res: Response): boolean {
  return (res.status === 502 || res.status === 503 || res.status === 504) && !res.headers.has("X-Remix-Response");
}

/** Whether a data request failed and waits for Retry (DataRequestNotice subscribes). */
export function subscribeFailedRequests(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const hasFailedRequests = () => held.size > 0;

/** Retry: every held request is sent again (one that fails again is held again). */
export function retryFailedRequests(): void {
  const all = [...held];
  held.clear();
  notify();
  for (const h of all) h.send();
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** Wraps `fetch` so that a data request failing on the network waits for Retry (`base`: what a relative URL is relative to). */
export function wrapFetch(original: typeof fetch, base: () => string = () => window.location.href): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), base());
    // A Request object carries a body that can be read once: the router passes a URL and an init.
    if (!isDataRequest(url) || input instanceof Request) return original(input, init);
    const signal = init?.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      let waiting: Held | null = null;
      const onAbort = () => {
        if (waiting && held.delete(waiting)) notify();
        reject(abortError(signal!));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const hold = () => {
        waiting = { send };
        held.add(waiting);
        notify();
      };
      function send() {
        waiting = null;
        if (signal?.aborted) return;
        original(input, init).then(
          (res) => {
            if (isGatewayFailure(res)) return hold();
            signal?.removeEventListener("abort", onAbort);
            resolve(res);
          },
          (error: unknown) => {
            // The router's own abort (a newer navigation) is not a failure.
            if (signal?.aborted) return;
            // why: fetch rejects with a TypeError when the request never got an answer; anything else is the caller's.
            if (error instanceof TypeError) return hold();
            signal?.removeEventListener("abort", onAbort);
            reject(error);
          },
        );
      }
      send();
    });
  };
}

let installed = false;

/** Installs the wrapper once (the browser only). */
export function installDataRetry(): void {
  if (installed || typeof window === "undefined") return;
  installed = true;
  window.fetch = wrapFetch(window.fetch.bind(window));
}
