import { entityMessages } from "../../../platform/contract/messages.ts";

/* The Entities screen's shapes, toasts and e-mail list rule; the zod schemas are in schemas.server.ts (zod stays out of the browser). */

// ---------------------------------------------------------------------------------------------
// Data shapes (spec 2 §3, spec 3 §3)

// The shapes are the platform's contract (platform/contract/entities.ts): declared once.
export type { Entity, EntityContact } from "../../../platform/contract/entities.ts";

/** The addresses of a comma separated list: trimmed, without blanks and case-insensitive repeats. */
export function splitEmails(value: string | null | undefined): string[] {
  const seen = new Set<string>();
  return (value ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e.length > 0 && !seen.has(e.toLowerCase()) && Boolean(seen.add(e.toLowerCase())));
}

/** Success toasts (the spec gives no wording for them). */
export const toastText = {
  created: "Entity created.",
  updated: "Entity updated.",
  parentAssigned: entityMessages.parentAssigned,
  parentCleared: entityMessages.parentCleared,
  removed: "Entity removed.",
} as const;

