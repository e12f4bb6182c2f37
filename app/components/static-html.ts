import { Fragment, isValidElement, type ReactElement, type ReactNode } from "react";

/*
 * Static markup for simple element trees: HTML elements, text, arrays, fragments and pure
 * function components (no hooks, no context). <DataTable> renders its rows with it (see
 * docs/decisions/2026-11-23-table-rows-as-markup.md): a 50-row page is ~1,300 elements, and
 * building them as one string costs a tenth of what React's streaming renderer spends on the
 * same rows, on the server and in the browser alike. The output is deterministic, so the server's
 * and the browser's strings are the same and hydration keeps the server's DOM.
 *
 * Anything it cannot render statically (an event handler, a component object such as forwardRef,
 * memo, context or Suspense) throws, so a cell that needs React says so at once in the tests.
 */

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/** React prop names whose HTML attribute is spelled otherwise. */
const ATTR: Record<string, string> = {
  className: "class",
  htmlFor: "for",
  tabIndex: "tabindex",
  colSpan: "colspan",
  rowSpan: "rowspan",
  dateTime: "datetime",
  readOnly: "readonly",
  maxLength: "maxlength",
  minLength: "minlength",
  autoComplete: "autocomplete",
  autoFocus: "autofocus",
  defaultValue: "value",
  defaultChecked: "checked",
  acceptCharset: "accept-charset",
  httpEquiv: "http-equiv",
  crossOrigin: "crossorigin",
  encType: "enctype",
  formAction: "formaction",
  formMethod: "formmethod",
  noValidate: "novalidate",
  spellCheck: "spellcheck",
  inputMode: "inputmode",
  enterKeyHint: "enterkeyhint",
  // SVG presentation attributes
  strokeWidth: "stroke-width",
  strokeLinecap: "stroke-linecap",
  strokeLinejoin: "stroke-linejoin",
  strokeDasharray: "stroke-dasharray",
  strokeOpacity: "stroke-opacity",
  fillRule: "fill-rule",
  fillOpacity: "fill-opacity",
  clipRule: "clip-rule",
  clipPath: "clip-path",
  textAnchor: "text-anchor",
  dominantBaseline: "dominant-baseline",
  fontSize: "font-size",
  fontWeight: "font-weight",
  fontFamily: "font-family",
  stopColor: "stop-color",
  vectorEffect: "vector-effect",
  preserveAspectRatio: "preserveAspectRatio",
};

/** Attributes written without a value when true and left out when false. */
const BOOLEAN = new Set([
  "checked",
  "disabled",
  "hidden",
  "open",
  "selected",
  "readonly",
  "required",
  "multiple",
  "autofocus",
  "novalidate",
  "formnovalidate",
  "inert",
  "reversed",
  "default",
  "async",
  "defer",
  "allowfullscreen",
  "controls",
  "loop",
  "muted",
  "playsinline",
  "itemscope",
]);

const SKIP = new Set(["children", "key", "ref", "dangerouslySetInnerHTML", "suppressHydrationWarning", "suppressContentEditableWarning"]);

const SPECIAL = /[&<>"']/;
const OTHER_SPECIAL = /[<>"']/;

/** Text and attribute values, escaped as React escapes them. */
export function escapeHtml(text: string): string {
  // Most values (names, ids, hrefs without &) need nothing: a regular expression finds that
  // faster than a loop over the characters.
  if (!SPECIAL.test(text)) return text;
  // Hrefs with a query (every row menu's links) hold only "&": a native replaceAll is ~40% faster.
  if (!OTHER_SPECIAL.test(text)) return text.replaceAll("&", "&amp;");
  let out = "";
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    let replacement: string;
    switch (text.charCodeAt(i)) {
      case 38:
        replacement = "&amp;";
        break;
      case 60:
        replacement = "&lt;";
        break;
      case 62:
        replacement = "&gt;";
        break;
      case 34:
        replacement = "&quot;";
        break;
      case 39:
        replacement = "&#x27;";
        break;
      default:
        continue;
    }
    if (i > last) out += text.slice(last, i);
    out += replacement;
    last = i + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

function styleText(style: Record<string, unknown>): string {
  let out = "";
  for (const [key, value] of Object.entries(style)) {
    if (value === null || value === undefined || value === "" || typeof value === "boolean") continue;
    const name = key.startsWith("--") ? key : key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/^ms-/, "-ms-");
    out += `${name}:${value};`;
  }
  return out;
}

function attributes(props: Record<string, unknown>, tag: string): string {
  let out = "";
  for (const key in props) {
    if (SKIP.has(key)) continue;
    const value = props[key];
    if (value === undefined || value === null) continue;
    if (key.length > 2 && key.startsWith("on") && key[2]! >= "A" && key[2]! <= "Z") {
      throw new Error(`static-html: <${tag} ${key}> has an event handler; table rows take none (the table delegates events)`);
    }
    if (typeof value === "function" || typeof value === "symbol") continue;
    const name = ATTR[key] ?? (key.startsWith("aria-") || key.startsWith("data-") ? key : key === "viewBox" ? key : key.toLowerCase());
    if (key === "style" && typeof value === "object") {
      const css = styleText(value as Record<string, unknown>);
      if (css) out += ` style="${escapeHtml(css)}"`;
      continue;
    }
    if (BOOLEAN.has(name)) {
      if (value) out += ` ${name}=""`;
      continue;
    }
    if (typeof value === "boolean") {
      // aria-* and data-* keep "true"/"false"; others (draggable, spellcheck) too, as React does.
      out += ` ${name}="${value}"`;
      continue;
    }
    out += ` ${name}="${escapeHtml(String(value))}"`;
  }
  return out;
}

function elementName(type: unknown): string {
  if (typeof type === "string") return type;
  if (typeof type === "function") return type.name || "anonymous";
  const t = type as { displayName?: string; $$typeof?: symbol } | null;
  return t?.displayName ?? String(t?.$$typeof?.description ?? type);
}

/** The HTML of `node`. */
export function staticHtml(node: ReactNode): string {
  const out: string[] = [];
  write(node, out);
  // One join: a flat string (appending piecewise builds a deep rope that React's byte count and
  // the socket write would flatten again).
  return out.join("");
}

/** Writes the HTML of `node` into `out` (pieces to be joined once, as a table does for all its rows). */
export function writeHtml(node: ReactNode, out: string[]): void {
  write(node, out);
}

function write(node: ReactNode, out: string[]): void {
  if (node === null || node === undefined || typeof node === "boolean") return;
  if (typeof node === "string") {
    out.push(escapeHtml(node));
    return;
  }
  if (typeof node === "number" || typeof node === "bigint") {
    out.push(String(node));
    return;
  }
  if (Array.isArray(node)) {
    for (const child of node) write(child as ReactNode, out);
    return;
  }
  if (!isValidElement(node)) {
    if (typeof (node as Iterable<ReactNode>)[Symbol.iterator] === "function") {
      for (const child of node as Iterable<ReactNode>) write(child, out);
      return;
    }
    throw new Error(`static-html: cannot render ${Object.prototype.toString.call(node)}`);
  }
  const element = node as ReactElement<Record<string, unknown>>;
  const { type, props } = element;
  if (type === Fragment) {
    write(props.children as ReactNode, out);
    return;
  }
  if (typeof type === "function") {
    // A component may bring its own string form (RowMenu does: it is in every row).
    const own = (type as { writeHtml?: (p: unknown, out: string[]) => void }).writeHtml;
    if (own) {
      own(props, out);
      return;
    }
    // A pure function component: call it. (A class or a component using hooks throws here.)
    write((type as (p: unknown) => ReactNode)(props), out);
    return;
  }
  if (typeof type !== "string") {
    throw new Error(`static-html: <${elementName(type)}> is not a plain element or pure function component`);
  }
  if (VOID.has(type)) {
    out.push("<" + type + attributes(props, type) + "/>");
    return;
  }
  out.push("<" + type + attributes(props, type) + ">");
  const inner = props.dangerouslySetInnerHTML as { __html?: string } | undefined;
  if (inner?.__html !== undefined) out.push(inner.__html);
  else if (type === "textarea" && props.defaultValue !== undefined) out.push(escapeHtml(String(props.defaultValue)));
  else {
    const children = props.children;
    if (typeof children === "string") out.push(escapeHtml(children));
    else write(children as ReactNode, out);
  }
  out.push("</" + type + ">");
}
