import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { ApiResult } from "./api.server.ts";

// The platform, the CSRF check and the role are stubbed: these tests are about the helper's rules.
const calls = vi.hoisted(() => ({ apiPost: [] as { path: string; body: unknown }[], answer: null as unknown, role: "owner" }));

vi.mock("./api.server.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./api.server.ts")>();
  return {
    ...actual,
    apiPost: async (_request: Request, path: string, body: unknown) => {
      calls.apiPost.push({ path, body });
      return calls.answer as ApiResult<unknown>;
    },
  };
});
vi.mock("./csrf.server.ts", () => ({ readForm: (request: Request) => request.formData() }));
vi.mock("./roles.server.ts", () => ({
  requireWriter: async () => {
    if (calls.role === "readonly") throw new Response("Forbidden: your IAM role is readonly.", { status: 403 });
    return calls.role;
  },
}));

const { detailOr, deselect, failureReply, intentAction, submitForm } = await import("./action.server.ts");

function post(fields: Record<string, string>, url = "http://console/contacts?q=x&dialog=create") {
  const body = new URLSearchParams(fields);
  return new Request(url, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
}

/** The body and status of a `data()` answer (React Router's DataWithResponseInit). */
function reply(answer: unknown) {
  const d = answer as { data: { result: { status?: string; initialValue?: Record<string, unknown>; error?: Record<string, string[] | null> } }; init: { status: number } };
  return { result: d.data.result, status: d.init.status };
}

const Schema = z.object({ email: z.email("Enter a valid e-mail address."), name: z.string().max(5, "Must be at most 5 characters.").optional() });

// The form's value is not the whole create-contact body: `body` makes it (and the test sees it).
const contactBody = (v: z.output<typeof Schema>) => ({ ...v, contact_type: "business" as const, entity_name: "Acme" });
const create = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: Schema, call: "create-contact", body: contactBody, fields: ["email", "name"], toast: "Contact successfully created." });

beforeEach(() => {
  calls.apiPost.length = 0;
  calls.answer = { ok: true, status: 200, data: {} };
  calls.role = "owner";
});

describe("intentAction", () => {
  const action = intentAction({ create, refresh: async () => "refreshed" }, { readable: ["refresh"] });

  it("answers an unknown intent (or none) with 400 and calls nothing", async () => {
    for (const intent of ["nope", "toString", ""]) {
      const thrown = await action({ request: post({ intent, email: "a@b.co" }) }).catch((e: unknown) => e);
      expect((thrown as { init: { status: number } }).init.status).toBe(400);
    }
    expect(calls.apiPost).toEqual([]);
  });

  it("refuses a readonly user with 403 unless the intent is readable", async () => {
    calls.role = "readonly";
    const thrown = await action({ request: post({ intent: "create", email: "a@b.co" }) }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(403);
    expect(calls.apiPost).toEqual([]);
    await expect(action({ request: post({ intent: "refresh" }) })).resolves.toBe("refreshed");
  });

  it("runs the guard before reading the form", async () => {
    const guarded = intentAction({ create }, { guard: async () => { throw new Response("Not Found", { status: 404 }); } });
    const thrown = await guarded({ request: post({ intent: "create", email: "a@b.co" }) }).catch((e: unknown) => e);
    expect((thrown as Response).status).toBe(404);
  });
});

describe("submitForm", () => {
  it("keeps a refused form's values and errors (400) and calls nothing", async () => {
    const request = post({ intent: "create", email: "nope", name: "toolong" });
    const r = reply(await create(request, await request.clone().formData()));
    expect(r.status).toBe(400);
    expect(r.result.error?.email).toEqual(["Enter a valid e-mail address."]);
    expect(r.result.error?.name).toEqual(["Must be at most 5 characters."]);
    expect(r.result.initialValue).toMatchObject({ email: "nope", name: "toolong" });
    expect(calls.apiPost).toEqual([]);
  });

  it("answers a Conform validate intent with the errors and changes nothing", async () => {
    const request = post({ intent: "create", email: "a@b.co", __intent__: JSON.stringify({ type: "validate", payload: { name: "email" } }) });
    const r = reply(await create(request, await request.clone().formData()));
    expect(r.status).toBe(400);
    expect(calls.apiPost).toEqual([]);
  });

  it("never sends a secret back", async () => {
    const request = post({ password: "hunter2", email: "nope" });
    const r = reply(await submitForm(request, await request.clone().formData(), { schema: Schema.extend({ password: z.string() }), call: "create-contact", body: contactBody, toast: "ok" }));
    expect(r.result.initialValue).not.toHaveProperty("password");
  });

  it("puts the platform's detail beside the field its loc names, the rest in the summary", async () => {
    calls.answer = {
      ok: false,
      status: 422,
      data: null,
      detail: [
        { loc: ["body", "email"], msg: "That e-mail address is taken." },
        { loc: ["body", "other"], msg: "Something else." },
      ],
    };
    const request = post({ intent: "create", email: "a@b.co", name: "Al" });
    const r = reply(await create(request, await request.clone().formData()));
    expect(calls.apiPost).toEqual([{ path: "create-contact", body: { email: "a@b.co", name: "Al", contact_type: "business", entity_name: "Acme" } }]);
    expect(r.status).toBe(422);
    expect(r.result.error?.email).toEqual(["That e-mail address is taken."]);
    expect(r.result.error?.[""]).toEqual(["Something else."]);
    expect(r.result.initialValue).toMatchObject({ email: "a@b.co", name: "Al" });
  });

  it("answers a platform 500 with a 400 reply (the dialog stays open)", async () => {
    calls.answer = { ok: false, status: 500, data: null, detail: "Boom." };
    const request = post({ email: "a@b.co" });
    expect(reply(await create(request, await request.clone().formData())).status).toBe(400);
  });

  it("redirects (303) to the page without its dialog, with the success toast", async () => {
    const request = post({ intent: "create", email: "a@b.co" });
    const res = (await create(request, await request.clone().formData())) as Response;
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/contacts?q=x");
    expect(res.headers.get("Set-Cookie")).toMatch(/^__toast=/);
  });

  it("takes the toast from the answer and the redirect from a function; a call function (several calls) fails like one call", async () => {
    const request = post({ email: "a@b.co" }, "http://console/iam?selected=u1&selected=u2&dialog=remove&id=u1");
    const seen: string[] = [];
    const res = (await submitForm(request, await request.clone().formData(), {
      schema: Schema,
      call: async (v) => {
        seen.push(v.email);
        return { ok: true, status: 200, data: { detail: "Done by the platform." } };
      },
      toast: detailOr("Fallback."),
      redirect: () => deselect(request, "u1"),
    })) as Response;
    expect(seen).toEqual(["a@b.co"]);
    expect(res.headers.get("Location")).toBe("/iam?selected=u2");
    const failed = await submitForm(request, await request.clone().formData(), {
      schema: Schema,
      call: async () => ({ ok: false, status: 409, data: null, detail: [{ loc: ["body", "email"], msg: "Taken." }] }),
      fields: ["email"],
      toast: "never",
    });
    expect(reply(failed).result.error?.email).toEqual(["Taken."]);
  });

  it("with errors: 'toast' (a button), a platform failure is persistent toasts and a 303; a broken form still the 400 reply", async () => {
    calls.answer = { ok: false, status: 409, data: null, detail: [{ msg: "One." }, { msg: "Two." }] };
    const request = post({ email: "a@b.co" });
    const res = (await submitForm(request, await request.clone().formData(), { schema: Schema, call: "create-contact", body: contactBody, toast: "ok", errors: "toast" })) as Response;
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/contacts?q=x");
    const bad = post({ email: "nope" });
    expect(reply(await submitForm(bad, await bad.clone().formData(), { schema: Schema, call: "create-contact", body: contactBody, toast: "ok", errors: "toast" })).status).toBe(400);
  });
});

describe("detailOr and failureReply", () => {
  it("prefers the platform's sentence", () => {
    expect(detailOr("Fallback.")({ detail: "Platform." }, undefined)).toBe("Platform.");
    expect(detailOr("Fallback.")({}, undefined)).toBe("Fallback.");
    expect(detailOr((v: { n: string }) => `Made ${v.n}.`)(null, { n: "x" })).toBe("Made x.");
  });
  it("without a submission, toasts to redirectTo", async () => {
    const res = (await failureReply(post({}), { ok: false, status: 400, data: null, detail: "No." }, { redirectTo: "/billing" })) as Response;
    expect(res.headers.get("Location")).toBe("/billing");
  });
});

describe("submitForm's success headers", () => {
  // A Set-Cookie meant for the success redirect (ending a deleted account's session) must not ride
  // on a refused form's reply or a failed call's: the user would be signed out by a typo.
  const withCookie = (request: Request, formData: FormData) =>
    submitForm(request, formData, { schema: Schema, call: "create-contact", body: contactBody, fields: ["email"], toast: "Done.", headers: { "Set-Cookie": "session=; Max-Age=0" } });
  const headersOf = (answer: unknown) => new Headers((answer as { init?: { headers?: HeadersInit } }).init?.headers);

  it("go only on the success redirect", async () => {
    const request = post({ email: "not an e-mail" });
    const refused = await withCookie(request, await request.clone().formData());
    expect(reply(refused).status).toBe(400);
    expect(headersOf(refused).get("set-cookie")).toBeNull();

    calls.answer = { ok: false, status: 409, detail: "Taken.", data: null };
    const ok = post({ email: "a@b.co" });
    const failed = await withCookie(ok, await ok.clone().formData());
    expect(reply(failed).status).toBe(409);
    expect(headersOf(failed).get("set-cookie")).toBeNull();

    calls.answer = { ok: true, status: 200, data: {} };
    const done = (await withCookie(ok, await post({ email: "a@b.co" }).formData())) as Response;
    expect(done.status).toBe(303);
    expect(done.headers.get("set-cookie")).toContain("session=; Max-Age=0");
  });
});
