import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { contactLimits, contactTypes } from "../../../platform/contract/contacts.ts";
import { clearableText, emailInput, hiddenId, requiredText } from "../../lib/form-fields.server.ts";
import { REMOVE_PHRASE, SELECT_ENTITY_AND_TYPES } from "./model.tsx";

/*
 * The Contacts screen's form schemas (spec 1 §5), one per form, used by the route's action.
 * Server-only: there is no client-side validation (the server's reply shows the errors, with and
 * without JavaScript), and keeping zod out of the page's JavaScript keeps it small.
 */

const email = emailInput(contactLimits.email);
// The platform's choices (a select): anything else is refused as the platform would refuse it.
const contactType = z.enum(contactTypes, { error: "Type is required." });
const contactId = hiddenId("Contact id is missing.");
const contactFields = {
  first_name: clearableText(contactLimits.name),
  last_name: clearableText(contactLimits.name),
  email,
  phone: clearableText(contactLimits.phone),
  address: clearableText(contactLimits.address),
  company_name: clearableText(contactLimits.name),
  contact_type: contactType,
};

export const CreateContactSchema = z.object({
  ...contactFields,
  entity_name: requiredText("Entity is required.", contactLimits.name),
});

export const UpdateContactSchema = z.object({ contact_id: contactId, ...contactFields });

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
