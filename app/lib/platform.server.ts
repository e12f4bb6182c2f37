import { observe } from "../../server/observe.mjs";
import { apiUrl } from "./env.server.ts";

/*
 * Where the console's platform calls go, in one place:
 * - API_URL set (scaled deployment): over HTTP to that platform;
 * - else the embedded platform on its own thread (platform/thread/host.ts), so that the database
 *   and the page rendering use both cores (docs/decisions/2026-11-22-platform-thread.md);
 * - PLATFORM_THREAD=0, or a test that installed an in-process platform: on this thread.
 */

const inProcessKey = Symbol.for("linkwise.platform");

function inProcess(): boolean {
  return process.env.PLATFORM_THREAD === "0" || (globalThis as Record<symbol, unknown>)[inProcessKey] !== undefined;
}

// Loaded once: a dynamic import() of an already loaded module still costs a module lookup.
type HostModule = typeof import("../../platform/thread/host.ts");
let hostModule: HostModule | Promise<HostModule> | null = null;
async function platformThread() {
  hostModule ??= import("../../platform/thread/host.ts").then((m) => (hostModule = m));
  const host = hostModule instanceof Promise ? await hostModule : hostModule;
  return host.getPlatformThread();
}

/** The call's name in a span: its path under /api/v1 (ids travel in the query, never in the path). */
function callName(url: string): string {
  const at = url.indexOf("/api/v1/");
  const end = url.indexOf("?", at);
  return at === -1 ? url : url.slice(at + 8, end === -1 ? undefined : end);
}

/**
 * Every call carries the request it serves (docs/operations.md): X-Request-Id, and the W3C
 * traceparent of its client span when tracing is on, over HTTP and over the platform thread alike.
 */
export async function platformFetch(request: Request): Promise<Response> {
  const obs = observe();
  return obs.clientSpan(`${request.method} ${callName(request.url)}`, () => {
    for (const [name, value] of Object.entries(obs.outgoingHeaders<Record<string, string>>({}))) request.headers.set(name, value);
    return sendToPlatform(request);
  });
}

async function sendToPlatform(request: Request): Promise<Response> {
  if (apiUrl) return fetch(request);
  if (inProcess()) {
    const { getPlatform } = await import("../../platform/index.ts");
    return (await getPlatform()).fetch(request);
  }
  return (await platformThread()).fetch(request);
}

/** Starts the embedded platform with the server (migrate, seed, print the demo credentials) rather than on the first request. */
export async function startEmbeddedPlatform(): Promise<void> {
  if (apiUrl) return;
  if (inProcess()) {
    const { getPlatform } = await import("../../platform/index.ts");
    await getPlatform();
    return;
  }
  await (await platformThread()).ready;
}

/** What a plain JSON call answers: status, headers and the body's text. */
export interface PlatformTextAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * A plain call with a text body (the console's JSON calls, api.server.ts). On the platform thread
 * it crosses as strings, without building a Request, a Response or a stream on this thread.
 */
export async function platformText(method: string, url: string, headers: Record<string, string>, body?: string): Promise<PlatformTextAnswer> {
  const obs = observe();
  return obs.clientSpan(`${method} ${callName(url)}`, async () => {
    obs.outgoingHeaders(headers);
    if (apiUrl || inProcess()) {
      const response = await sendToPlatform(new Request(url, { method, headers, body }));
      return { status: response.status, headers: response.headers, text: await response.text() };
    }
    return (await platformThread()).text(method, url, Object.entries(headers), body ?? null);
  });
}
