import { formatTime } from "../lib/format.ts";
import { escapeHtml } from "./static-html.ts";

/*
 * What a table cell may be, in the type checker: text, a number, nothing, or static markup built
 * with `h(...)`, or a list of those. JSX is not a `CellContent` (a cell's JSX could carry an event
 * handler or a hook, which rows written as markup cannot run: docs/decisions/
 * 2026-11-23-table-rows-as-markup.md), so a wrong cell fails in `tsc`, not in a test at run time.
 *
 *   cell: (r) => r.name || h("span", { class: "italic" }, "(no name)")
 *
 * `h` writes its HTML at once (escaped like React escapes), so a row costs one string join.
 * Attributes use their HTML names (`class`, `for`, `aria-label`); `on…` attributes are refused by
 * the type (and at run time), so no script rides in a cell.
 */

declare const staticBrand: unique symbol;

/** Markup made by `h`: the only non-text cell content. */
export interface StaticNode {
  readonly [staticBrand]: true;
  readonly html: string;
}

export type CellContent = string | number | null | undefined | false | StaticNode | readonly CellContent[];

type AttrValue = string | number | boolean | null | undefined;

/** HTML attributes by their HTML names; event-handler attributes are `never`. */
export type StaticAttrs = { [name: string]: AttrValue } & { [K in `on${string}`]?: never };

/** The HTML tag names (lower-case); `h` refuses anything else. */
export type StaticTag = keyof HTMLElementTagNameMap;

const VOID = new Set(["area", "br", "col", "hr", "img", "input", "wbr", "source", "track"]);
const NAME = /^[a-z][a-z0-9-]*$/;

function node(html: string): StaticNode {
  // why: a StaticNode is branded so that only this module makes one; its one field is the markup.
  return { html } as unknown as StaticNode;
}

function isStatic(value: unknown): value is StaticNode {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { html?: unknown }).html === "string";
}

/** The HTML of a cell's content. */
export function cellHtml(content: CellContent): string {
  if (content === null || content === undefined || content === false) return "";
  if (typeof content === "string") return escapeHtml(content);
  if (typeof content === "number") return String(content);
  if (Array.isArray(content)) {
    let out = "";
    for (const part of content as readonly CellContent[]) out += cellHtml(part);
    return out;
  }
  if (isStatic(content)) return content.html;
  throw new Error(`cell: cannot render ${Object.prototype.toString.call(content)} (build markup with h())`);
}

/** An element of static markup: `h("span", { class: "font-mono" }, id)`. */
export function h(tag: StaticTag, attrs?: StaticAttrs | null, ...children: CellContent[]): StaticNode {
  let out = "<" + tag;
  if (attrs) {
    for (const name in attrs) {
      const value = attrs[name];
      if (value === undefined || value === null || value === false) continue;
      if (!NAME.test(name) || name.startsWith("on")) throw new Error(`cell: attribute "${name}" is not allowed`);
      out += value === true ? ` ${name}=""` : ` ${name}="${escapeHtml(String(value))}"`;
    }
  }
  out += ">";
  if (VOID.has(tag)) return node(out);
  for (const child of children) out += cellHtml(child);
  return node(out + "</" + tag + ">");
}

/** A time cell: `<time datetime>` with the console's format ('2025-03-01 14:05 UTC'); nothing when absent. */
export function timeCell(iso: string | null | undefined): StaticNode | null {
  return iso ? h("time", { datetime: iso }, formatTime(iso)) : null;
}

/**
 * An identifier cell (a device, node, service or entity id): monospace and small, and never broken
 * at its hyphens ('metro-' above 'ly926zh8pffq'), so ids line up and read as one token; nothing when
 * absent. Every id column uses it, so ids look alike on every screen.
 */
export function idCell(id: string | null | undefined): StaticNode | null {
  return id ? h("code", { class: ID_CLASS }, id) : null;
}

/** How an id is drawn, in DataTable's rows (`idCell`) and in React (simple-table.tsx `IdText`). */
export const ID_CLASS = "text-xs whitespace-nowrap";
