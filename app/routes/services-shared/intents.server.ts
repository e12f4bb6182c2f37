import { data, redirect } from "react-router";
import type { z } from "zod";
import { failureReply, removeIntent as kitRemoveIntent, submitForm, validateForm, type SubmitOptions } from "../../lib/action.server.ts";
import { apiListOrThrow, apiPost } from "../../lib/api.server.ts";
import type { CallAnswer, CallBody, PostCallName } from "../../../platform/contract/calls.ts";
import { returnUrl } from "../../lib/url.ts";
import type { ContactOption } from "./dialogs.tsx";
import { draftOf, switchChanges, writeDraft } from "./draft.ts";
import type { SubjectFields } from "./schemas.server.ts";

/*
 * The intents App Services and Endpoints share (their dialogs are ./dialogs.tsx): the same
 * action under the same name in both, each a call of the screen's own platform operation.
 */

export interface SharedIntentsConfig extends SubjectFields {
  /** The platform area: its calls (./intents.server.ts areaCalls). */
  area: keyof typeof areaCalls;
}

type Values = Record<string, unknown>;
const blank = (v: unknown) => (typeof v === "string" ? v : "");
const direction = (v: Values) => (v.direction === "down" ? "down" : "up");

/**
 * Each area's calls of the shared dialogs, each with its body from the form's value (the schemas
 * are built for both areas from their field names, ./schemas.server.ts: the bodies are typed
 * here, per area, by the contract). A blank description or "None" contact clears it.
 */
const areaCalls = {
  "app-service": {
    rename: (r: Request, v: Values) => apiPost(r, "set-app-service-name", { app_service_id: blank(v.app_service_id), app_service_name: blank(v.app_service_name) }),
    describe: (r: Request, v: Values) => apiPost(r, "set-app-service-description", { app_service_id: blank(v.app_service_id), description: blank(v.description) }),
    contacts: (r: Request, v: Values) =>
      apiPost(r, "set-app-service-contact", { app_service_id: blank(v.app_service_id), primary_contact_id: blank(v.primary_contact_id), secondary_contact_id: blank(v.secondary_contact_id) }),
    resize: (r: Request, v: Values) => apiPost(r, "resize-app-service", { app_service_id: blank(v.app_service_id), hosting_id: blank(v.hosting_id), direction: direction(v) }),
  },
  endpoint: {
    rename: (r: Request, v: Values) => apiPost(r, "set-endpoint-name", { ep_id: blank(v.ep_id), ep_name: blank(v.ep_name) }),
    describe: (r: Request, v: Values) => apiPost(r, "set-endpoint-description", { ep_id: blank(v.ep_id), description: blank(v.description) }),
    contacts: (r: Request, v: Values) => apiPost(r, "set-endpoint-contact", { ep_id: blank(v.ep_id), primary_contact_id: blank(v.primary_contact_id), secondary_contact_id: blank(v.secondary_contact_id) }),
    resize: (r: Request, v: Values) => apiPost(r, "resize-endpoint-throughput", { ep_id: blank(v.ep_id), direction: direction(v) }),
  },
};

export function sharedIntents(c: SharedIntentsConfig) {
  const schemas = c.schemas;
  // Resize's fields beside the id (App Services: the hosting location, then the direction).
  const resizeFields = Object.keys(schemas.resize.shape).filter((k) => k !== c.idField);
  const calls = areaCalls[c.area];
  return {
    rename: (request: Request, formData: FormData) => submitForm(request, formData, { schema: schemas.rename, call: (v, req) => calls.rename(req, v), fields: [c.nameField], toast: `${c.noun} name updated.` }),
    describe: (request: Request, formData: FormData) =>
      submitForm(request, formData, { schema: schemas.describe, call: (v, req) => calls.describe(req, v), fields: ["description"], toast: `${c.noun} description updated.` }),
    contacts: (request: Request, formData: FormData) =>
      submitForm(request, formData, { schema: schemas.contacts, call: (v, req) => calls.contacts(req, v), fields: ["primary_contact_id", "secondary_contact_id"], toast: `${c.noun} contacts updated.` }),
    // A refusal keeps the dialog open with the platform's reason; Confirm works again (spec 1 §4).
    resize: (request: Request, formData: FormData) =>
      submitForm(request, formData, { schema: schemas.resize, call: (v, req) => calls.resize(req, v), fields: resizeFields, toast: `Resized ${c.noun} successfully.` }),
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
  return async (request: Request, formData: FormData) => keepDraft(request, formData, fields) ?? submitForm(request, formData, { ...options, fields: [...fields] });
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
export function latencyIntent<N extends "measure-app-service-latency" | "measure-endpoint-latency">(schema: z.ZodType<CallBody<N>>, call: N) {
  return async (request: Request, formData: FormData) => {
    const form = validateForm(formData, schema);
    if (!form.ok) return form.reply;
    const res = await apiPost(request, call, form.value);
    if (!res.ok) return failureReply(request, res);
    return data({ latency: res.data });
  };
}
