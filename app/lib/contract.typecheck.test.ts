import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The console–platform seam is typed (issue 61 item 1). The bad snippets are compiled by the
 * project's own type check (`npm run typecheck`): they stand in contract.typecheck-fixture.tsx,
 * each under `// @ts-expect-error`, which fails the type check when its line stops being an error.
 * This test reads the fixture so that nobody weakens it silently: every case below must stand there
 * as written, its bad line right under an expect-error, its twin (the same line without the
 * mistake) uncommented, so that it must compile. (Compiling the snippets here again was a second
 * type check of most of the app: 12 % of the vitest run, docs/decisions/2026-12-03-suite-time.md.)
 */

const root = path.resolve(import.meta.dirname, "../..");
const fixtureFile = "app/lib/contract.typecheck-fixture.tsx";

/** Each case: the line with the mistake, and its twin without it (for a form without fields, the form's own line). */
const cases: Record<string, { bad: string; twin: string }> = {
  "misspelt-call": { bad: `await apiGet(request, "list-iam-users");`, twin: `await apiGet(request, "list-iam-user");` },
  "misspelt-list": {
    bad: `await fetchTablePage(request, "list-iam-users", state, { getRowId: (r) => r.iam_user_id });`,
    twin: `await fetchTablePage(request, "list-iam-user", state, { getRowId: (r) => r.iam_user_id });`,
  },
  "misspelt-post": {
    bad: `submitForm(request, formData, { schema, call: "remove-iam-users", toast: "x" });`,
    twin: `submitForm(request, formData, { schema, call: "remove-iam-user", toast: "x" });`,
  },
  "wrong-body-field": { bad: `await apiPost(request, "remove-iam-user", { iam_user: "u1" });`, twin: `await apiPost(request, "remove-iam-user", { iam_user_id: "u1" });` },
  "wrong-form-body": {
    bad: `submitForm(request, formData, { schema, call: "iam-user-update-role", toast: "x", body: (v) => ({ iam_user_id: v.iam_user_id, role: "admin" }) });`,
    twin: `submitForm(request, formData, { schema, call: "iam-user-update-role", toast: "x", body: (v) => ({ iam_user_id: v.iam_user_id, new_role: "admin" }) });`,
  },
  "wrong-answer-property": { bad: `void user.usernme;`, twin: `void user.username;` },
  "wrong-row-property": {
    bad: `await fetchTablePage(request, "list-iam-user", state, { getRowId: (r) => r.iam_user_ident });`,
    twin: `const page = await fetchTablePage(request, "list-iam-user", state, { getRowId: (r) => r.iam_user_id });`,
  },
  "misspelt-form-field": { bad: `void fields.usernme.name;`, twin: `void fields.username.name;` },
  "misspelt-field-untyped-form": { bad: `void fields.titel.name;`, twin: `const { fields } = useIntentForm("edit", { lastResult: null });` },
  "misspelt-field-of-default": { bad: `void fields.titel.name;`, twin: `void fields.title.name;` },
  "misspelt-field-plain-form": { bad: `void fields.titel.name;`, twin: `const [, fields] = useForm({ id: "f", lastResult: null });` },
};

const lines = readFileSync(path.join(root, fixtureFile), "utf8")
  .split("\n")
  .map((l) => l.trim());
const expectsError = (i: number) => i > 0 && lines[i - 1]!.startsWith("// @ts-expect-error");

/** The words of a line (identifiers, strings' words, punctuation runs), to compare a case with its twin. */
const words = (line: string) => line.match(/\w+|[^\w\s]+/g) ?? [];

describe("the console's platform calls are typed from the contract (contract.typecheck-fixture.tsx)", () => {
  it("holds every bad snippet under @ts-expect-error, each after its case's name", () => {
    const problems = Object.entries(cases).flatMap(([name, { bad }]) => {
      const start = lines.findIndex((l) => l === `// ${name}` || l.startsWith(`// ${name}:`));
      if (start < 0) return [`${name}: no "// ${name}" in the fixture`];
      const at = lines.findIndex((l, i) => i > start && l === bad);
      if (at < 0) return [`${name}: its bad line is not in the fixture after its name: ${bad}`];
      return expectsError(at) ? [] : [`${name}: its bad line is not right under a // @ts-expect-error`];
    });
    expect(problems).toEqual([]);
  });

  it("holds each bad snippet's twin uncommented, which must compile", () => {
    const problems = Object.entries(cases).flatMap(([name, { twin }]) => {
      const at = lines.indexOf(twin);
      if (at < 0) return [`${name}: its twin is not in the fixture: ${twin}`];
      return expectsError(at) ? [`${name}: its twin stands under a // @ts-expect-error`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("differs from a call's twin in one word only, so the error expected is the mistake's", () => {
    // A form without a schema has no field to name: its twin is the form's own line.
    const calls = Object.entries(cases).filter(([name]) => name !== "misspelt-field-untyped-form" && name !== "misspelt-field-plain-form");
    for (const [name, { bad, twin }] of calls) {
      const a = words(bad);
      const b = words(twin.replace(/^const \w+ = /, ""));
      const differing = a.length === b.length ? a.filter((w, i) => w !== b[i]) : a;
      expect(differing, name).toHaveLength(1);
    }
  });

  it("has no expect-error beyond the cases' (a stray one would hide any error of the line below it)", () => {
    const expected = Object.keys(cases).length;
    expect(lines.filter((l) => l.startsWith("// @ts-expect-error"))).toHaveLength(expected);
    expect(lines.filter((l) => /@ts-(ignore|nocheck)/.test(l))).toEqual([]);
  });

  it("is checked by the project's type check and reached by no module (so in no bundle)", () => {
    const tsconfig = JSON.parse(readFileSync(path.join(root, "tsconfig.json"), "utf8")) as { include: string[]; exclude: string[] };
    expect(tsconfig.include).toContain("**/*.tsx");
    expect(tsconfig.exclude.filter((e) => fixtureFile.startsWith(e))).toEqual([]);
    expect(readFileSync(path.join(root, "package.json"), "utf8")).toMatch(/"typecheck": "[^"]*tsc"/);
    const importers = readdirSync(path.join(root, "app"), { recursive: true, encoding: "utf8" })
      .filter((f) => /\.tsx?$/.test(f) && !f.includes("contract.typecheck"))
      .filter((f) => /(from|import\()\s*["'][^"']*contract\.typecheck-fixture/.test(readFileSync(path.join(root, "app", f), "utf8")));
    expect(importers).toEqual([]);
  });
});
