import { beforeEach, describe, expect, it, vi } from "vitest";

// Issue 27 item 1: the return from Stripe Checkout (a GET) completes nothing; completing is a POST
// of the page's form (sent by itself with JavaScript, a button press without).

const calls = vi.hoisted(() => ({ posts: [] as { path: string; body: unknown }[], answer: { ok: true, status: 200, data: { detail: "Billing successfully added!" } } as unknown }));

vi.mock("../../lib/api.server.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../lib/api.server.ts")>()),
  apiPost: async (_request: Request, path: string, body: unknown) => {
    calls.posts.push({ path, body });
    return calls.answer;
  },
  apiGetOrThrow: async () => [],
}));
vi.mock("../../lib/session.server.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../lib/session.server.ts")>()),
  requireAccountOwner: async () => ({ username: "owner@example.com", session_type: "account", access_token: "t" }),
}));
vi.mock("../../lib/roles.server.ts", () => ({ requireWriter: async () => "owner" }));
vi.mock("../../lib/csrf.server.ts", () => ({ readForm: (request: Request) => request.formData() }));
vi.mock("../../lib/toast.server.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../lib/toast.server.ts")>()),
  redirectWithToast: async (_request: Request, to: string, toast: unknown) =>
    new Response(null, { status: 303, headers: { location: to, "x-toast": JSON.stringify(toast) } }),
}));

const { loader, action } = await import("./route.tsx");

// why: the loader's and action's args types want React Router's full context; they read only the request.
type Args = Parameters<typeof loader>[0];
const get = async (url: string) => {
  try {
    return await loader({ request: new Request(`http://console.test${url}`), params: {}, context: {} } as unknown as Args);
  } catch (thrown) {
    return thrown;
  }
};
const post = async (fields: Record<string, string>) => {
  const request = new Request("http://console.test/billing?checkout_session_id=cs_test_abc", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  try {
    return await action({ request, params: {}, context: {} } as unknown as Parameters<typeof action>[0]);
  } catch (thrown) {
    return thrown;
  }
};

beforeEach(() => {
  calls.posts.length = 0;
  calls.answer = { ok: true, status: 200, data: { detail: "Billing successfully added!" } };
});

describe("/billing: back from Stripe Checkout", () => {
  it("the GET back from Checkout writes nothing: it offers the completion as a form", async () => {
    const page = (await get("/billing?checkout_session_id=cs_test_abc")) as { checkout?: unknown };
    expect(calls.posts).toEqual([]);
    expect(page.checkout).toEqual({ session_id: "cs_test_abc" });
    // Reloads and prefetches change nothing either.
    await get("/billing?checkout_session_id=cs_test_abc");
    expect(calls.posts).toEqual([]);
  });

  it("the form's POST completes the checkout and goes back to /billing with the toast", async () => {
    const r = (await post({ intent: "complete-checkout", checkout_session_id: "cs_test_abc" })) as Response;
    expect(calls.posts).toEqual([{ path: "complete-billing-stripe-checkout", body: { checkout_session_id: "cs_test_abc" } }]);
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/billing");
    expect(r.headers.get("x-toast")).toContain("Billing successfully added!");
  });

  it("a refused completion is its message, back on /billing", async () => {
    calls.answer = { ok: false, status: 409, detail: "This checkout was already completed." };
    const r = (await post({ intent: "complete-checkout", checkout_session_id: "cs_test_abc" })) as Response;
    expect(r.status).toBe(303);
    expect(r.headers.get("location")).toBe("/billing");
    expect(calls.posts.map((c) => c.path)).toEqual(["complete-billing-stripe-checkout"]);
    // The message travels as a toast (its cookie, or the stub's header when the module graph is this file's).
    expect(`${r.headers.get("x-toast") ?? ""}${r.headers.get("set-cookie") ?? ""}`).not.toBe("");
  });
});
