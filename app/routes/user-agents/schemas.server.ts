import { CreateUserAgentBody, LinkBody, UserAgentIdBody } from "../../../platform/contract/user-agents.shapes.ts";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";

/*
 * The User Agents screen's form schemas (spec 2 §5: an endpoint must be chosen; a name and an
 * e-mail), one per form, used by the action: each is its call's request schema
 * (platform/contract/user-agents.shapes.ts). Server-only: no zod in the page's JavaScript.
 */

export const CreateUserAgentSchema = requestForm(CreateUserAgentBody);

/** Link and Unlink: the agent and the chosen endpoint. */
export const LinkSchema = requestForm(LinkBody);

/** Delete: typing the agent's id (spec 2 §4). */
export const removeSchema = (id: string) => confirmPhraseSchema(id, UserAgentIdBody.shape);

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ create: CreateUserAgentSchema, link: LinkSchema, unlink: LinkSchema });
