/*
 * The console–platform seam is typed (issue 61 item 1): each mistake below must be a type error of
 * the project's own `npm run typecheck` (this file is in the tsconfig's include). Each bad line
 * stands under `// @ts-expect-error`, which is itself an error when the line below it compiles: the
 * type check fails as soon as a change to the helpers or the contract (platform/contract/calls.ts)
 * stops catching that mistake. Beside each stands its twin, the same line without the mistake,
 * uncommented: it must compile, so the error expected above is the mistake's and no other.
 * contract.typecheck.test.ts checks that every case and its twin are here as written.
 * Never run and imported by nothing: no route or bundle reaches it.
 */
import type { z } from "zod";
import { useForm, useIntentForm } from "../components/forms.tsx";
import type { CreateIamUserSchema, RemoveIamUserSchema } from "../routes/iam/schemas.server.ts";
import { submitForm } from "./action.server.ts";
import { apiGet, apiGetOrThrow, apiPost } from "./api.server.ts";
import { fetchTablePage, type TableState } from "./table.server.ts";

declare const request: Request;
declare const formData: FormData;
declare const state: TableState;
declare const schema: typeof RemoveIamUserSchema;

export async function calls() {
  // misspelt-call
  // @ts-expect-error a call name not in the contract
  await apiGet(request, "list-iam-users");
  await apiGet(request, "list-iam-user");

  // misspelt-list
  // @ts-expect-error a list call name not in the contract
  await fetchTablePage(request, "list-iam-users", state, { getRowId: (r) => r.iam_user_id });
  await fetchTablePage(request, "list-iam-user", state, { getRowId: (r) => r.iam_user_id });

  // misspelt-post
  // @ts-expect-error a form's call name not in the contract
  submitForm(request, formData, { schema, call: "remove-iam-users", toast: "x" });
  submitForm(request, formData, { schema, call: "remove-iam-user", toast: "x" });

  // wrong-body-field
  // @ts-expect-error a body field the call does not take
  await apiPost(request, "remove-iam-user", { iam_user: "u1" });
  await apiPost(request, "remove-iam-user", { iam_user_id: "u1" });

  // wrong-form-body
  // @ts-expect-error a form's body field the call does not take
  submitForm(request, formData, { schema, call: "iam-user-update-role", toast: "x", body: (v) => ({ iam_user_id: v.iam_user_id, role: "admin" }) });
  submitForm(request, formData, { schema, call: "iam-user-update-role", toast: "x", body: (v) => ({ iam_user_id: v.iam_user_id, new_role: "admin" }) });

  // wrong-answer-property
  const user = await apiGetOrThrow(request, "get-iam-user-detail", { iam_user_id: "u1" });
  // @ts-expect-error a property the answer does not have
  void user.usernme;
  void user.username;

  // wrong-row-property
  // @ts-expect-error a property the list's rows do not have
  await fetchTablePage(request, "list-iam-user", state, { getRowId: (r) => r.iam_user_ident });
  const page = await fetchTablePage(request, "list-iam-user", state, { getRowId: (r) => r.iam_user_id });
  void page.total;
}

// misspelt-form-field
export function CreateForm() {
  const { fields } = useIntentForm<z.input<typeof CreateIamUserSchema>>("create", { lastResult: null });
  // @ts-expect-error a field the form's schema does not have
  void fields.usernme.name;
  void fields.username.name;
  return null;
}

// misspelt-field-untyped-form: any form, not only one given its schema: without it a form has no
// fields (forms.tsx NoFields)
export function UntypedForm() {
  const { fields } = useIntentForm("edit", { lastResult: null });
  // @ts-expect-error a form without a schema has no fields
  void fields.titel.name;
  return null;
}

// misspelt-field-of-default: with a defaultValue a form's fields are that value's
export function DefaultForm() {
  const { fields } = useIntentForm("edit", { lastResult: null, defaultValue: { title: "x" } });
  // @ts-expect-error a field the default value does not have
  void fields.titel.name;
  void fields.title.name;
  return null;
}

// misspelt-field-plain-form
export function PlainForm() {
  const [, fields] = useForm({ id: "f", lastResult: null });
  // @ts-expect-error a form without a schema has no fields
  void fields.titel.name;
  return null;
}
