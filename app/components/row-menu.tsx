import { useEffect, type ReactNode } from "react";
import { Form } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { escapeHtml, writeHtml } from "./static-html.ts";
import { BoundedMemo } from "../lib/bounded-memo.ts";

/*
 * A row menu: <details>/<summary> with links (that open dialogs by URL) and buttons (POST forms
 * with the CSRF token and an intent). Works without JavaScript; with it, useMenuBehavior() adds
 * ArrowUp/ArrowDown/Home/End between items, Escape (closes, focus back on the summary), closing on
 * an outside click and when another menu opens. <DataTable> installs that behaviour for its rows.
 *
 * A pure function component (no hooks), because a table renders one per row.
 */

export type MenuItem =
  /** Opens this page's dialog `dialog` for the menu's row (`<RowMenu links={links} id={…}>`). */
  | { label: string; dialog: string; disabled?: boolean; danger?: boolean }
  /** Opens a dialog or another page: `href: links.dialog("edit", id)`. */
  | { label: string; href: string; disabled?: boolean; danger?: boolean }
  /** Posts `intent` (+ fields) to the route's action. */
  | { label: string; intent: string; fields?: Record<string, string>; disabled?: boolean; danger?: boolean };

export interface RowMenuProps {
  /** The accessible name of the menu button, e.g. "Actions for Ada Lovelace". */
  label: string;
  items: readonly MenuItem[];
  /** Open upward (the last rows of a table, so the menu is not cut off). */
  up?: boolean;
  /** Align the menu's right edge with the button (default) or its left edge. */
  align?: "end" | "start";
  /** The visible button content; default a vertical ellipsis. */
  button?: ReactNode;
  className?: string;
  /**
   * The CSRF token for POST items. In a <DataTable> row pass `links.csrf`: the rows are static
   * markup there, so the items are plain forms (the table submits them through the router).
   * Without it, POST items are router <Form>s that read the token themselves.
   */
  csrf?: string;
  /** For `dialog` items: the table's links (`links` of `rowMenu`) and the row's id. */
  links?: DialogLinks;
  id?: string;
}

/** What `dialog` items need of a table's links (TableLinks has both). */
export interface DialogLinks {
  /** This page with the dialog `name` open for `id`. */
  dialog: (name: string, id?: string) => string;
  /**
   * The start of that href up to the row's id, HTML-escaped (`?size=50&amp;dialog=edit&amp;id=`),
   * made once per table render: a 50-row table writes ~350 of these links, and building and
   * escaping each whole href was most of a row's cost.
   */
  dialogHtml: (name: string) => string;
}

const VERTICAL_ELLIPSIS = { __html: "&#x22EE;" };

/*
 * A POST item's button. Its form carries no padding (the form is the menu's item, the button
 * fills it so that all of it submits), so the button has the padding daisyUI gives a menu item
 * (0.75rem × 0.375rem): its label lines up with the links above and below it.
 */
const POST_ITEM = "w-full text-left px-3 py-1.5";

export function RowMenu({ label, items, up = false, align = "end", button, className = "", csrf, links, id }: RowMenuProps) {
  return (
    <details className={`dropdown ${align === "end" ? "dropdown-end" : ""} ${up ? "dropdown-top" : ""} ${className}`} data-menu="">
      <summary className="btn btn-ghost btn-sm btn-square" aria-label={label}>
        {button ?? (
          // A character reference, not the character: the rows of a table stay one-byte text.
          <span aria-hidden="true" className="text-lg leading-none" dangerouslySetInnerHTML={VERTICAL_ELLIPSIS} />
        )}
      </summary>
      <ul className="menu dropdown-content kit-menu">
        {items.map((item) => (
          <li key={item.label} className={item.disabled ? "menu-disabled" : undefined}>
            {renderItem(item, csrf, links, id)}
          </li>
        ))}
      </ul>
    </details>
  );
}

/*
 * The same markup as a string, for table rows (static-html.ts calls it instead of walking the
 * JSX: a 50-row table has 500 menu elements). static-html.test.tsx checks it against React's
 * rendering of the component above.
 */
function rowMenuHtml(props: RowMenuProps): string {
  const out: string[] = [];
  writeRowMenuHtml(props, out);
  return out.join("");
}

/*
 * Writes into the table's one array of pieces (joined once for all rows): literal pieces cost no
 * allocation, where concatenating each menu into a string of its own made ~2 KB of garbage per row.
 * <DataTable> calls it directly, so a list page's JavaScript holds no RowMenu component.
 */
export function writeRowMenuHtml({ label, items, up = false, align = "end", button, className = "", csrf, links, id }: RowMenuProps, out: string[]): void {
  out.push(
    '<details class="',
    escapeHtml(`dropdown ${align === "end" ? "dropdown-end" : ""} ${up ? "dropdown-top" : ""} ${className}`),
    '" data-menu=""><summary class="btn btn-ghost btn-sm btn-square" aria-label="',
    escapeHtml(label),
    '">',
  );
  if (button === undefined || button === null) out.push(`<span aria-hidden="true" class="text-lg leading-none">${VERTICAL_ELLIPSIS.__html}</span>`);
  else writeHtml(button, out);
  out.push('</summary><ul class="menu dropdown-content kit-menu">');
  let idHtml: string | undefined;
  for (const item of items) {
    const tone = item.danger ? ' class="text-error"' : "";
    const text = escapeHtml(item.label);
    if (item.disabled) out.push('<li class="menu-disabled"><button type="button" disabled="" aria-disabled="true">', text, "</button></li>");
    else if ("dialog" in item) {
      if (!links) return dialogItemsUnsupported();
      if (id) out.push(cached(linkStarts, links.dialogHtml(item.dialog), linkStart), (idHtml ??= escapeHtml(encodeURIComponent(id))), cached(linkEnds, item.danger ? `!${item.label}` : item.label, linkEnd));
      else out.push('<li><a href="', escapeHtml(links.dialog(item.dialog)), '"', tone, ">", text, "</a></li>");
    } else if ("href" in item) out.push('<li><a href="', escapeHtml(item.href), '"', tone, ">", text, "</a></li>");
    else if (csrf === undefined) return staticHtmlUnsupported();
    else {
      out.push('<li><form method="post" class="p-0"><input type="hidden" name="csrf" value="', escapeHtml(csrf), '"/><input type="hidden" name="intent" value="', escapeHtml(item.intent), '"/>');
      for (const [name, value] of Object.entries(item.fields ?? {})) out.push('<input type="hidden" name="', escapeHtml(name), '" value="', escapeHtml(value), '"/>');
      out.push('<button type="submit" class="', escapeHtml(`${POST_ITEM} ${item.danger ? "text-error" : ""}`), '">', text, "</button></form></li>");
    }
  }
  out.push("</ul></details>");
}

/*
 * A dialog item is three pieces: its start (up to the row's id), the id, its end (the label). The
 * starts and ends are the same in every row, so they are made once (bounded: a few per table).
 */
const linkStarts = new BoundedMemo<string, string>({ maxEntries: 256 });
const linkEnds = new BoundedMemo<string, string>({ maxEntries: 256 });
const linkStart = (hrefStart: string) => `<li><a href="${hrefStart}`;
const linkEnd = (key: string) => (key.startsWith("!") ? `" class="text-error">${escapeHtml(key.slice(1))}</a></li>` : `">${escapeHtml(key)}</a></li>`);

const cached = (memo: BoundedMemo<string, string>, key: string, make: (key: string) => string) => memo.remember(key, () => make(key));

function dialogItemsUnsupported(): never {
  throw new Error("RowMenu: `dialog` items need links={links} (and id) from the table's rowMenu");
}

function staticHtmlUnsupported(): never {
  throw new Error("static-html: a RowMenu with POST items in a table row needs csrf={links.csrf}");
}

RowMenu.staticHtml = rowMenuHtml;
RowMenu.writeHtml = writeRowMenuHtml;

function renderItem(item: MenuItem, csrf: string | undefined, links: DialogLinks | undefined, id: string | undefined) {
  const tone = item.danger ? "text-error" : undefined;
  if (item.disabled) {
    // A disabled button: announced as unavailable, dimmed by daisyUI's `menu-disabled` on its <li>
    // (on the item itself the class styles nothing), out of the tab order and the arrow keys.
    return (
      <button type="button" disabled aria-disabled="true">
        {item.label}
      </button>
    );
  }
  if ("dialog" in item || "href" in item) {
    let href: string;
    if ("dialog" in item) {
      if (!links) return dialogItemsUnsupported();
      href = links.dialog(item.dialog, id);
    } else href = item.href;
    return (
      <a href={href} className={tone}>
        {item.label}
      </a>
    );
  }
  const fields = (
    <>
      {csrf !== undefined ? <input type="hidden" name="csrf" value={csrf} /> : <AuthenticityTokenInput name="csrf" />}
      <input type="hidden" name="intent" value={item.intent} />
      {Object.entries(item.fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={`${POST_ITEM} ${tone ?? ""}`}>
        {item.label}
      </button>
    </>
  );
  // In a table row (csrf given) a plain form, submitted through the router by the table; elsewhere a router <Form>.
  return csrf !== undefined ? (
    <form method="post" className="p-0">
      {fields}
    </form>
  ) : (
    <Form method="post" className="p-0">
      {fields}
    </Form>
  );
}

/*
 * Menus inside a scrolling table container would be cut off by it. Where CSS anchor positioning
 * exists, the open menu is `position: fixed`, anchored to its button (so nothing clips it) and
 * flips above the button when there is no room below. Elsewhere it stays a plain absolute dropdown.
 */
const menuCss = `.kit-menu { background: var(--color-base-100); border: 1px solid var(--color-base-300); border-radius: var(--radius-box); z-index: 20; width: 13rem; padding: .25rem; box-shadow: 0 10px 15px -3px rgb(0 0 0 / .1), 0 4px 6px -4px rgb(0 0 0 / .1); }
.kit-table tbody tr:has(a.kit-select):hover { background: var(--color-base-200); cursor: pointer; }
.kit-table tbody tr[aria-selected=true] { background: var(--kit-row-selected); }
@supports (anchor-name: --a) and (anchor-scope: --a) and (position-try-fallbacks: flip-block) {
details[data-menu] { anchor-scope: --kit-menu; }
details[data-menu] > summary { anchor-name: --kit-menu; }
details[data-menu] > .dropdown-content {
  position: fixed; position-anchor: --kit-menu; position-area: none; inset: auto; translate: none;
  top: anchor(bottom); margin-top: 4px; right: anchor(right);
  position-try-fallbacks: flip-block; max-height: 70vh; overflow-y: auto;
}
details[data-menu].dropdown-top > .dropdown-content { top: auto; bottom: anchor(top); margin: 0 0 4px; }
details[data-menu]:not(.dropdown-end) > .dropdown-content { right: auto; left: anchor(left); }
}`;

/** The kit's shared CSS (row menus, table rows), once per page (React hoists and de-duplicates it). <DataTable> renders it. */
export function MenuStyles() {
  return (
    <style href="kit-row-menu" precedence="default">
      {menuCss}
    </style>
  );
}

let installed = 0;
let teardown: (() => void) | null = null;

function items(details: HTMLDetailsElement): HTMLElement[] {
  // The menu's links and buttons (and the column chooser's checkboxes).
  return Array.from(details.querySelectorAll<HTMLElement>(".dropdown-content :is(a[href], button:not(:disabled), input:not([type='hidden']):not(:disabled))"));
}

function closeMenu(details: HTMLDetailsElement, focusSummary: boolean) {
  details.open = false;
  if (focusSummary) details.querySelector("summary")?.focus();
}

function install() {
  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement | null;
    const details = target?.closest?.("details[data-menu]") as HTMLDetailsElement | null;
    if (!details) return;
    if (event.key === "Escape" && details.open) {
      event.preventDefault();
      event.stopPropagation();
      closeMenu(details, true);
      return;
    }
    const list = items(details);
    if (!list.length) return;
    const index = list.indexOf(target as HTMLElement);
    let next: HTMLElement | undefined;
    if (event.key === "ArrowDown") {
      if (!details.open) details.open = true;
      next = list[index < 0 ? 0 : (index + 1) % list.length];
    } else if (event.key === "ArrowUp") {
      if (!details.open) details.open = true;
      next = list[index < 0 ? list.length - 1 : (index - 1 + list.length) % list.length];
    } else if (event.key === "Home" && index >= 0) {
      next = list[0];
    } else if (event.key === "End" && index >= 0) {
      next = list[list.length - 1];
    }
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };
  const onClick = (event: MouseEvent) => {
    const target = event.target as Element | null;
    const inside = target?.closest?.("details[data-menu]");
    document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]").forEach((d) => {
      if (d !== inside) d.open = false;
    });
  };
  const onToggle = (event: Event) => {
    const details = event.target as HTMLDetailsElement;
    if (!(details instanceof HTMLDetailsElement) || !details.matches("[data-menu]") || !details.open) return;
    // One menu open at a time.
    document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]").forEach((d) => {
      if (d !== details) d.open = false;
    });
  };
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("click", onClick);
  document.addEventListener("toggle", onToggle, true);
  return () => {
    document.removeEventListener("keydown", onKeyDown);
    document.removeEventListener("click", onClick);
    document.removeEventListener("toggle", onToggle, true);
  };
}

/** Keyboard and outside-click behaviour for every row menu on the page (installed once, however many callers). */
export function useMenuBehavior() {
  useEffect(() => {
    if (installed++ === 0) teardown = install();
    return () => {
      if (--installed === 0) {
        teardown?.();
        teardown = null;
      }
    };
  }, []);
}
