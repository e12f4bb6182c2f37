import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { AssignEntityBody, CreateIamUserBody, IamUserIdBody, UpdateRoleBody } from "../../../platform/contract/iam.shapes.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { REMOVE_PHRASE } from "./model.ts";

/*
 * The IAM screen's form schemas (spec 1 §5 IAM create, assign): each is its call's request schema
 * (platform/contract/iam.shapes.ts), so the form says the platform's words within its limits.
 * Server-only (no zod in the page's JavaScript); the server's reply shows the errors with and
 * without JavaScript.
 */

export const CreateIamUserSchema = requestForm(CreateIamUserBody);

export const AssignEntitySchema = requestForm(AssignEntityBody);

export const UpdateRoleSchema = requestForm(UpdateRoleBody);

/** remove-iam-user's request and the typed phrase (form-only). */
export const RemoveIamUserSchema = confirmPhraseSchema(REMOVE_PHRASE, IamUserIdBody.shape);

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ create: CreateIamUserSchema, assign: AssignEntitySchema, role: UpdateRoleSchema });
