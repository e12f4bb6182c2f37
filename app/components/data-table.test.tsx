import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { describe, expect, it } from "vitest";
import { rowsJson } from "../lib/table-rows.ts";
import type { TablePage } from "../lib/table.server.ts";
import { createHint, DataTable, type Column } from "./data-table.tsx";
import { OpState, opStateCell } from "./op-state.tsx";
import { RowMenu } from "./row-menu.tsx";

interface Row {
  id: string;
  name: string;
  note: string | null;
  n: number;
  state: string | null;
}

const rows: Row[] = [
  { id: "r-1", name: `Ada "<b>" & co`, note: "it's <ok>", n: 7, state: "up" },
  { id: "r&2", name: "Grace", note: null, n: 0, state: "down" },
];

const columnHeader = (id: string) => columns.find((c) => c.id === id)!.header;
const columns: Column<Row>[] = [
  { id: "name", header: "Name", cell: (r) => r.name },
  { id: "note", header: "Note", className: "whitespace-nowrap", cell: (r) => r.note },
  { id: "n", header: "N", cell: (r) => r.n },
  { id: "state", header: "State", cell: (r) => opStateCell(r.state) },
];

const page: TablePage<Row> = {
  page: 1,
  size: 10,
  sizes: [10, 25, 50],
  q: "",
  sort: null,
  selected: ["r&2"],
  cols: [],
  rows: rowsJson(rows),
  rowCount: rows.length,
  total: 2,
  unfiltered: 2,
  pageCount: 1,
};

function tbodyOf(html: string): string {
  const start = html.indexOf("<tbody>");
  return html.slice(start + "<tbody>".length, html.indexOf("</tbody>", start));
}

// Equal up to what HTML ignores: attribute order, a trailing '/' on void elements.
const normal = (html: string) =>
  html.replace(/<([a-z0-9]+)((?:\s+[^\s=>/]+="[^"]*")*)(\/?)>/gi, (_m, tag: string, attrs: string) => {
    const list = [...attrs.matchAll(/\s+([^\s=>/]+)="([^"]*)"/g)].map(([, n, v]) => `${n!.toLowerCase()}="${v}"`);
    return `<${tag}${list.sort().map((a) => ` ${a}`).join("")}>`;
  });

describe("DataTable rows", () => {
  it("are the markup React writes for the same rows, data escaped", () => {
    const Stub = createRoutesStub([
      {
        path: "/things",
        Component: () => (
          <AuthenticityTokenProvider token="tok.sig">
            <DataTable
              caption="Things"
              columns={columns}
              page={page}
              getRowId={(r) => r.id}
              rowLabel={(r) => r.name}
              selection="multiple"
              rowMenu={(r) => ({
                label: `Actions for ${r.name}`,
                items: [
                  { label: "Edit", dialog: "edit" },
                  { label: "Restart", intent: "restart", fields: { id: r.id }, danger: true },
                ],
              })}
            />
          </AuthenticityTokenProvider>
        ),
      },
    ]);
    const html = renderToString(<Stub initialEntries={["/things?q=&selected=r%262"]} />);
    const actual = tbodyOf(html);

    // What the table wrote before its rows became markup: the same rows as React elements.
    const reference = rows.map((r, index) => {
      const isSelected = r.id === "r&2";
      const select = `?q=&selected=${encodeURIComponent(r.id)}`;
      return (
        <tr key={r.id} data-row={r.id} aria-selected={isSelected || undefined}>
          <td className="kit-cell-check">
            <input type="checkbox" className="checkbox checkbox-sm" name="selected" value={r.id} form="table-select" defaultChecked={isSelected} aria-label={`Select ${r.name}`} />
          </td>
          <td className="kit-cell-name">
            <a href={select} className="kit-select link link-hover link-primary font-medium" aria-current={isSelected ? "true" : undefined}>
              {r.name}
            </a>
          </td>
          <td className="whitespace-nowrap" data-label={columnHeader("note")}>{r.note}</td>
          <td data-label={columnHeader("n")}>{r.n}</td>
          <td data-label={columnHeader("state")}>
            <OpState value={r.state} />
          </td>
          <td className="kit-cell-menu text-right">
            <RowMenu
              label={`Actions for ${r.name}`}
              up={index >= rows.length}
              csrf="tok.sig"
              items={[
                { label: "Edit", href: `?q=&selected=r%262&dialog=edit&id=${encodeURIComponent(r.id)}` },
                { label: "Restart", intent: "restart", fields: { id: r.id }, danger: true },
              ]}
            />
          </td>
        </tr>
      );
    });
    const expected = tbodyOf(renderToStaticMarkup(<table><tbody>{reference}</tbody></table>));
    expect(actual.length).toBeGreaterThan(1500);
    expect(actual.match(/<tr /g)).toHaveLength(2);
    expect(normal(actual)).toBe(normal(expected));
    expect(actual).toContain('aria-label="Select Ada &quot;&lt;b&gt;&quot; &amp; co"');
    expect(actual).toContain('data-row="r&amp;2" aria-selected="true"');
  });

  it("remember their markup for the same definition, URL, token, selection and rows, and only for these", () => {
    let written = 0;
    const counted: Column<Row>[] = [{ id: "name", header: "Name", cell: (r) => (written++, r.name) }];
    const getRowId = (r: Row) => r.id;
    const rowLabel = (r: Row) => r.name;
    const render = (p: TablePage<Row>, url = "/things?q=", token = "tok.sig") => {
      const Stub = createRoutesStub([
        {
          path: "/things",
          Component: () => (
            <AuthenticityTokenProvider token={token}>
              <DataTable caption="Things" columns={counted} page={p} getRowId={getRowId} rowLabel={rowLabel} selection="single" />
            </AuthenticityTokenProvider>
          ),
        },
      ]);
      return tbodyOf(renderToString(<Stub initialEntries={[url]} />));
    };
    const first = render(page);
    const cells = written;
    expect(render(page)).toBe(first);
    expect(written).toBe(cells);
    expect(render({ ...page, rows: rowsJson([{ ...rows[0]!, name: "Ada L." }, rows[1]!]) })).toContain("Ada L.");
    expect(render(page, "/things?q=x")).toContain("?q=x&amp;selected=");
    expect(render({ ...page, selected: [] })).not.toContain("aria-selected");
    expect(written).toBeGreaterThan(cells);
  });

  it("say 'No data' when there are none, with the hint that brings the first; 'No data found.' when a search matches none", () => {
    const render = (p: TablePage<Row>, hint?: string) => {
      const Stub = createRoutesStub([
        {
          path: "/things",
          Component: () => (
            <AuthenticityTokenProvider token="tok.sig">
              <DataTable caption="Things" columns={columns} page={p} getRowId={(r) => r.id} rowLabel={(r) => r.name} emptyHint={hint} />
            </AuthenticityTokenProvider>
          ),
        },
      ]);
      return tbodyOf(renderToString(<Stub initialEntries={["/things"]} />));
    };
    const none = { ...page, rows: rowsJson([]), rowCount: 0, total: 0, selected: [] };
    expect(createHint("Create Device", true)).toBe("Use 'Create Device' to add the first one.");
    expect(createHint("Create Device", false)).toBeUndefined();
    expect(createHint(undefined, true)).toBeUndefined();
    const empty = render({ ...none, unfiltered: 0 }, createHint("Create Device", true));
    expect(empty).toContain(`No data<span class="mt-1 block">Use &#x27;Create Device&#x27; to add the first one.</span></td>`);
    // A readonly user (no hint): the spec's words alone.
    expect(render({ ...none, unfiltered: 0 })).toMatch(/>No data<\/td>/);
    // Rows exist, the search found none: no hint to create.
    const noMatch = render({ ...none, unfiltered: 2, q: "zzz" }, createHint("Create Device", true));
    expect(noMatch).toContain("No data found.");
    expect(noMatch).not.toContain("Create Device");
  });
});
