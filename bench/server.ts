import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createCookieSessionStorage } from "react-router";
import { SERVER_NODE_FLAGS } from "../server/node-flags.mjs";
import type { BenchContext } from "./pages.ts";

/* The production server the benches measure (bench/run.ts, bench/phone.ts) and a signed-in browser's cookies for it. */

export interface BenchServerOptions {
  port: number;
  dataDir: string;
  /** SESSION_SECRET: the bench signs its own session cookies with it. */
  secret: string;
  /** The demo account's password (and the password signIn uses). */
  password: string;
  /** More arguments for node before server.mjs (flags, --cpu-prof). */
  nodeArgs?: string[];
  /** Where the server's standard output goes (the access log): a file, else nowhere. */
  stdout?: string;
  /** The build's server entry (default ./build/server/index.js; its client files beside it): an earlier build kept for a side-by-side run. */
  build?: string;
  /** The tree the server runs in (its server.mjs, build and node_modules; default this one): another checkout for a side-by-side run. */
  cwd?: string;
  /** More environment for the server (a variant's switches: CALLER_CACHE=off, PLATFORM_THREAD=0). */
  env?: Record<string, string>;
}

/** server.mjs on the production build (built already: scripts/ensure-build.mjs), with the demo data on a PGlite database in `dataDir`. */
export function startServer(o: BenchServerOptions): ChildProcess {
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, ...(o.nodeArgs ?? []), "server.mjs", o.build ?? "./build/server/index.js"], {
    cwd: o.cwd,
    env: { ...process.env, ...o.env, NODE_ENV: "production", PORT: String(o.port), DATA_DIR: o.dataDir, SESSION_SECRET: o.secret, COOKIE_SECURE: "false", DEMO_PASSWORD: o.password },
    // The access log (one line a request) to a file or /dev/null, not through a pipe to this
    // process: stdout to a pipe is written synchronously (Linux), and while this process was busy
    // the server waited on the full pipe, charging the harness to the heavier pages.
    stdio: ["ignore", o.stdout ? fs.openSync(o.stdout, "w") : "ignore", "inherit"],
  });
}

/**
 * A signed-in browser's cookies: a platform token (POST /api/v1/token, the API the sign-in form
 * calls) in a console session cookie signed with the server's secret, and the CSRF cookie its
 * first page set (later pages reuse the token).
 */
export async function signIn(base: string, secret: string, username: string, password: string): Promise<{ access_token: string; cookie: string }> {
  const storage = createCookieSessionStorage({ cookie: { name: "__session", secrets: [secret], httpOnly: true, sameSite: "lax", path: "/" } });
  const tokenRes = await fetch(`${base}/api/v1/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password }) });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  if (!access_token) throw new Error(`sign-in of ${username} failed`);
  const session = await storage.getSession();
  session.set("username", username);
  session.set("access_token", access_token);
  session.set("session_type", "account");
  const sessionCookie = (await storage.commitSession(session)).split(";")[0]!;
  const first = await fetch(`${base}/no-such-page`, { headers: { cookie: sessionCookie } });
  const csrfCookie = first.headers.getSetCookie().find((c) => c.startsWith("csrf="))?.split(";")[0];
  if (!csrfCookie) throw new Error("no CSRF cookie on the first page");
  return { access_token, cookie: `${sessionCookie}; ${csrfCookie}` };
}

/** The platform's API as the account holding `accessToken` (BenchContext.api). */
export function apiAs(base: string, accessToken: string): BenchContext["api"] {
  return async <T,>(call: string, body?: unknown) => {
    const r = await fetch(`${base}/api/v1/${call}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`${call}: ${r.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  };
}
