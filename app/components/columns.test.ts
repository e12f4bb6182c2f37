import { describe, expect, it } from "vitest";
import { cellHtml } from "./cell.ts";
import { idColumn, listColumns } from "./columns.ts";

type Row = { name: string; entity_id: string | null };

describe("idColumn", () => {
  const { columns, csvColumns } = listColumns<Row>([{ id: "name", header: "Name", text: (r) => r.name }, idColumn("entity_id", "Entity ID", { sortable: true })]);
  const row: Row = { name: "Hamburg", entity_id: "ent-wvk1bhd0n4ey" };

  it("shows the id as one unbroken code token in the table and the bare id in the CSV", () => {
    const column = columns[1]!;
    expect(column).toMatchObject({ id: "entity_id", header: "Entity ID", sortable: true });
    expect(cellHtml(column.cell(row))).toBe('<code class="text-xs whitespace-nowrap">ent-wvk1bhd0n4ey</code>');
    expect(csvColumns.map((c) => [c.header, c.value(row)])).toEqual([
      ["Name", "Hamburg"],
      ["Entity ID", "ent-wvk1bhd0n4ey"],
    ]);
  });

  it("leaves both empty for a missing id", () => {
    const missing: Row = { name: "Lisbon", entity_id: null };
    expect(cellHtml(columns[1]!.cell(missing))).toBe("");
    expect(csvColumns[1]!.value(missing)).toBe("");
  });
});
