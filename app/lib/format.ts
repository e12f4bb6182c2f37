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

/**
 * Bytes as text, the console's one way: '512 B', '1.5 KB', '10 GB'. Units of 1024, as the spec
 * counts them (spec 1 §5: '10 GB (10737418240 bytes)'); en-US grouping, the same on the server and
 * in the browser.
 */
// Made once: toLocaleString with options builds a new Intl.NumberFormat per call (~30 µs each).
const wholeBytes = new Intl.NumberFormat("en-US");
const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return "—";
  if (Math.abs(n) < 1024) return `${wholeBytes.format(n)} B`;
  const units = ["KB", "MB", "GB", "TB", "PB"];
  let v = n / 1024;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${oneDecimal.format(v)} ${units[i]}`;
}
