import { z } from "zod";
import { isSingleLine, junkMessage, maxMessage, multiline } from "../../../platform/lib/fields.ts";

/*
 * The form schemas of the dialogs App Services and Endpoints share (./dialogs.tsx, the intents in
 * ./intents.server.ts), built once for both from the screen's field names and limits. Server-only:
 * zod stays out of the browser; the loader derives the fields' constraints from them.
 */

export interface SubjectFields {
  /** "App Service", "Endpoint". */
  noun: string;
  idField: string;
  nameField: string;
  limits: { name: number; description: number };
  /** Resize's fields beside the direction (App Services: the hosting location). */
  resize?: z.ZodRawShape;
}

/**
 * A required text of a form, on the platform's rules and words (platform/lib/fields.ts). Conform
 * sends a blank field as missing, so the builders' 'Field required' would never say which: here
 * missing and blank both say `message`.
 */
export const requiredText = (message: string, max: number) => z.string({ error: message }).trim().min(1, message).max(max, maxMessage(max)).refine(isSingleLine, junkMessage);

export function subjectSchemas(f: SubjectFields) {
  const id = { [f.idField]: z.string({ error: `The ${f.noun} is missing.` }).min(1, `The ${f.noun} is missing.`) };
  return {
    rename: z.object({ ...id, [f.nameField]: requiredText(`${f.noun} name is required.`, f.limits.name) }),
    describe: z.object({ ...id, description: multiline(f.limits.description).optional() }),
    contacts: z.object({ ...id, primary_contact_id: z.string().optional(), secondary_contact_id: z.string().optional() }),
    resize: z.object({ ...id, ...f.resize, direction: z.enum(["up", "down"], { error: "Choose up or down." }).default("up") }),
  };
}
