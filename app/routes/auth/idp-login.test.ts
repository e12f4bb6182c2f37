import { beforeEach, describe, expect, it, vi } from "vitest";

// Issue 27 item 9: /idp-login signs in only the browser that started the IdP hand-off (login CSRF:
// an attacker's link with the attacker's own token must not sign a victim into the attacker's account).

const calls = vi.hoisted(() => ({ verified: [] as string[], loggedIn: [] as string[] }));

vi.mock("../../lib/api.server.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../lib/api.server.ts")>()),
  callApi: async (_token: unknown, _method: string, _path: string, opts: { token: string }) => {
    calls.verified.push(opts.token);
    return opts.token.startsWith("good") ? { ok: true, status: 200, data: { username: "owner@example.com", session_type: "account" } } : { ok: false, status: 401, detail: "no" };
  },
}));
vi.mock("../../lib/auth.server.ts", () => ({
  finishLogin: async (_request: Request, token: { access_token: string }) => {
    calls.loggedIn.push(token.access_token);
    return new Response(null, { status: 302, headers: { location: "/main-dashboard", "set-cookie": "__session=signed-in; Path=/" } });
  },
}));
vi.mock("../../lib/env.server.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../lib/env.server.ts")>()),
  idpLoginUrl: "https://idp.example/sso/start?tenant=acme",
}));

const { loader } = await import("./idp-login.tsx");

// why: the loader's args type wants React Router's full context; the loader reads only the request.
const run = async (url: string, cookie?: string): Promise<Response | { init?: { status?: number } }> => {
  const request = new Request(`http://console.test${url}`, { headers: cookie ? { cookie } : {} });
  try {
    return (await loader({ request, params: {}, context: {} } as unknown as Parameters<typeof loader>[0])) as Response | { init?: { status?: number } };
  } catch (thrown) {
    return thrown as Response;
  }
};
const statusOf = (r: Response | { init?: { status?: number } }) => (r instanceof Response ? r.status : (r.init?.status ?? 200));
const cookieOf = (r: Response) => (r.headers.get("set-cookie") ?? "").split(/,(?=\s*[\w-]+=)/).find((c) => c.trim().startsWith("__idp_state="))!.split(";")[0]!.trim();

const link = (token: string, state?: string) =>
  `/idp-login?${new URLSearchParams({ access_token: token, token_type: "bearer", session_type: "account", username: "owner@example.com", ...(state ? { state } : {}) })}`;

beforeEach(() => {
  calls.verified.length = 0;
  calls.loggedIn.length = 0;
});

describe("/idp-login: the hand-off is bound to the browser that started it", () => {
  it("a link with a token but no hand-off started in this browser signs nobody in (the login CSRF)", async () => {
    const r = await run(link("good-attacker-token"));
    expect(statusOf(r)).toBe(401);
    expect(calls.loggedIn).toEqual([]);
    // Nor with a state the browser never got.
    expect(statusOf(await run(link("good-attacker-token", "forged-state")))).toBe(401);
    expect(calls.loggedIn).toEqual([]);
  });

  it("?start sends the browser to the IdP with a state kept in a signed cookie; coming back with it signs in, once", async () => {
    const start = (await run("/idp-login?start=1")) as Response;
    expect(start.status).toBe(302);
    const to = new URL(start.headers.get("location")!);
    expect(`${to.origin}${to.pathname}`).toBe("https://idp.example/sso/start");
    expect(to.searchParams.get("tenant")).toBe("acme");
    const state = to.searchParams.get("state")!;
    expect(state).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(to.searchParams.get("redirect_uri")).toMatch(/\/idp-login$/);
    const setCookie = start.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = cookieOf(start);
    expect(cookie).not.toContain(state); // signed and encoded, not the bare value

    // Another browser's state (the attacker's own hand-off) does not match this browser's cookie.
    const other = cookieOf((await run("/idp-login?start=1")) as Response);
    expect(statusOf(await run(link("good-attacker-token", state), other))).toBe(401);
    expect(calls.loggedIn).toEqual([]);

    const done = (await run(link("good-victim-token", state), cookie)) as Response;
    expect(done.status).toBe(302);
    expect(calls.loggedIn).toEqual(["good-victim-token"]);
    // Single use: the state cookie is cleared by the sign-in.
    expect(done.headers.get("set-cookie")).toMatch(/__idp_state=;.*Max-Age=0/i);

    // A tampered cookie is refused.
    expect(statusOf(await run(link("good-victim-token", state), `${cookie.slice(0, -3)}abc`))).toBe(401);
    // A refused token with the right state: failed, and the state is used up too.
    const refused = await run(link("bad-token", state), cookie);
    expect(statusOf(refused)).toBe(401);
  });
});
