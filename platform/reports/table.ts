import type { Weight } from "./fonts.ts";
import { textHeight, writeText, type Text } from "./text.ts";

/*
 * A tagged table (Table, TR, TH/TD) whose cells are written with ./text.ts, so a cell holding a
 * name in any script wraps and prints like any other text (pdfkit's own table sets a cell in one
 * font). A row is never split across pages; on a new page the head row is repeated, as an
 * artifact (read once).
 */

type Doc = PDFKit.PDFDocument;

export interface TableCell {
  text: Text;
  weight?: Weight;
  color?: string;
  /** The cell's address: the cell's area becomes a link (an outage record, say). */
  link?: string;
}

export interface TableStyle {
  x: number;
  /** Each column's width, points. */
  columns: readonly number[];
  size: number;
  padding: { x: number; y: number };
  /** The text's colour, unless a cell has its own. */
  color: string;
  headFill: string;
  /** The fill of every second body row (the second, fourth, …), if any. */
  band?: string;
  rule: { color: string; width: number };
  /** Lines between the columns and round the table too; else a line under each row only. */
  grid?: boolean;
}

function rowHeight(doc: Doc, cells: readonly TableCell[], s: TableStyle, weight: Weight) {
  return (
    2 * s.padding.y +
    Math.max(
      0,
      ...cells.map((c, i) => textHeight(doc, c.text, { size: s.size, weight: c.weight ?? weight, width: s.columns[i]! - 2 * s.padding.x })),
    )
  );
}

/** Whatever is drawn here is not content (fills, rules, a repeated head): marked so screen readers skip it. */
function artifact(doc: Doc, type: "Layout" | "Pagination", draw: () => void) {
  doc.markContent("Artifact", { type });
  draw();
  doc.endMarkedContent();
}

/** The table from where the document is, its head first when `head` is given; the document left below it at `s.x`. */
export function drawTable(doc: Doc, parent: PDFKit.PDFStructureElement, head: readonly TableCell[] | null, rows: readonly (readonly TableCell[])[], s: TableStyle) {
  const width = s.columns.reduce((a, b) => a + b, 0);
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  /** A row; without `tr` (the head repeated on a new page) an artifact. */
  const drawRow = (cells: readonly TableCell[], tag: "TH" | "TD", fill: string | undefined, tr: PDFKit.PDFStructureElement | null) => {
    const weight: Weight = tag === "TH" ? "bold" : "regular";
    const h = rowHeight(doc, cells, s, weight);
    const top = doc.y;
    if (fill) artifact(doc, "Layout", () => doc.save().rect(s.x, top, width, h).fill(fill).restore());
    let left = s.x;
    cells.forEach((c, i) => {
      const x = left;
      const draw = () => {
        doc.fillColor(c.color ?? s.color);
        writeText(doc, c.text, x + s.padding.x, top + s.padding.y, { size: s.size, weight: c.weight ?? weight, width: s.columns[i]! - 2 * s.padding.x });
        if (c.link) doc.link(x, top, s.columns[i]!, h, c.link);
      };
      if (tr) tr.add(doc.struct(tag, {}, [draw]));
      else artifact(doc, "Pagination", draw);
      left += s.columns[i]!;
    });
    artifact(doc, "Layout", () => {
      doc.save().lineWidth(s.rule.width).strokeColor(s.rule.color);
      doc.moveTo(s.x, top + h).lineTo(s.x + width, top + h);
      if (s.grid) {
        let x = s.x;
        for (const w of [0, ...s.columns]) {
          x += w;
          doc.moveTo(x, top).lineTo(x, top + h);
        }
        doc.moveTo(s.x, top).lineTo(s.x + width, top);
      }
      doc.stroke().restore();
    });
    doc.y = top + h;
  };

  const table = doc.struct("Table");
  parent.add(table);
  const row = (cells: readonly TableCell[], tag: "TH" | "TD", fill: string | undefined) => {
    const tr = doc.struct("TR");
    table.add(tr);
    drawRow(cells, tag, fill, tr);
    tr.end();
  };
  if (head) {
    // The head stays with the first row.
    if (doc.y + rowHeight(doc, head, s, "bold") + (rows[0] ? rowHeight(doc, rows[0], s, "regular") : 0) > bottom()) doc.addPage();
    row(head, "TH", s.headFill);
  }
  rows.forEach((cells, r) => {
    if (doc.y + rowHeight(doc, cells, s, "regular") > bottom()) {
      doc.addPage();
      if (head) drawRow(head, "TH", s.headFill, null);
    }
    row(cells, "TD", r % 2 === 1 ? s.band : undefined);
  });
  table.end();
  doc.x = s.x;
}
