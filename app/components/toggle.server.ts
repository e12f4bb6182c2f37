import { z } from "zod";
import { requestForm } from "../lib/form-fields.server.ts";
import { toggleUnchangedError } from "./toggle-form.tsx";

/*
 * The form of an on/off switch (ToggleForm, ToggleDialog; spec 1 §4): the call's request fields,
 * its boolean read from a checkbox, the current value refused (Confirm needs a change; with
 * JavaScript the form disables it, without JavaScript this refusal is the rule). Server-only (zod,
 * requestForm), so the schema stays out of the browser.
 *
 *   // action: `current` is what the platform says now
 *   submitForm(request, formData, { schema: toggleSchema(current, "enabled", ProxyingBody.shape), call: "configure-endpoint-proxying", … })
 */

/**
 * The request's fields (`shape`: the call's, or `.pick`/form-only ones beside its switch), its
 * boolean `name` read as a checkbox: one turned off posts nothing, which is `false` (a default, not
 * `required`: a required switch could not be turned off). The request's own field keeps its words
 * for anything else ('Input should be a valid boolean'). A request form (requestForm): a blank id
 * is the request's "", and Conform reads the constraints from the object itself (no transform).
 */
export function toggleSchema<N extends string, S extends z.ZodRawShape & Record<N, z.ZodBoolean>>(current: boolean, name: N, shape: S) {
  const field: z.ZodBoolean = shape[name];
  const form = z.object({ ...shape, [name]: field.default(false) }).superRefine((value, ctx) => {
    if ((value as Record<string, unknown>)[name] === current) ctx.addIssue({ code: "custom", path: [name], message: toggleUnchangedError });
  });
  // why the cast: the same fields, the switch defaulted; a computed key loses its name in TypeScript,
  // and the output is the request's (the switch a boolean either way).
  return requestForm(form as unknown as z.ZodObject<S>);
}
