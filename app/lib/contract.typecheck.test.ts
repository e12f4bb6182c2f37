import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

/*
 * The console–platform seam is typed (issue 61 item 1): small snippets compiled with the project's
 * own compiler and tsconfig (package.json `typecheck`), each expected to fail where its comment
 * says, and one good snippet expected to compile. The snippets import the real helpers and the
 * contract (platform/contract/calls.ts), so a change that loosens either shows here.
 */

const root = path.resolve(import.meta.dirname, "../..");
// Under node_modules: outside the project's own `tsc` (its tsconfig excludes node_modules).
const dir = path.join(root, "node_modules/.cache/contract-typecheck", String(process.pid));
const lib = "../../../../app/lib";
const routes = "../../../../app/routes";

const header = `import { apiGet, apiGetOrThrow, apiPost } from "${lib}/api.server.ts";
import { submitForm } from "${lib}/action.server.ts";
import { fetchTablePage, type TableState } from "${lib}/table.server.ts";
import { useForm, useIntentForm } from "../../../../app/components/forms.tsx";
import type { z } from "zod";
import type { CreateIamUserSchema, RemoveIamUserSchema } from "${routes}/iam/schemas.server.ts";
declare const request: Request;
declare const formData: FormData;
declare const state: TableState;
declare const schema: typeof RemoveIamUserSchema;
export {};
`;

// The compiler's codes for each kind of mistake: a name not in the map (2345/2322/2769, 2820 with
// "Did you mean"), a field not in the body (2353/2561 excess property, 2741 a required one missing,
// 2322/2345/2769), a property
// not on the answer or the form's fields (2339, 2551 with "Did you mean").
const names = [2345, 2322, 2769, 2820];
const fields = [2353, 2561, 2741, 2322, 2345, 2769];

/** Each bad snippet: its code, and the error codes one of which must stand on its marked line (`// ERROR`). */
const bad: Record<string, { code: string; errors: number[] }> = {
  "misspelt-call": { code: `await apiGet(request, "list-iam-users"); // ERROR`, errors: names },
  "misspelt-list": { code: `await fetchTablePage(request, "list-iam-users", state, { getRowId: (r) => r.iam_user_id }); // ERROR`, errors: names },
  "misspelt-post": { code: `submitForm(request, formData, { schema, call: "remove-iam-users", toast: "x" }); // ERROR`, errors: names },
  "wrong-body-field": { code: `await apiPost(request, "remove-iam-user", { iam_user: "u1" }); // ERROR`, errors: fields },
  "wrong-form-body": {
    code: `submitForm(request, formData, { schema, call: "iam-user-update-role", toast: "x", body: (v) => ({ iam_user_id: v.iam_user_id, role: "admin" }) }); // ERROR`,
    errors: fields,
  },
  "wrong-answer-property": {
    code: `const user = await apiGetOrThrow(request, "get-iam-user-detail", { iam_user_id: "u1" });
user.usernme; // ERROR`,
    errors: [2339, 2551],
  },
  "wrong-row-property": {
    code: `const page = await fetchTablePage(request, "list-iam-user", state, { getRowId: (r) => r.iam_user_id });
void page.total;
await fetchTablePage(request, "list-iam-user", state, { getRowId: (r) => r.iam_user_ident }); // ERROR`,
    errors: [2339, 2551],
  },
  "misspelt-form-field": {
    code: `export function Form() {
  const { fields } = useIntentForm<z.input<typeof CreateIamUserSchema>>("create", { lastResult: null });
  return fields.usernme.name; // ERROR
}`,
    errors: [2339, 2551],
  },
  // Any form, not only one given its schema: without it a form has no fields (forms.tsx NoFields),
  // with a defaultValue its fields are that value's.
  "misspelt-field-untyped-form": {
    code: `export function Form() {
  const { fields } = useIntentForm("edit", { lastResult: null });
  return fields.titel.name; // ERROR
}`,
    errors: [2339, 2551],
  },
  "misspelt-field-of-default": {
    code: `export function Form() {
  const { fields } = useIntentForm("edit", { lastResult: null, defaultValue: { title: "x" } });
  return fields.titel.name; // ERROR
}`,
    errors: [2339, 2551],
  },
  "misspelt-field-plain-form": {
    code: `export function Form() {
  const [, fields] = useForm({ id: "f", lastResult: null });
  return fields.titel.name; // ERROR
}`,
    errors: [2339, 2551],
  },
};

const good = `const user = await apiGetOrThrow(request, "get-iam-user-detail", { iam_user_id: "u1" });
void user.username;
await apiPost(request, "remove-iam-user", { iam_user_id: "u1" });
const page = await fetchTablePage(request, "list-iam-user", state, { getRowId: (r) => r.iam_user_id });
void page.total;
submitForm(request, formData, { schema, call: "remove-iam-user", toast: "x", body: () => ({ iam_user_id: "u1" }) });
export function Form() {
  const { fields } = useIntentForm<z.input<typeof CreateIamUserSchema>>("create", { lastResult: null });
  return fields.username.name;
}
export function Edit() {
  const { fields } = useIntentForm("edit", { lastResult: null, defaultValue: { title: "x" } });
  return fields.title.name;
}`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the console's platform calls are typed from the contract", () => {
  it(
    "refuses a misspelt call, a wrong body field, a wrong answer property and a misspelt form field; accepts the right ones",
    async () => {
      mkdirSync(dir, { recursive: true });
      const files = { ...Object.fromEntries(Object.entries(bad).map(([name, s]) => [name, s.code])), good };
      for (const [name, code] of Object.entries(files)) writeFileSync(path.join(dir, `${name}.tsx`), `${header}${code}\n`);
      writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({ extends: "../../../../tsconfig.json", include: ["*.tsx", "../../../../.react-router/types/**/*"], exclude: [] }),
      );
      const tsc = path.join(root, "node_modules/typescript-7/bin/tsc");
      const output = await promisify(execFile)(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.json"), "--pretty", "false"], { cwd: root, maxBuffer: 64 << 20 }).then(
        (r) => r.stdout,
        (e: { stdout?: string }) => e.stdout ?? "",
      );
      // "node_modules/.cache/…/name.tsx(12,5): error TS2345: …" for the snippets only.
      const errors = [...output.matchAll(/contract-typecheck\/\d+\/([\w-]+)\.tsx\((\d+),\d+\): error TS(\d+)/g)].map((m) => ({ file: m[1]!, line: Number(m[2]), code: Number(m[3]) }));
      const lineOf = (code: string) => header.split("\n").length + code.split("\n").findIndex((l) => l.includes("// ERROR"));
      const problems = [
        ...errors.filter((e) => e.file === "good").map((e) => `good: ${JSON.stringify(e)}`),
        ...Object.entries(bad).flatMap(([name, s]) => {
          const found = errors.filter((e) => e.file === name);
          if (!found.some((e) => e.line === lineOf(s.code) && s.errors.includes(e.code))) return [`${name}: not refused as expected: ${JSON.stringify(found)}`];
          return found.filter((e) => e.line !== lineOf(s.code)).map((e) => `${name}: fails elsewhere: ${JSON.stringify(e)}`);
        }),
      ];
      expect(problems, output.slice(0, 4000)).toEqual([]);
    },
    600_000,
  );
});
