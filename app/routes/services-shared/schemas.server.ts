import { z } from "zod";
import { isSingleLine, junkMessage, maxMessage, text } from "../../../platform/lib/fields.ts";
import { fieldMessages } from "../../../platform/contract/messages.ts";

/*
 * The form schemas of the dialogs App Services and Endpoints share (./dialogs.tsx, the intents in
 * ./intents.server.ts): each screen gives its own, its calls' request schemas
 * (platform/contract/<area>.shapes.ts, issue 61 item 1), named by the dialog. Server-only: zod
 * stays out of the browser; the loader derives the fields' constraints from them.
 */

export interface SubjectFields {
  /** "App Service", "Endpoint". */
  noun: string;
  idField: string;
  nameField: string;
  /** Edit Name, Edit Description, Setup Contacts and Resize: the screen's request forms (requestForm). */
  schemas: Record<"rename" | "describe" | "contacts" | "resize", z.ZodObject>;
}

/** Edit Name's name: the request's limits, the console's words ('App Service name is required.'; set-app-service-name's says 'Name is required.'). */
export const subjectName = (noun: string, max: number) => text(max, { min: 1, minMessage: fieldMessages.required(`${noun} name`) });

/**
 * A required text of a form not yet converted to its request schema (the create forms), on the
 * platform's rules and words (platform/lib/fields.ts). Conform sends a blank field as missing, so
 * the builders' 'Field required' would never say which: here missing and blank both say `message`.
 */
export const requiredText = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, maxMessage(max)).refine(isSingleLine, junkMessage);
