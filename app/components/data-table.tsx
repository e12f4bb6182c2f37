import { Component, createRef, useEffect, useRef, type MouseEvent as ReactMouseEvent, type ReactNode } from "react";
import { Form, useLocation, useNavigate, useSubmit } from "react-router";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { tableRows } from "../lib/table-rows.ts";
import type { TablePage } from "../lib/table.server.ts";
import { applyParams, DIALOG_PARAMS, hrefWith, keptParams, queryString, type ParamChanges } from "../lib/url.ts";
import { useHydrated } from "./hooks.ts";
import { plainClick, routerCanFollow, routerPath } from "./query-link.tsx";
import { MenuStyles, useMenuBehavior, writeRowMenuHtml, type DialogLinks, type MenuItem } from "./row-menu.tsx";
import { cellHtml, type CellContent } from "./cell.ts";
import { escapeHtml, staticHtml } from "./static-html.ts";
import { BoundedMemo } from "../lib/bounded-memo.ts";

/*
 * The server-driven data table. The loader pages the rows (app/lib/table.server.ts); this renders
 * them as a real <table> whose every control is a link or a GET form, so it all works without
 * JavaScript: sort links in the headers, a search form, selection links/checkboxes (`selected=`),
 * page links and a page-size form, a column chooser (`cols=`). With JavaScript the same links and
 * forms navigate on the client, the search submits itself 250 ms after typing stops, checkboxes
 * and selects apply at once, and a click anywhere on a row selects it.
 *
 * The rows are written as one string of markup (static-html.ts) into the <tbody>, on the server
 * and in the browser alike: cells are text or `h()` markup (app/components/cell.ts) and row menus
 * plain JSX of HTML elements and pure function components (no hooks, no event handlers), and the table handles their clicks, changes and
 * submits by delegation. That keeps a 50-row page cheap to render
 * (docs/decisions/2026-11-23-table-rows-as-markup.md). See app/components/README.md.
 */

export interface Column<T> {
  /** Unique; also the `sort=` and `cols=` value. */
  id: string;
  /** Column header text. */
  header: string;
  /**
   * The cell's content: text, a number, or static markup built with `h()` (app/components/cell.ts).
   * JSX is refused by the type checker: rows are written as markup and run no React code.
   */
  cell: (row: T) => CellContent;
  /**
   * The header is a sort link. Default: the id is in the loader's `sortable` (parseTableQuery's,
   * the contract's sortable list: platform/contract/<area>.ts); `false` turns it off.
   */
  sortable?: boolean;
  /** Hidden until shown with the column chooser (the loader must list the id in `hideable`). */
  hidden?: boolean;
  /** Classes for the <td> (and <th>). */
  className?: string;
}

/** Hrefs a row menu or a cell needs, built cheaply from the current URL. */
export interface TableLinks extends DialogLinks {
  /** This page with the dialog `name` open for `id`: `?…&dialog=edit&id=con-1`. */
  dialog: (name: string, id?: string) => string;
  /** This page with only this row selected. */
  select: (id: string) => string;
  /** This page with some parameters changed. */
  with: (changes: ParamChanges) => string;
  /** The page's CSRF token, for POST items of a row menu (`<RowMenu csrf={links.csrf}>`). */
  csrf: string;
}

/** A row's menu in a DataTable (rendered as a <RowMenu>: row-menu.tsx). */
export interface RowMenuSpec {
  /** The accessible name of the menu button, e.g. "Actions for Ada Lovelace". */
  label: string;
  /** `{label, dialog}` opens this page's dialog for the row; `{label, href}`; `{label, intent, fields}` posts. */
  items: readonly MenuItem[];
  /** Open upward whatever the row's place (the table opens the last rows' menus upward itself). */
  up?: boolean;
}

export interface DataTableProps<T> {
  /** The table's accessible name (a visually hidden <caption>), e.g. "Contacts". */
  caption: string;
  columns: readonly Column<T>[];
  /** From the loader: pageRows(rows, state, …). */
  page: TablePage<T>;
  getRowId: (row: T) => string;
  /** A row's name for screen readers: "Select {name}", "Actions for {name}". */
  rowLabel: (row: T) => string;
  /**
   * "single": the `linkColumn` cell links to `?selected=id` (and, with JS, a click on the row does).
   * "multiple": that, plus a checkbox per row that adds/removes the row (a GET form; "Select" submits it without JS).
   */
  selection?: "none" | "single" | "multiple";
  /** The column whose cell is the selection link (default: the first visible column). */
  linkColumn?: string;
  /**
   * The row's menu: its label and items (null: none for this row). Pure, like the cells. The table
   * renders it as a <RowMenu> with the row's id, the table's links and CSRF token, opening upward
   * for the last rows (`up: true` forces it). Leave it out for a readonly user (useCanWrite).
   */
  rowMenu?: (row: T, index: number) => RowMenuSpec | null;
  /** Buttons/links shown right of the search (e.g. "Add Contact"). */
  toolbar?: ReactNode;
  /** Show the search form (default true). */
  search?: boolean;
  searchPlaceholder?: string;
  /** When there are no rows at all (default 'No data'). */
  emptyMessage?: string;
  /**
   * Under the empty message, what brings the first row: `createHint(createLabel, canWrite)`
   * (ListScreen does it from the screen's createLabel); nothing for a readonly user.
   */
  emptyHint?: string;
  /** When the search matches nothing (default 'No data found.'). */
  noMatchMessage?: string;
  /** DOM id prefix when a page has several tables (default "table"). */
  id?: string;
}

/** The empty table's hint, naming the toolbar's create button: only for a user who may create. */
export const createHint = (createLabel: string | undefined, canWrite: boolean) => (createLabel && canWrite ? `Use '${createLabel}' to add the first one.` : undefined);

export function DataTable<T>({
  caption,
  columns,
  page,
  getRowId,
  rowLabel,
  selection = "none",
  linkColumn,
  rowMenu,
  toolbar,
  search = true,
  searchPlaceholder = "Search",
  emptyMessage = "No data",
  emptyHint,
  noMatchMessage = "No data found.",
  id = "table",
}: DataTableProps<T>) {
  const location = useLocation();
  const navigate = useNavigate();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const csrfToken = useAuthenticityToken();
  const card = useRef<HTMLDivElement>(null);
  useMenuBehavior();

  const visible = columns.filter((c) => !c.hidden || page.cols.includes(c.id));
  const hideable = columns.filter((c) => c.hidden);
  const linkCol = selection === "none" ? null : (linkColumn ?? visible[0]?.id);
  const selectFormId = `${id}-select`;
  const selected = new Set(page.selected);

  // Prefixes computed once per render, so each row's hrefs are plain string concatenation.
  const withoutDialog = applyParams(location.search, { dialog: null, id: null, index: null });
  const dialogBase = prefix(withoutDialog);
  const selectBase = prefix(applyParams(withoutDialog, { selected: null }));
  const dialogBaseHtml = escapeHtml(dialogBase);
  const dialogHtml = new Map<string, string>();
  const links: TableLinks = {
    dialog: (name, rowId) => `${dialogBase}dialog=${encodeURIComponent(name)}${rowId ? `&id=${encodeURIComponent(rowId)}` : ""}`,
    dialogHtml: (name) => {
      let head = dialogHtml.get(name);
      if (head === undefined) dialogHtml.set(name, (head = `${dialogBaseHtml}dialog=${escapeHtml(encodeURIComponent(name))}&amp;id=`));
      return head;
    },
    select: (rowId) => `${selectBase}selected=${encodeURIComponent(rowId)}`,
    with: (changes) => hrefWith(location, changes),
    csrf: csrfToken,
  };

  /** With JS: links in the table navigate on the client; a click on a row (not on a control) selects it. */
  const refocusAfterClear = useRef(false);
  useEffect(() => {
    if (!refocusAfterClear.current || page.selected.length) return;
    refocusAfterClear.current = false;
    card.current?.querySelector<HTMLElement>("tbody input[type=checkbox], tbody a.kit-select, input[type=search]")?.focus();
  }, [page.selected.length]);

  function onClick(event: ReactMouseEvent<HTMLDivElement>) {
    // A click React replays while it is still hydrating the page: the router's navigate() does
    // nothing before its effects have run, so taking the link over here would lose the click (the
    // URL stayed as it was). Until then the browser follows the link itself.
    if (!hydrated || !plainClick(event)) return;
    const target = event.target as HTMLElement;
    const anchor = target.closest("a[href]") as HTMLAnchorElement | null;
    if (anchor) {
      if (!routerCanFollow(anchor)) return;
      event.preventDefault();
      const menu = anchor.closest("details[data-menu]") as HTMLDetailsElement | null;
      if (menu) {
        menu.open = false;
        // Focus returns here when a dialog opened from the menu closes.
        menu.querySelector("summary")?.focus();
      }
      // 'Clear selection' disappears with the selection: focus then goes to the first row's checkbox (below), not to <body>.
      if (anchor.hasAttribute("data-clear-selection")) refocusAfterClear.current = true;
      void navigate(routerPath(anchor), { preventScrollReset: true });
      return;
    }
    if (selection === "none" || target.closest("button, input, select, textarea, label, summary, details, form")) return;
    const link = target.closest("tr")?.querySelector<HTMLAnchorElement>("a.kit-select");
    if (link) navigate(link.pathname + link.search, { preventScrollReset: true });
  }

  // Native listeners: the rows are markup that React does not manage, so its synthetic change
  // and submit events would not see them.
  const handlers = useRef({ submit });
  handlers.current.submit = submit;
  useEffect(() => {
    const el = card.current;
    if (!el) return;
    const onChange = (event: Event) => {
      // Checkboxes (selection, column chooser) and the page-size select apply at once with JS.
      const input = event.target as HTMLInputElement | HTMLSelectElement;
      const form = input.form;
      if (!form || input.type === "search" || form.getAttribute("method")?.toLowerCase() !== "get") return;
      handlers.current.submit(form, { preventScrollReset: true, replace: input.name !== "selected" });
    };
    const onSubmit = (event: SubmitEvent) => {
      // A POST item of a row menu: submitted by the router, as a <Form> would be.
      const form = event.target as HTMLFormElement;
      if (event.defaultPrevented || !form.closest("tbody") || form.getAttribute("method")?.toLowerCase() !== "post") return;
      event.preventDefault();
      const menu = form.closest("details[data-menu]") as HTMLDetailsElement | null;
      if (menu) menu.open = false;
      handlers.current.submit(form, { method: "post", preventScrollReset: true });
    };
    el.addEventListener("change", onChange);
    el.addEventListener("submit", onSubmit);
    return () => {
      el.removeEventListener("change", onChange);
      el.removeEventListener("submit", onSubmit);
    };
  }, []);

  const from = page.total === 0 ? 0 : (page.page - 1) * page.size + 1;
  const to = Math.min(page.total, page.page * page.size);
  const colCount = visible.length + (selection === "multiple" ? 1 : 0) + (rowMenu ? 1 : 0);
  // The rows' markup, remembered (rowsMemo below) or written; the rows are parsed only to write it.
  const memoKey = page.rowCount === 0 ? null : rowsMemoKey([columns, getRowId, rowLabel, rowMenu], [selection, linkCol ?? "", id, page.cols.join(","), page.selected.join(","), location.search, csrfToken, page.rows]);
  let rowsHtml = memoKey === null ? undefined : rowsMemo.get(memoKey);
  if (rowsHtml === undefined) {
    const rows = tableRows(page);
    const lastRows = rows.length > 3 ? rows.length - 2 : rows.length;
    if (rows.length === 0) {
      rowsHtml = staticHtml(
        <tr>
          <td colSpan={colCount} className="text-base-content/70 py-8 text-center">
            {page.unfiltered === 0 ? emptyMessage : noMatchMessage}
            {page.unfiltered === 0 && emptyHint ? <span className="mt-1 block">{emptyHint}</span> : null}
          </td>
        </tr>,
      );
    } else {
      // The row frame is written directly (it is the same for every table); cells that are plain
      // text skip the serializer, and only JSX cells and the row menu go through it.
      // Phones show rows as cards (app.css): the name cell (the selection link, else the first
      // column) beside the menu, the others under it with their column's name (data-label).
      const nameCol = linkCol ?? visible[0]?.id;
      const cellOpen = visible.map((c) => {
        const cls = [c.className, c.id === nameCol ? "kit-cell-name" : ""].filter(Boolean).join(" ");
        const label = c.id === nameCol ? "" : ` data-label="${escapeHtml(c.header)}"`;
        return cls ? `<td class="${escapeHtml(cls)}"${label}>` : `<td${label}>`;
      });
      const formAttr = escapeHtml(selectFormId);
      const selectBaseHtml = `${escapeHtml(selectBase)}selected=`;
      const parts: string[] = [];
      rows.forEach((row, index) => {
        const rowId = getRowId(row);
        const idText = escapeHtml(rowId);
        const isSelected = selected.has(rowId);
        // Pieces, not template strings: literals cost nothing, and the one join copies each once.
        parts.push('<tr data-row="', idText, isSelected ? '" aria-selected="true">' : '">');
        if (selection === "multiple") {
          parts.push(
            '<td class="kit-cell-check"><input type="checkbox" class="checkbox checkbox-sm" name="selected" value="',
            idText,
            '" form="',
            formAttr,
            isSelected ? '" checked="" aria-label="' : '" aria-label="',
            escapeHtml(`Select ${rowLabel(row)}`),
            '"/></td>',
          );
        }
        for (let i = 0; i < visible.length; i++) {
          const c = visible[i]!;
          const content = cellHtml(c.cell(row));
          if (c.id === linkCol) {
            parts.push(
              cellOpen[i]!,
              '<a href="',
              selectBaseHtml,
              escapeHtml(encodeURIComponent(rowId)),
              isSelected ? '" class="kit-select link link-hover link-primary font-medium" aria-current="true">' : '" class="kit-select link link-hover link-primary font-medium">',
              content,
              "</a></td>",
            );
          } else parts.push(cellOpen[i]!, content, "</td>");
        }
        if (rowMenu) {
          parts.push('<td class="kit-cell-menu text-right">');
          const menu = rowMenu(row, index);
          if (menu) writeRowMenuHtml({ ...menu, up: menu.up || index >= lastRows, links, csrf: links.csrf, id: rowId }, parts);
          parts.push("</td></tr>");
        } else parts.push("</tr>");
      });
      rowsHtml = parts.join("");
      if (memoKey !== null) rowsMemo.set(memoKey, rowsHtml);
    }
  }

  // The head is markup too (its sort links are plain links, navigated by onClick); its row is
  // keyed "head" so that MarkupRows gives focus back to the sort link after a sort.
  // Remembered like the rows: a function of the columns, the URL and the sort (headMemo below).
  const sortKey = page.sort ? `${page.sort.desc ? "-" : ""}${page.sort.id}` : "";
  const headKey = [identityOf(columns), selection, rowMenu ? 1 : 0, visible.map((c) => c.id).join(","), location.pathname, location.search, sortKey, page.sortable?.join(",") ?? "*"].join("\u0000");
  const headHtml = headMemo.remember(headKey, () =>
    staticHtml(
      <tr data-row="head">
        {selection === "multiple" ? (
          <th scope="col" className="w-8">
            <span className="sr-only">Selected</span>
          </th>
        ) : null}
        {visible.map((c) => (
          <HeaderCell key={c.id} column={c} page={page} location={location} />
        ))}
        {rowMenu ? (
          <th scope="col" className="kit-cell-menu w-10">
            <span className="sr-only">Actions</span>
          </th>
        ) : null}
      </tr>,
    ),
  );

  return (
    <div className="card bg-base-100 shadow-sm" onClick={onClick} id={id} ref={card}>
      <MenuStyles />
      <div className="card-body gap-3 p-4">
        <div className="flex flex-wrap items-end gap-2">
          {search ? <TableSearch id={id} q={page.q} placeholder={searchPlaceholder} /> : null}
          <div className="ml-auto flex flex-wrap items-end gap-2">
            {hideable.length ? <ColumnChooser id={id} columns={hideable} shown={page.cols} hydrated={hydrated} /> : null}
            {toolbar}
          </div>
        </div>

        {selection === "multiple" ? (
          <Form
            method="get"
            id={selectFormId}
            // Always there (the checkboxes belong to it); shown when it has something to show.
            className={page.selected.length ? "flex flex-wrap items-center gap-2" : "hidden"}
            preventScrollReset
          >
            {keptParams(location.search, ["selected"]).map(([k, v], i) => (
              <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
            ))}
            {page.selected.length ? (
              <a href={links.with({ selected: null, dialog: null, id: null, tab: null })} className="link text-sm" data-clear-selection="">
                Clear selection
              </a>
            ) : null}
          </Form>
        ) : null}

        <div className="kit-table-wrap">
          <table className="kit-table table table-sm" aria-describedby={`${id}-status`}>
            <caption className="sr-only">{caption}</caption>
            <MarkupRows section="thead" html={headHtml} />
            <MarkupRows section="tbody" html={rowsHtml} />
          </table>
        </div>

        <div className="flex flex-wrap items-center gap-3">
          {/* Without JS the checkboxes need a submit; with JS they apply at once. Below the rows
              (above the table its going at hydration moved every row up ~44 px: a click aimed at a
              row's link landed on the table), and in <noscript>: a browser that runs scripts never
              lays it out, so the footer and what is under the table do not move either. */}
          {selection === "multiple" && page.rowCount > 0 ? (
            <noscript>
              <button type="submit" form={selectFormId} className="btn btn-sm">
                Select
              </button>
            </noscript>
          ) : null}
          <p id={`${id}-status`} className="text-base-content/70 text-sm" aria-live="polite">
            {page.total === 0 ? "0 rows" : `Rows ${from}–${to} of ${page.total}`}
            {page.selected.length ? `, ${page.selected.length} selected` : ""}
          </p>
          <PageSizeForm id={id} page={page} location={location} />
          <Pagination caption={caption} page={page} location={location} />
        </div>
      </div>
    </div>
  );
}

/*
 * The rows' markup, remembered by all it is a pure function of: the definition's functions and
 * columns (pure by contract, so the same ones write the same markup; told apart by identity), the
 * selection mode and shown columns, the selected rows, the URL (the rows' links), the CSRF token and
 * the rows' JSON. A list seen again with the same rows (a reload, another view of it by the same
 * user) writes no row: a 50-row page's rows are ~200 KB of markup in ~5,000 pieces. A definition
 * made on each render (an inline function) has a new identity each time: never a hit, never wrong.
 * Process-local (and per tab in the browser), bounded in entries and characters, oldest out first.
 */
const rowsMemo = new BoundedMemo<string, string>({ maxEntries: 32, maxSize: 8_000_000, sizeOf: (key, html) => key.length + html.length });
const identities = new WeakMap<object, number>();
let nextIdentity = 1;

function identityOf(value: object | undefined): number {
  if (value === undefined) return 0;
  let n = identities.get(value);
  if (n === undefined) identities.set(value, (n = nextIdentity++));
  return n;
}

function rowsMemoKey(definition: readonly (object | undefined)[], values: readonly string[]): string {
  return `${definition.map(identityOf).join(",")}\u0000${values.join("\u0000")}`;
}

/** The head's markup by headKey (small strings; a few per list screen and URL). */
const headMemo = new BoundedMemo<string, string>({ maxEntries: 128 });

const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

/** What MarkupRows restores after replacing its rows: the focused control, the open row menu. */
interface Snapshot {
  row: string | null;
  index: number;
  open: string | null;
}

/**
 * The <thead> or <tbody>, holding its rows' markup. React replaces the markup only when it
 * changed; the element that had focus in it (a sort link, a row's link, checkbox or menu button)
 * gets it back afterwards, found by its row's data-row key.
 */
class MarkupRows extends Component<{ section: "thead" | "tbody"; html: string }> {
  private body = createRef<HTMLTableSectionElement>();

  override shouldComponentUpdate(next: { html: string }) {
    return next.html !== this.props.html;
  }

  override getSnapshotBeforeUpdate(): Snapshot | null {
    const body = this.body.current;
    if (!body) return null;
    // A row menu opened while the rows were being replaced (a click just as the page hydrated)
    // stays open: the new markup is the same menu.
    const open = body.querySelector("details[open]")?.closest("tr")?.getAttribute("data-row") ?? null;
    const active = document.activeElement;
    const row = active && body.contains(active) ? active.closest("tr") : null;
    const key = row?.getAttribute("data-row") ?? null;
    if (!key && !open) return null;
    return { row: key, index: row && key ? Array.from(row.querySelectorAll(FOCUSABLE)).indexOf(active!) : -1, open };
  }

  override componentDidUpdate(_props: unknown, _state: unknown, snapshot: Snapshot | null) {
    if (!snapshot) return;
    const rowOf = (key: string) => this.body.current?.querySelector(`tr[data-row="${CSS.escape(key)}"]`);
    if (snapshot.open) {
      const menu = rowOf(snapshot.open)?.querySelector("details");
      if (menu) menu.open = true;
    }
    if (!snapshot.row || snapshot.index < 0) return;
    (rowOf(snapshot.row)?.querySelectorAll<HTMLElement>(FOCUSABLE)[snapshot.index])?.focus();
  }

  override render() {
    const Section = this.props.section;
    return <Section ref={this.body} dangerouslySetInnerHTML={{ __html: this.props.html }} />;
  }
}


/*
 * A row's hrefs are relative to the page (`?…`, the same path): a 50-row table carries ~400 of
 * them, so the path would be 5 KB of every page. The table's click handler resolves them through
 * the anchor (anchor.pathname + anchor.search), as the browser does without JS.
 */
function prefix(params: URLSearchParams) {
  const q = queryString(params);
  return q ? `${q}&` : "?";
}

type Loc = { pathname: string; search: string };

function HeaderCell<T>({ column, page, location }: { column: Column<T>; page: TablePage<T>; location: Loc }) {
  if (!(column.sortable ?? page.sortable?.includes(column.id))) {
    return (
      <th scope="col" className={column.className}>
        {column.header}
      </th>
    );
  }
  const active = page.sort?.id === column.id ? page.sort : null;
  const nextSort = active && !active.desc ? `-${column.id}` : column.id;
  const href = hrefWith(location, { sort: nextSort, page: null, ...dialogOff });
  return (
    <th scope="col" className={column.className} aria-sort={active ? (active.desc ? "descending" : "ascending") : undefined}>
      <a href={href} className="link link-hover inline-flex items-center gap-1 whitespace-nowrap">
        {column.header}
        <span aria-hidden="true" className={active ? "" : "opacity-30"}>
          {active ? (active.desc ? "▼" : "▲") : "↕"}
        </span>
        <span className="sr-only">{active ? (active.desc ? ", sorted descending" : ", sorted ascending") : ", sortable"}</span>
      </a>
    </th>
  );
}

const dialogOff = Object.fromEntries(DIALOG_PARAMS.map((p) => [p, null])) as ParamChanges;

/** The search: a GET form labelled "Search"; with JS it submits itself 250 ms after typing stops. */
function TableSearch({ id, q, placeholder }: { id: string; q: string; placeholder: string }) {
  const location = useLocation();
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Back/forward or a link changed q: show it, unless the user is typing.
    if (input.current && document.activeElement !== input.current) input.current.value = q;
  }, [q]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  return (
    <Form
      method="get"
      role="search"
      className="flex w-full min-w-0 items-end gap-2 sm:w-auto"
      preventScrollReset
      onSubmit={() => timer.current && clearTimeout(timer.current)}
    >
      {keptParams(location.search, ["q", "page"]).map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <label className="input input-sm min-w-0 flex-1 sm:w-64 sm:flex-none">
        <span className="sr-only">Search</span>
        <svg aria-hidden="true" focusable="false" className="h-4 w-4 opacity-60" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </svg>
        <input
          ref={input}
          id={`${id}-q`}
          type="search"
          name="q"
          defaultValue={q}
          placeholder={placeholder}
          maxLength={200}
          autoComplete="off"
          onChange={(event) => {
            const form = event.currentTarget.form!;
            if (timer.current) clearTimeout(timer.current);
            timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 250);
          }}
        />
      </label>
      <button type="submit" className="btn btn-sm">
        Search
      </button>
    </Form>
  );
}

function ColumnChooser<T>({ id, columns, shown, hydrated }: { id: string; columns: Column<T>[]; shown: string[]; hydrated: boolean }) {
  const location = useLocation();
  return (
    <details className="dropdown dropdown-end" data-menu="">
      <summary className="btn btn-sm">Columns</summary>
      <div className="dropdown-content bg-base-100 rounded-box border-base-300 z-20 w-56 border p-3 shadow-lg">
        <Form method="get" preventScrollReset>
          {keptParams(location.search, ["cols"]).map(([k, v], i) => (
            <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
          ))}
          <fieldset>
            <legend className="mb-1 text-sm font-semibold">Show hidden columns</legend>
            {columns.map((c) => (
              <label key={c.id} className="label flex cursor-pointer gap-2 py-1 text-sm">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  name="cols"
                  value={c.id}
                  defaultChecked={shown.includes(c.id)}
                  id={`${id}-col-${c.id}`}
                />
                <span className="text-base-content">{c.header}</span>
              </label>
            ))}
          </fieldset>
          {!hydrated ? (
            <button type="submit" className="btn btn-sm btn-primary mt-2">
              Apply<span className="sr-only"> columns</span>
            </button>
          ) : null}
        </Form>
      </div>
    </details>
  );
}

function PageSizeForm<T>({ id, page, location }: { id: string; page: TablePage<T>; location: Loc }) {
  return (
    <Form method="get" className="ml-auto flex items-center gap-2" preventScrollReset>
      {keptParams(location.search, ["size", "page"]).map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <label htmlFor={`${id}-size`} className="text-sm">
        Rows per page
      </label>
      <select id={`${id}-size`} name="size" defaultValue={String(page.size)} key={page.size} className="select select-sm w-20">
        {page.sizes.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      {/* Without JavaScript only (a change applies at once with it); in <noscript>, so that the footer
          keeps its height when the page hydrates and the details under the table stay put. */}
      <noscript>
        <button type="submit" className="btn btn-sm">
          Apply<span className="sr-only"> page size</span>
        </button>
      </noscript>
    </Form>
  );
}

function Pagination<T>({ caption, page, location }: { caption: string; page: TablePage<T>; location: Loc }) {
  const prev = page.page > 1 ? hrefWith(location, { page: page.page - 1 === 1 ? null : page.page - 1, ...dialogOff }) : null;
  const next = page.page < page.pageCount ? hrefWith(location, { page: page.page + 1, ...dialogOff }) : null;
  return (
    <nav aria-label={`${caption} pages`} className="join">
      {prev ? (
        <a href={prev} className="join-item btn btn-sm" rel="prev">
          <span aria-hidden="true">«</span> Previous
        </a>
      ) : (
        <span className="join-item btn btn-sm btn-disabled" aria-disabled="true">
          <span aria-hidden="true">«</span> Previous
        </span>
      )}
      <span className="join-item btn btn-sm btn-ghost pointer-events-none" aria-current="page">
        Page {page.page} of {page.pageCount}
      </span>
      {next ? (
        <a href={next} className="join-item btn btn-sm" rel="next">
          Next <span aria-hidden="true">»</span>
        </a>
      ) : (
        <span className="join-item btn btn-sm btn-disabled" aria-disabled="true">
          Next <span aria-hidden="true">»</span>
        </span>
      )}
    </nav>
  );
}

/**
 * The selection message under a table: 'Nothing selected.' for none, 'N {plural} selected.' for
 * several, and `children` (the selected row's tabs) for exactly one.
 */
export function SelectionStatus({ count, plural, children }: { count: number; plural: string; children?: ReactNode }) {
  if (count === 1) return <>{children}</>;
  return (
    <div className="card bg-base-100 shadow-sm">
      <p className="card-body text-base-content/70 p-4" role="status">
        {count === 0 ? "Nothing selected." : `${count} ${plural} selected.`}
      </p>
    </div>
  );
}
