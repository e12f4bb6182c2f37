import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { cellHtml, h, idCell, type CellContent } from "./cell.ts";
import type { Column } from "./data-table.tsx";
import { OpState, opStateCell } from "./op-state.tsx";

describe("table cells (h)", () => {
  it("escapes text and attributes as React does", () => {
    const cell = h("span", { class: "a&b", title: `"<x>"` }, `Ada "<b>" & co`, 7, null, false, ["x", h("br")]);
    const react = renderToStaticMarkup(
      <span className="a&b" title={`"<x>"`}>
        {`Ada "<b>" & co`}
        {7}x<br />
      </span>,
    );
    expect(cell.html).toBe(react.replace("<br/>", "<br>"));
  });

  it("writes the op-state dot as the component does", () => {
    for (const v of ["up", "down", null, ""]) {
      expect(opStateCell(v).html).toBe(renderToStaticMarkup(<OpState value={v} />));
    }
  });

  it("writes an id as one unbroken monospace token, and nothing for a missing one", () => {
    expect(idCell("metro-ly926zh8pffq")!.html).toBe('<code class="text-xs whitespace-nowrap">metro-ly926zh8pffq</code>');
    expect(idCell("<x>")!.html).toBe('<code class="text-xs whitespace-nowrap">&lt;x&gt;</code>');
    expect(idCell(null)).toBeNull();
    expect(idCell("")).toBeNull();
  });

  it("writes boolean attributes bare and leaves out false ones", () => {
    expect(h("time", { datetime: "2026-01-01", hidden: true, "data-x": false }).html).toBe('<time datetime="2026-01-01" hidden=""></time>');
  });

  it("refuses event-handler attributes at run time too", () => {
    const attrs = { onclick: "alert(1)" } as unknown as Parameters<typeof h>[1];
    expect(() => h("span", attrs)).toThrow(/not allowed/);
  });

  it("renders text, numbers and lists; refuses a React element", () => {
    expect(cellHtml(["a<", 1, null, undefined, false, h("b", null, "c")])).toBe("a&lt;1<b>c</b>");
    expect(() => cellHtml(<span>x</span> as unknown as CellContent)).toThrow(/h\(\)/);
  });

  it("makes a wrong cell a type error", () => {
    type Row = { name: string };
    const columns: Column<Row>[] = [
      { id: "ok", header: "OK", cell: (r) => h("span", { class: "italic" }, r.name) },
      // @ts-expect-error JSX is not a cell: rows are markup and run no React code
      { id: "jsx", header: "JSX", cell: (r) => <span>{r.name}</span> },
      // @ts-expect-error an event handler cannot ride in a cell
      { id: "handler", header: "Handler", cell: (r) => h("span", { onclick: "steal()" }, r.name) },
      // @ts-expect-error a function is no attribute value
      { id: "fn", header: "Fn", cell: (r) => h("span", { title: () => r.name }) },
      // @ts-expect-error only HTML tag names
      { id: "tag", header: "Tag", cell: (r) => h("my-widget", null, r.name) },
    ];
    expect(columns).toHaveLength(5);
  });
});
