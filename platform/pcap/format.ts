/**
 * Text formatting shared by the analyzer and the CLI: addresses as tshark prints them,
 * exact decimal timestamps, and JSON laid out like Python's `json.dump(indent=1)` so the
 * CLI output can be diffed line by line against the oracle's expected/*.json.
 */

export function ipv4ToString(a: number): string {
  return `${a >>> 24}.${(a >>> 16) & 255}.${(a >>> 8) & 255}.${a & 255}`;
}

/**
 * IPv6 text as glibc's inet_ntop (used by tshark 4.0) writes it: lower-case hex, the
 * longest run (>= 2) of zero groups compressed to "::" (first one on a tie), and
 * IPv4-mapped / IPv4-compatible addresses with a dotted-quad tail.
 */
export function ipv6ToString(w0: number, w1: number, w2: number, w3: number): string {
  const g = [w0 >>> 16, w0 & 0xffff, w1 >>> 16, w1 & 0xffff, w2 >>> 16, w2 & 0xffff, w3 >>> 16, w3 & 0xffff];
  let bestBase = -1;
  let bestLen = 0;
  let curBase = -1;
  let curLen = 0;
  for (let i = 0; i < 8; i++) {
    if (g[i] === 0) {
      if (curBase === -1) {
        curBase = i;
        curLen = 1;
      } else curLen++;
    } else if (curBase !== -1) {
      if (bestBase === -1 || curLen > bestLen) {
        bestBase = curBase;
        bestLen = curLen;
      }
      curBase = -1;
    }
  }
  if (curBase !== -1 && (bestBase === -1 || curLen > bestLen)) {
    bestBase = curBase;
    bestLen = curLen;
  }
  if (bestBase !== -1 && bestLen < 2) bestBase = -1;
  let out = "";
  for (let i = 0; i < 8; i++) {
    if (bestBase !== -1 && i >= bestBase && i < bestBase + bestLen) {
      if (i === bestBase) out += ":";
      continue;
    }
    if (i !== 0) out += ":";
    // embedded IPv4: ::a.b.c.d (compatible) and ::ffff:a.b.c.d (mapped)
    if (i === 6 && bestBase === 0 && (bestLen === 6 || (bestLen === 5 && g[5] === 0xffff))) {
      out += ipv4ToString(w3);
      break;
    }
    out += g[i].toString(16);
  }
  if (bestBase !== -1 && bestBase + bestLen === 8) out += ":";
  return out;
}

export function endpointToString(v6: boolean, w0: number, w1: number, w2: number, w3: number, port: number): string {
  return v6 ? `[${ipv6ToString(w0, w1, w2, w3)}]:${port}` : `${ipv4ToString(w0)}:${port}`;
}

/** Exact decimal text of a time given as whole seconds + nanoseconds ("1234.000500000"). */
export function timeToString(sec: number, nsec: number): string {
  if (sec >= 0 && nsec >= 0 && nsec < 1e9 && Number.isSafeInteger(sec)) {
    return `${sec}.${String(nsec).padStart(9, "0")}`;
  }
  return nanosToString(BigInt(sec) * 1000000000n + BigInt(nsec));
}

/** Exact decimal text of a signed count of nanoseconds. */
export function nanosToString(ns: bigint): string {
  const neg = ns < 0n;
  const a = neg ? -ns : ns;
  const s = `${a / 1000000000n}.${(a % 1000000000n).toString().padStart(9, "0")}`;
  return neg ? "-" + s : s;
}

/** Difference b - a of two (sec, nsec) times, as exact decimal text. */
export function timeDiffString(aSec: number, aNsec: number, bSec: number, bNsec: number): string {
  return nanosToString((BigInt(bSec) - BigInt(aSec)) * 1000000000n + BigInt(bNsec - aNsec));
}

/** A float64 that must be printed as a float (Python prints 3.0, not 3). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Python's repr() of a float. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // shortest round-trip digits, then Python's layout rules
  const e = x.toExponential(); // like "1.2345e+13" with shortest digits
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(e);
  if (!m) return String(x);
  const sign = m[1];
  const digits = m[2] + (m[3] ?? "");
  const exp = parseInt(m[4], 10);
  if (exp < -4 || exp >= 16) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const es = exp < 0 ? `-${String(-exp).padStart(2, "0")}` : `+${String(exp).padStart(2, "0")}`;
    return `${sign}${mant}e${es}`;
  }
  if (exp >= 0) {
    const intPart = digits.length > exp + 1 ? digits.slice(0, exp + 1) : digits.padEnd(exp + 1, "0");
    const frac = digits.length > exp + 1 ? digits.slice(exp + 1) : "0";
    return `${sign}${intPart}.${frac}`;
  }
  return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
}

function pyString(s: string): string {
  // json.dumps with ensure_ascii=True
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x0c) out += "\\f";
    else if (c < 0x20 || c > 0x7e) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += s[i];
  }
  return out + '"';
}

/**
 * JSON text laid out like Python's json.dump(obj, indent=1). Numbers print as integers
 * when they are whole, except under the keys in `floatKeys` (or wrapped in PyFloat),
 * which print like Python floats ("3.0").
 */
export function pyJson(value: unknown, floatKeys: ReadonlySet<string> = new Set(), level = 0, isFloat = false): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (typeof value === "number") return isFloat || !Number.isInteger(value) ? pyFloatRepr(value) : String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return pyString(value);
  const pad = " ".repeat(level + 1);
  const close = " ".repeat(level);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return "[\n" + value.map((v) => pad + pyJson(v, floatKeys, level + 1)).join(",\n") + "\n" + close + "]";
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  return (
    "{\n" +
    entries.map(([k, v]) => pad + pyString(k) + ": " + pyJson(v, floatKeys, level + 1, floatKeys.has(k))).join(",\n") +
    "\n" +
    close +
    "}"
  );
}
