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

export async function platformFetch(request: Request): Promise<Response> {
  if (apiUrl) return fetch(request);
  if (inProcess()) {
    const { getPlatform } = await import("../../platform/index.ts");
    return (await getPlatform()).fetch(request);
  }
  const { getPlatformThread } = await import("../../platform/thread/host.ts");
  return getPlatformThread().fetch(request);
}

/** Starts the embedded platform with the server (migrate, seed, print the demo credentials) rather than on the first request. */
export async function startEmbeddedPlatform(): Promise<void> {
  if (apiUrl) return;
  if (inProcess()) {
    const { getPlatform } = await import("../../platform/index.ts");
    await getPlatform();
    return;
  }
  const { getPlatformThread } = await import("../../platform/thread/host.ts");
  await getPlatformThread().ready;
}
