import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { iamLimits, iamRoles } from "../../../platform/contract/iam.ts";
import { clearableText, hiddenId, requiredText } from "../../lib/form-fields.server.ts";
import { INVALID_USERNAME, REMOVE_PHRASE, SELECT_ENTITY } from "./model.ts";

/*
 * The IAM screen's form schemas (spec 1 §5 IAM create, assign), one per form, used by the action.
 * Server-only (no zod in the page's JavaScript); the server's reply shows the errors with and
 * without JavaScript.
 */

const role = z.enum(iamRoles, { error: "Select a role." });
const entity = requiredText(SELECT_ENTITY, iamLimits.entityName);
const iamUserId = hiddenId("IAM user id is missing.");

export const CreateIamUserSchema = z.object({
  username: z.email({ error: INVALID_USERNAME }).max(iamLimits.username),
  role: role.default("readonly"),
  entity_name: entity,
  name: clearableText(iamLimits.name),
});

export const AssignEntitySchema = z.object({ iam_user_id: iamUserId, new_entity_name: entity });

export const UpdateRoleSchema = z.object({ iam_user_id: iamUserId, new_role: role });

export const RemoveIamUserSchema = confirmPhraseSchema(REMOVE_PHRASE, { iam_user_id: iamUserId });

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ create: CreateIamUserSchema, assign: AssignEntitySchema, role: UpdateRoleSchema });
