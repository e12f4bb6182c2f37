import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { cellHtml, idCell } from "./cell.ts";
import { columnLabel, IdText, SimpleTable, simpleIdColumn, type SimpleColumn } from "./simple-table.tsx";

interface Row {
  id: string;
  name: string;
  rx: number;
}

const rows: Row[] = [
  { id: "a", name: `Ada "<b>"`, rx: 1200 },
  { id: "b", name: "Grace", rx: 0 },
];

const columns: SimpleColumn<Row>[] = [
  { id: "pick", header: "Select", kind: "select", cell: (r) => <input type="radio" name="id" value={r.id} aria-label={`Select ${r.name}`} /> },
  { id: "name", header: "Name", cell: (r) => r.name },
  { id: "rx", header: "Rx", unit: "bytes", className: "whitespace-nowrap", cell: (r) => r.rx.toLocaleString("en-US") },
  { id: "actions", header: "Actions", kind: "actions", cell: (r) => <a href={`?remove=${r.id}`}>Remove</a> },
];

const render = (props: Partial<Parameters<typeof SimpleTable<Row>>[0]> = {}) =>
  renderToStaticMarkup(<SimpleTable caption="Things" columns={columns} rows={rows} getRowId={(r) => r.id} {...props} />);

describe("SimpleTable", () => {
  it("is a captioned table with column headers, units in them", () => {
    const html = render();
    expect(html).toContain('<caption class="sr-only">Things</caption>');
    expect(html).toContain('<th scope="col" class="whitespace-nowrap">Rx (bytes)</th>');
    expect(html).toContain('<th scope="col">Name</th>');
    // Select and actions columns are named for screen readers only.
    expect(html).toContain('<th scope="col"><span class="sr-only">Select</span></th>');
    // The actions column's header wears the cell's class: from 640px the column is pinned at the right edge (app.css).
    expect(html).toContain('<th scope="col" class="kit-cell-menu"><span class="sr-only">Actions</span></th>');
    expect(columnLabel({ header: "Tx" })).toBe("Tx");
  });

  it("wears DataTable's stacked classes: name, selection and actions cells; the others labelled", () => {
    const html = render();
    expect(html).toMatch(/^<div class="kit-table-wrap"><table class="kit-table table table-sm">/);
    expect(html).toContain('<td class="kit-cell-check"><input type="radio"');
    expect(html).toContain('<td class="kit-cell-name">Ada &quot;&lt;b&gt;&quot;</td>');
    expect(html).toContain('<td class="whitespace-nowrap" data-label="Rx (bytes)">1,200</td>');
    expect(html).toContain('<td class="kit-cell-menu"><a href="?remove=a">Remove</a></td>');
    // No sideways scrolling region of its own.
    expect(html).not.toContain("overflow-x");
  });

  it("says 'No data' (or the given message) across all columns when empty", () => {
    expect(render({ rows: [] })).toContain('<td colSpan="4" class="text-base-content/70 py-6 text-center">No data</td>');
    expect(render({ rows: [], emptyMessage: "No hosting available." })).toContain(">No hosting available.</td>");
  });

  it("shows the caption when asked, and scrolls a long list vertically in a named, focusable region", () => {
    expect(render({ showCaption: true })).toContain('<caption class="mb-2 text-left font-semibold">Things</caption>');
    const html = render({ scrollRegion: "Flows of VPC" });
    expect(html).toContain('<div class="kit-table-wrap max-h-96 overflow-y-auto" tabindex="0" role="region" aria-label="Flows of VPC">');
  });

  it("takes an explicit name column", () => {
    const html = render({ columns: [{ id: "rx", header: "Rx", cell: (r) => r.rx }, { id: "name", header: "Name", kind: "name", cell: (r) => r.name }] });
    expect(html).toContain('<td data-label="Rx">1200</td><td class="kit-cell-name">Ada');
  });

  it("draws an id column as DataTable's idCell does, and nothing for a missing id", () => {
    const withIds = [...columns.slice(1, 2), simpleIdColumn<Row>("id", "Device ID", (r) => (r.id === "b" ? null : `metro-${r.id}x1v9`))];
    const html = render({ columns: withIds });
    expect(html).toContain(`<td data-label="Device ID">${cellHtml(idCell("metro-ax1v9"))}</td>`);
    expect(html).toContain('<code class="text-xs whitespace-nowrap">metro-ax1v9</code>');
    expect(html).toContain('<td data-label="Device ID"></td>');
    expect(renderToStaticMarkup(<IdText id={null} />)).toBe("");
  });
});
