import type { TestAccount, TestPlatform } from "../../platform/test/harness.ts";

/*
 * For unit tests of the console's server code against the real platform (platform/test/harness.ts,
 * PGlite): the console's in-process platform is the harness's, each call noted by its name, and a
 * signed session cookie of a new account owner. The files of a vitest worker share one module
 * graph (vitest.config.ts, isolate: false), so the platform and its call log are installed once and
 * shared; a test counts the calls it made as a difference (`callsOf` before and after).
 */

export interface ConsoleOnPlatform {
  p: TestPlatform;
  account: TestAccount;
  /** `__session=…` of the account, for a Request's Cookie header. */
  cookie: string;
  /** How many calls of `name` (the last path segment: get-node-metrics) the console made so far. */
  callsOf: (name: string) => number;
  /** A GET of the console at `path`, signed in as the account. */
  view: (path: string) => Request;
  /** The same GET as the view that follows a change or Refresh: it carries the redirect's flash cookie. */
  afterChange: (path: string) => Promise<Request>;
}

const installed = Symbol.for("linkwise.test.console-platform");
type Shared = { p: TestPlatform; calls: string[] };

async function shared(): Promise<Shared> {
  const g = globalThis as Record<symbol, unknown>;
  const made = (g[installed] as Promise<Shared> | undefined) ?? (async () => {
    process.env.SESSION_SECRET ??= "unit-test-secret";
    delete process.env.API_URL;
    const { testPlatform } = await import("../../platform/test/harness.ts");
    return { p: await testPlatform(), calls: [] };
  })();
  g[installed] = made;
  const { p, calls } = await made;
  // Installed again on every use: another file of the worker may have put its own in place since.
  g[Symbol.for("linkwise.platform")] = Promise.resolve({
    fetch: (r: Request) => {
      calls.push(new URL(r.url).pathname.split("/").pop()!);
      return p.app.fetch(r);
    },
  });
  return { p, calls };
}

/** The harness's platform as the console's, and a new signed-in account owner on it. */
export async function consoleOnPlatform(): Promise<ConsoleOnPlatform> {
  const { p, calls } = await shared();
  const account = await p.newAccount();
  const { sessionStorage } = await import("../lib/session.server.ts");
  const session = await sessionStorage.getSession();
  session.set("username", account.username);
  session.set("access_token", account.token);
  session.set("session_type", "account");
  const cookie = (await sessionStorage.commitSession(session)).split(";")[0]!;
  const view = (path: string) => new Request(`http://console.test${path}`, { headers: { cookie } });
  return {
    p,
    account,
    cookie,
    callsOf: (name) => calls.filter((c) => c === name).length,
    view,
    afterChange: async (path) => {
      const { flashToasts } = await import("../lib/toast.server.ts");
      const flash = (await flashToasts(view(path), [{ type: "success", message: "Refreshed." }])).split(";")[0]!;
      return new Request(`http://console.test${path}`, { headers: { cookie: `${cookie}; ${flash}` } });
    },
  };
}
