import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { contactLimits, contactTypes } from "../../../platform/contract/contacts.ts";
import { CreateContactBody, UpdateContactBody } from "../../../platform/contract/contacts.shapes.ts";
import { text } from "../../../platform/lib/fields.ts";
import { hiddenId, requestForm } from "../../lib/form-fields.server.ts";
import { REMOVE_PHRASE, SELECT_ENTITY_AND_TYPES } from "./model.tsx";

/*
 * The Contacts screen's form schemas (spec 1 §5), one per form, used by the route's action. Add
 * and Edit Contact are their calls' request schemas (platform/contract/contacts.shapes.ts); the
 * requests are strict objects and a form also posts its intent and CSRF token, so a form takes the
 * request's fields (`.shape`) in a plain object.
 * Server-only: there is no client-side validation (the server's reply shows the errors, with and
 * without JavaScript), and keeping zod out of the page's JavaScript keeps it small.
 */

const contactId = hiddenId("Contact id is missing.");

// The forms' own words where the platform's differ: the type select left at its placeholder says
// 'Type is required.' (the platform's 'Contact type must be one of: …' is for a JSON client), the
// entity 'Entity is required.' (the platform's FastAPI-style one has no full stop).
const contactType = z.enum(contactTypes, { error: "Type is required." });

export const CreateContactSchema = requestForm(
  z.object({ ...CreateContactBody.shape, contact_type: contactType, entity_name: text(contactLimits.name, { min: 1, minMessage: "Entity is required." }) }),
);

export const UpdateContactSchema = requestForm(z.object({ ...UpdateContactBody.shape, contact_type: contactType }));

// Not the request's schema: the form's checkboxes post a list of types, the call takes them
// comma-joined (the route's `body` joins them), and one message stands beside the first missing choice.
export const AssignEntitySchema = z
  .object({
    contact_id: contactId,
    new_entity_name: z.string().trim().optional(),
    contact_types: z.array(z.string()).optional(),
  })
  .superRefine((v, ctx) => {
    // One message, beside the first missing choice (spec 1 §5).
    if (!v.new_entity_name) ctx.addIssue({ code: "custom", path: ["new_entity_name"], message: SELECT_ENTITY_AND_TYPES });
    else if (!v.contact_types?.length) ctx.addIssue({ code: "custom", path: ["contact_types"], message: SELECT_ENTITY_AND_TYPES });
  });

export const RemoveContactSchema = confirmPhraseSchema(REMOVE_PHRASE, { contact_id: contactId });


export const UnassignSchema = z.object({ contact_id: z.string(), entity_name: z.string() });

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ create: CreateContactSchema, update: UpdateContactSchema, assign: AssignEntitySchema });
