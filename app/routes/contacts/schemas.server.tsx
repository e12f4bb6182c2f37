import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { contactTypes } from "../../../platform/contract/contacts.ts";
import { AssignEntityBody, CreateContactBody, UnassignEntityBody, UpdateContactBody } from "../../../platform/contract/contacts.shapes.ts";
import { hiddenId, requestForm } from "../../lib/form-fields.server.ts";
import { REMOVE_PHRASE } from "./model.tsx";

/*
 * The Contacts screen's form schemas (spec 1 §5), one per form, used by the route's action. Add,
 * Edit Contact, Assign Entity and Unassign are their calls' request schemas (platform/contract/contacts.shapes.ts); the
 * requests are strict objects and a form also posts its intent and CSRF token, so a form takes the
 * request's fields (`.shape`) in a plain object.
 * Server-only: there is no client-side validation (the server's reply shows the errors, with and
 * without JavaScript), and keeping zod out of the page's JavaScript keeps it small.
 */

const contactId = hiddenId("Contact id is missing.");

// The form's own words where the platform's differ: the type select left at its placeholder says
// 'Type is required.' (the platform's 'Contact type must be one of: …' is for a JSON client).
const contactType = z.enum(contactTypes, { error: "Type is required." });

export const CreateContactSchema = requestForm(z.object({ ...CreateContactBody.shape, contact_type: contactType }));

export const UpdateContactSchema = requestForm(z.object({ ...UpdateContactBody.shape, contact_type: contactType }));

/**
 * Assign Entity: the request's fields, the types its checkboxes post as a list (none checked: an
 * empty list) joined with commas as the call takes them, then checked by the request's own field
 * (its 'Please select an entity and types.' for none). A transform rather than `.pipe(field)`:
 * Conform takes a pipe's constraint from its end (a required string), which would put `required`
 * on every checkbox; a transform's from its start (a list, not required).
 */
const checkedTypes = z
  .array(z.string())
  .default([])
  .transform((types, ctx) => {
    const parsed = AssignEntityBody.shape.contact_types.safeParse(types.join(","));
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
    return z.NEVER;
  });

export const AssignEntitySchema = requestForm(z.object({ ...AssignEntityBody.shape, contact_types: checkedTypes }));

export const RemoveContactSchema = confirmPhraseSchema(REMOVE_PHRASE, { contact_id: contactId });

export const UnassignSchema = requestForm(z.object({ ...UnassignEntityBody.shape }));

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ create: CreateContactSchema, update: UpdateContactSchema, assign: AssignEntitySchema });
