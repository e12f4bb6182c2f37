import { z } from "zod";
import { entityLimits } from "../../../platform/contract/entities.ts";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { splitEmails } from "./schemas.ts";

// One schema per form of the Entities screen (spec 2 §5, spec 3 §5). The limits are the platform's.
// Server-only: the dialogs get their constraints from the loader (formConstraints).

const NAME_MAX = entityLimits.name;
const DESCRIPTION_MAX = entityLimits.description;
const EMAILS_MAX = entityLimits.emailList;

/** The same address rule as the platform (zod's). */
const emailPattern = z.regexes.email;

export const emailError = (address: string) => `Not a valid e-mail address: ${address}`;

export const CreateEntitySchema = z.object({
  entity_name: z
    .string({ error: "Entity name is required." })
    .trim()
    .min(1, "Entity name is required.")
    .max(NAME_MAX, `Entity name must be at most ${NAME_MAX} characters.`),
  description: z.string().trim().max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters.`).optional(),
  parent_entity_name: z.string().optional(),
});

export const EditEntitySchema = z.object({
  entity_id: z.string({ error: "The entity is missing." }),
  description: z
    .string({ error: "Description is required." })
    .trim()
    .min(1, "Description is required.")
    .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters.`),
  email: z
    .string()
    .max(EMAILS_MAX, `Alert message e-mails must be at most ${EMAILS_MAX} characters.`)
    .optional()
    .superRefine((value, ctx) => {
      for (const address of splitEmails(value)) {
        if (!emailPattern.test(address)) ctx.addIssue({ code: "custom", message: emailError(address) });
      }
    })
    .transform((value) => splitEmails(value).join(",")),
});

export const AssignParentSchema = z.object({
  entity_id: z.string({ error: "The entity is missing." }),
  /** Empty ('None') makes the entity top-level. */
  parent_entity_name: z.string().optional(),
});

/** Delete: the typed phrase must be the entity id (spec 2 §4/§5, spec 3 §5). */
export const deleteSchema = (entityId: string) => confirmPhraseSchema(entityId, { entity_id: z.string({ error: "The entity is missing." }) });

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ add: CreateEntitySchema, edit: EditEntitySchema, assign: AssignParentSchema });
