import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../lib/ids.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { parserPayloads, validForEmptyBody } from "../test/malformed.ts";

/*
 * The malformed bodies that test the JSON body parser and the middleware before a call's schema
 * (platform/test/malformed.ts `parserPayloads`: not JSON, not UTF-8, a wrong content-type, over
 * 2 MB, 5000 levels deep, JSON that is not an object), sent once here, to a signed-in call and a
 * public one, instead of to every call: each call's own tests send its schema's variants. This
 * holds for every call only because each reads its body the same way, which the second part
 * checks: a required JSON body whose schema is an object (defineCall), after the app's middleware
 * (the 2 MB limit, the API log, the text guard), and no module reading a body by hand but the
 * listed ones. (Sending all ~100 variants to every call was 21 % of the vitest run:
 * docs/decisions/2026-12-03-suite-time.md.)
 */

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

const root = path.resolve(import.meta.dirname, "../..");

/** Each variant's answer when it is not a 4xx. */
async function notRefused(call: string, example: Record<string, unknown>, token?: string) {
  const variants = parserPayloads(example);
  expect(variants.length).toBeGreaterThanOrEqual(50);
  const wrong: string[] = [];
  for (const m of variants) {
    const r = await p.call("POST", call, { token, rawBody: m.rawBody, contentType: m.contentType });
    if (r.status < 400 || r.status >= 500) wrong.push(`${m.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  }
  return wrong;
}

describe("the parser's malformed bodies get a 4xx (once, for every call)", () => {
  it("from a signed-in call, which changes nothing", async () => {
    const a = await p.newAccount();
    const before = (await p.call("GET", "get_entity", { token: a.token })).body;
    const example = { entity_name: "Edge", description: "x" };
    expect(await notRefused("create_entity", example, a.token)).toEqual([]);
    expect((await p.call("GET", "get_entity", { token: a.token })).body).toEqual(before);
    // The example itself is accepted: the refusals were about the malformations.
    expect((await p.call("POST", "create_entity", { token: a.token, body: example })).status).toBe(200);
  });

  it("from a public call, which changes nothing", async () => {
    const example = { username: `malformed-${newId("t")}@example.test`, password: "a fine password", terms: true };
    expect(await notRefused("register", example)).toEqual([]);
    // Not registered by any variant: the example registers now.
    expect((await p.call("POST", "register", { body: example })).status).toBe(200);
  });

  it("at least 50 of them even for an empty body", () => {
    expect(parserPayloads({}).filter((m) => !validForEmptyBody(m)).length).toBeGreaterThanOrEqual(50);
  });
});

type Schema = { $ref?: string; type?: string | string[] };
type Operation = { requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> } };

describe("every call with a body reads it through the one parser", () => {
  // The calls whose body is a stream the handler reads (a capture file, octet-stream): no JSON.
  const streamed = ["/api/v1/upload-pcap/{key}", "/api/v1/upload-pcap-stream"];

  it("declares it a required JSON body whose schema is an object (the OpenAPI document)", async () => {
    const doc = (await p.call("GET", "openapi.json")).body as { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
    const resolve = (s: Schema): Schema => (s.$ref ? resolve(doc.components.schemas[s.$ref.replace("#/components/schemas/", "")]!) : s);
    const problems: string[] = [];
    let bodies = 0;
    for (const [where, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const body = op.requestBody;
        if (!body) continue;
        bodies++;
        const media = Object.keys(body.content);
        if (streamed.includes(where) && media.join() === "application/octet-stream") continue;
        if (body.required !== true) problems.push(`${method} ${where}: body not required`);
        if (media.join() !== "application/json") problems.push(`${method} ${where}: ${media.join(", ")}`);
        const schema = body.content["application/json"]?.schema;
        if (!schema || resolve(schema).type !== "object") problems.push(`${method} ${where}: the body's schema is not an object`);
      }
    }
    expect(problems).toEqual([]);
    expect(bodies).toBeGreaterThan(100);
  });

  it("is a call of the document: every POST or PUT route of the app is", async () => {
    const doc = (await p.call("GET", "openapi.json")).body as { paths: Record<string, Record<string, Operation>> };
    const documented = new Set(Object.entries(doc.paths).flatMap(([where, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${where}`)));
    const posts = p.app.routes.filter((r) => r.method === "POST" || r.method === "PUT" || r.method === "PATCH").map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(posts.length).toBeGreaterThan(100);
    expect([...new Set(posts)].filter((r) => !documented.has(r))).toEqual([]);
  });

  it("is validated by the call's declaration: no call registered by hand, no body read by hand, but the listed ones", () => {
    const sources = (dir: string): string[] =>
      readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.startsWith("test/"))
        .map((f) => `${dir}/${f}`);
    const files = sources("platform").map((f) => [f, readFileSync(path.join(root, f), "utf8")] as const);
    // A route registered with app.post (not app.openapi) gets no validator from its declaration.
    // The one: the Stripe webhook, whose signature is over the raw text (billing.test.ts sends it
    // the parser's variants as well as its schema's).
    const byHand = /\b(app|router)\.(post|put|patch|all|on)\(/;
    expect(files.filter(([, text]) => byHand.test(text)).map(([f]) => f)).toEqual(["platform/routes/billing.ts"]);
    // text-guard (reads the bytes once, for the calls' validator), apilog (a copy for the log), the
    // webhook, the capture uploads (streams).
    const reads = /c\.req\.(json|text|parseBody|arrayBuffer|formData|blob)\(|\.raw\.(body|clone\(|json\(|text\(|arrayBuffer\()/;
    expect(files.filter(([, text]) => reads.test(text)).map(([f]) => f).sort()).toEqual(["platform/lib/apilog.ts", "platform/lib/text-guard.ts", "platform/routes/billing.ts", "platform/routes/pcap.ts"]);
  });
});
