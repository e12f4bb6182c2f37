/*
 * One wording and format for the same things in every table, screen and CSV export (issue 9):
 * times as '2025-03-01 14:05 UTC' (the same text on the server and in any browser); contact types
 * as the spec writes them (GET contact-types: 'business'), several joined by ', '.
 */

/** '2025-03-01 14:05 UTC', or '' for none; an unreadable value is shown as it came. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** 'business,technical' → 'business, technical'. */
export const formatTypes = (joined: string) =>
  joined
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .join(", ");
