/**
 * The value of cookie `name` in a Cookie header, or null when absent: without parsing the whole
 * header into an object. A quoted value is unquoted and a %-encoded one decoded (a value that
 * does not decode is returned as it is).
 */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  let start = 0;
  while (start < header.length) {
    let end = header.indexOf(";", start);
    if (end === -1) end = header.length;
    const eq = header.indexOf("=", start);
    if (eq !== -1 && eq < end && header.slice(start, eq).trim() === name) {
      let value = header.slice(eq + 1, end).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      try {
        return value.includes("%") ? decodeURIComponent(value) : value;
      } catch {
        return value;
      }
    }
    start = end + 1;
  }
  return null;
}
