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
/** One en-US formatter per number of decimals, made on first use (issue 60): see formatNumber. */
const numberFormats = new Map<number, Intl.NumberFormat>();

/**
 * A number as en-US text with at most `maximumFractionDigits` decimals (3, as
 * `n.toLocaleString("en-US")`): '1,234.5'. Every number of the console's pages goes through it.
 * Measured in Chromium at Lighthouse's 4× slower CPU (issue 60): `toLocaleString("en-US")` makes a
 * new Intl.NumberFormat on each call (200 calls: 16–154 ms; one formatter's 200 calls: ~1 ms), and
 * the page's first formatter loads the locale's data (120–190 ms). So each formatter is made once,
 * and only when a number is first shown: made at a module's top level, it cost every page whose
 * script imports this module that time at start-up, numbers shown or not.
 */
export function formatNumber(n: number, maximumFractionDigits = 3): string {
  let format = numberFormats.get(maximumFractionDigits);
  if (!format) numberFormats.set(maximumFractionDigits, (format = new Intl.NumberFormat("en-US", { maximumFractionDigits })));
  return format.format(n);
}

export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return "—";
  if (Math.abs(n) < 1024) return `${formatNumber(n)} B`;
  const units = ["KB", "MB", "GB", "TB", "PB"];
  let v = n / 1024;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${formatNumber(v, 1)} ${units[i]}`;
}
