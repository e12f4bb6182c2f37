import { data, redirect } from "react-router";
import { submitForm as untypedSubmitForm, apiPost } from "../../lib/untyped-calls.server.ts";
import type { z } from "zod";
import { failureReply, removeIntent as kitRemoveIntent, submitForm, validateForm, type SubmitOptions } from "../../lib/action.server.ts";
import { apiListOrThrow } from "../../lib/api.server.ts";
import type { CallAnswer, PostCallName } from "../../../platform/contract/calls.ts";
import { returnUrl } from "../../lib/url.ts";
import type { ContactOption } from "./dialogs.tsx";
import { draftOf, switchChanges, writeDraft } from "./draft.ts";
import { subjectSchemas, type SubjectFields } from "./schemas.server.ts";

/*
 * The intents App Services and Endpoints share (their dialogs are ./dialogs.tsx): the same
 * action under the same name in both, each a call of the screen's own platform operation.
 */

export interface SharedIntentsConfig extends SubjectFields {
  /** The platform area: its calls are set-{area}-name, set-{area}-description, set-{area}-contact. */
  area: string;
  /** The resize call (resize-app-service, resize-endpoint-throughput). */
  resizeCall: string;
}

type Values = Record<string, unknown>;
const blank = (v: unknown) => (typeof v === "string" ? v : "");

export function sharedIntents(c: SharedIntentsConfig) {
  const schemas = subjectSchemas(c);
  const calls = { rename: `set-${c.area}-name`, describe: `set-${c.area}-description`, contacts: `set-${c.area}-contact`, resize: c.resizeCall };
  return {
    rename: (request: Request, formData: FormData) => untypedSubmitForm(request, formData, { schema: schemas.rename, call: calls.rename, fields: [c.nameField], toast: `${c.noun} name updated.` }),
    describe: (request: Request, formData: FormData) =>
      untypedSubmitForm(request, formData, {
        schema: schemas.describe,
        call: calls.describe,
        // A blank description clears it.
        body: (v) => ({ [c.idField]: (v as Values)[c.idField], description: blank((v as Values).description) }),
        fields: ["description"],
        toast: `${c.noun} description updated.`,
      }),
    contacts: (request: Request, formData: FormData) =>
      untypedSubmitForm(request, formData, {
        schema: schemas.contacts,
        call: calls.contacts,
        // "None" clears a contact.
        body: (v) => ({ [c.idField]: (v as Values)[c.idField], primary_contact_id: blank((v as Values).primary_contact_id), secondary_contact_id: blank((v as Values).secondary_contact_id) }),
        fields: ["primary_contact_id", "secondary_contact_id"],
        toast: `${c.noun} contacts updated.`,
      }),
    // A refusal keeps the dialog open with the platform's reason; Confirm works again (spec 1 §4).
    resize: (request: Request, formData: FormData) =>
      untypedSubmitForm(request, formData, { schema: schemas.resize, call: calls.resize, fields: [...Object.keys(c.resize ?? {}), "direction"], toast: `Resized ${c.noun} successfully.` }),
  };
}

/**
 * A create form's switch (a deployment, a side panel): back to the create dialog with what was
 * typed kept in the URL's draft (./draft.ts). Null when the form was submitted for real.
 */
function keepDraft(request: Request, formData: FormData, fields: readonly string[]): Response | null {
  const change = formData.get("switch");
  if (typeof change !== "string" || change === "") return null;
  const draft = writeDraft(draftOf(formData, fields), fields);
  return redirect(returnUrl(request, { dialog: "create", ...switchChanges(change), draft }), 303);
}

/** The create intent of a form with a draft: a switch keeps what was typed; a submit creates (its fields are the draft's). */
export function createIntent<S extends z.ZodType, N extends PostCallName, R = CallAnswer<N>>(
  fields: readonly string[],
  options: Omit<SubmitOptions<S, N, R>, "fields" | "body"> & { body: NonNullable<SubmitOptions<S, N, R>["body"]> },
) {
  return async (request: Request, formData: FormData) => keepDraft(request, formData, fields) ?? submitForm<S, N, R>(request, formData, { ...options, fields: [...fields] });
}

/** Delete, confirmed by a typed phrase: the kit's removeIntent; a refusal is one persistent toast per detail item and the dialog closes (spec 1 §8). */
export const removeIntent = <N extends PostCallName>(o: Omit<Parameters<typeof kitRemoveIntent<N>>[0], "errors">) => kitRemoveIntent<N>({ ...o, errors: "toast" });

/** The contacts Setup Contacts offers. */
export const contactOptions = (request: Request): Promise<ContactOption[]> => apiListOrThrow(request, "get-contact");

/**
 * Test Reachability (issue 27 item 8), the same intent on both screens: the measurement runs on the
 * button's POST, never on a GET; it is readable (list "latency" in the action's `readable`: every
 * role may measure, as the platform allows). Its answer is the action's `latency`.
 */
export function latencyIntent(schema: z.ZodType<Record<string, string>>, call: "measure-app-service-latency" | "measure-endpoint-latency") {
  return async (request: Request, formData: FormData) => {
    const form = validateForm(formData, schema);
    if (!form.ok) return form.reply;
    const res = await apiPost<Record<string, unknown>>(request, call, form.value);
    if (!res.ok) return failureReply(request, res);
    return data({ latency: res.data });
  };
}
