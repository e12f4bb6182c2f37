import { z } from "zod";
import { confirmPhraseSchema } from "../../components/confirm-phrase.tsx";
import { formConstraints } from "../../components/constraints.server.ts";
import { clearableText, emailInput, hiddenId, requiredText } from "../../lib/form-fields.server.ts";
import { userAgentLimits, userAgentMessages } from "./model.ts";
import { formMessages } from "../../lib/messages.ts";

/*
 * The User Agents screen's form schemas (spec 2 §5: an endpoint must be chosen; a name and an
 * e-mail), one per form, used by the action. Server-only: no zod in the page's JavaScript.
 */

const userAgentId = hiddenId("User agent id is missing.");
const endpoint = requiredText(userAgentMessages.selectEndpoint, 100);

export const CreateUserAgentSchema = z.object({
  name: requiredText(formMessages.nameRequired, userAgentLimits.name),
  email: emailInput(userAgentLimits.email),
  description: clearableText(userAgentLimits.description),
  ep_id: endpoint,
});

/** Link and Unlink: the agent and the chosen endpoint. */
export const LinkSchema = z.object({ user_agent_id: userAgentId, ep_id: endpoint });

/** Delete: typing the agent's id (spec 2 §4). */
export const removeSchema = (id: string) => confirmPhraseSchema(id, { user_agent_id: userAgentId });

/** The forms' HTML constraints, from the schemas (the loader hands them to the dialogs: useConstraint). */
export const constraints = formConstraints({ create: CreateUserAgentSchema, link: LinkSchema, unlink: LinkSchema });
