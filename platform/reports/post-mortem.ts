import type { PhrasingContent, RootContent, Table } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmTableFromMarkdown } from "mdast-util-gfm-table";
import { gfmTable } from "micromark-extension-gfm-table";
import type PDFDocument from "pdfkit";
import type { DeviceRoute, PostMortem } from "../contract/monitoring.shapes.ts";
import { A4 as PAGE, openTaggedPdf, pdfSafe, writePageFeet } from "./pdf.ts";

/**
 * The post-mortem analysis of an outage as analysis.pdf (spec 3 §9: multi-page A4): the fleet's
 * markdown read into a syntax tree (mdast, with GFM tables) and laid out block by block —
 * headings, paragraphs with their bold runs, lists, the path table —, then, on a page of its own,
 * the path today next to the one at the time. Built-in Helvetica (WinAnsi), tagged for screen
 * readers, 'Page n of m' at the foot of each page.
 */

const M = { top: 60, bottom: 66, left: 54, right: 54 };
const WIDTH = PAGE.width - M.left - M.right;
const INK = {
  body: "#1f2328",
  quiet: "#59636e",
  title: "#0b3d6b",
  line: "#c8d0d9",
  band: "#eef2f6",
  head: "#dde5ee",
};

type Doc = InstanceType<typeof PDFDocument>;
type Struct = ReturnType<Doc["struct"]>;

/** A run of inline text: bold where the markdown says so. */
interface Run {
  text: string;
  bold: boolean;
}

function runsOf(nodes: readonly PhrasingContent[], bold = false): Run[] {
  return nodes.flatMap((n): Run[] => {
    if (n.type === "text" || n.type === "inlineCode") return [{ text: n.value, bold }];
    if (n.type === "strong") return runsOf(n.children, true);
    if ("children" in n) return runsOf(n.children as PhrasingContent[], bold);
    return [];
  });
}

const plain = (nodes: readonly PhrasingContent[]) =>
  runsOf(nodes)
    .map((r) => r.text)
    .join("");

class Layout {
  constructor(
    readonly doc: Doc,
    readonly root: Struct,
  ) {}

  room(height: number) {
    if (this.doc.y + height > PAGE.height - M.bottom) this.doc.addPage();
  }

  /** Runs as one tagged block (continued text keeps bold runs inline). */
  block(tag: "H1" | "H2" | "H3" | "P" | "LI", runs: Run[], size: number, color = INK.body, indent = 0) {
    const doc = this.doc;
    const opts = { width: WIDTH - indent, lineGap: 2 };
    doc.fontSize(size);
    this.room(doc.heightOfString(runs.map((r) => r.text).join(""), opts) + 4);
    const x = M.left + indent;
    this.root.add(
      doc.struct(tag, {}, [
        () => {
          doc.fillColor(color);
          runs.forEach((r, i) => {
            doc.font(r.bold || tag.startsWith("H") ? "Helvetica-Bold" : "Helvetica").fontSize(size);
            doc.text(pdfSafe(r.text), i === 0 ? x : undefined, i === 0 ? doc.y : undefined, { ...opts, continued: i < runs.length - 1 });
          });
        },
      ]),
    );
    doc.x = M.left;
  }

  /** A grid of cells: the header row shaded, rows banded, a row never split across pages. */
  grid(rows: string[][], weights: number[]) {
    const doc = this.doc;
    const sum = weights.reduce((a, b) => a + b, 0);
    const cols = weights.map((w) => (w / sum) * WIDTH);
    const pad = 4;
    const size = 9;
    const rowHeight = (cells: string[], bold: boolean) =>
      2 * pad +
      Math.max(
        ...cells.map((t, i) =>
          doc
            .font(bold ? "Helvetica-Bold" : "Helvetica")
            .fontSize(size)
            .heightOfString(pdfSafe(t), { width: cols[i]! - 2 * pad }),
        ),
      );
    this.root.add(
      doc.struct("Table", {}, [
        () => {
          rows.forEach((cells, r) => {
            const head = r === 0;
            const h = rowHeight(cells, head);
            this.room(h);
            const top = doc.y;
            const fill = head ? INK.head : r % 2 === 0 ? INK.band : null;
            if (fill) doc.save().rect(M.left, top, WIDTH, h).fill(fill).restore();
            let left = M.left;
            cells.forEach((t, i) => {
              doc
                .font(head ? "Helvetica-Bold" : "Helvetica")
                .fontSize(size)
                .fillColor(INK.body);
              doc.text(pdfSafe(t), left + pad, top + pad, {
                width: cols[i]! - 2 * pad,
              });
              left += cols[i]!;
            });
            doc
              .save()
              .moveTo(M.left, top + h)
              .lineTo(M.left + WIDTH, top + h)
              .lineWidth(0.5)
              .strokeColor(INK.line)
              .stroke()
              .restore();
            doc.y = top + h;
          });
          doc.x = M.left;
        },
      ]),
    );
  }

  gap(lines = 0.5) {
    this.doc.moveDown(lines);
  }
}

const tableRows = (t: Table) => t.children.map((row) => row.children.map((cell) => plain(cell.children)));

/** Each markdown block, laid out. */
function layoutMarkdown(l: Layout, nodes: readonly RootContent[]) {
  for (const n of nodes) {
    if (n.type === "heading") {
      if (n.depth > 1) l.gap(0.6);
      l.block(n.depth === 1 ? "H1" : n.depth === 2 ? "H2" : "H3", runsOf(n.children), n.depth === 1 ? 19 : n.depth === 2 ? 13.5 : 11.5, INK.title);
      l.gap(0.3);
    } else if (n.type === "paragraph") {
      l.block("P", runsOf(n.children), 10.5);
      l.gap(0.4);
    } else if (n.type === "list") {
      n.children.forEach((item, i) => {
        const runs = item.children.flatMap((c) => (c.type === "paragraph" ? runsOf(c.children) : []));
        l.block("LI", [{ text: n.ordered ? `${i + 1}. ` : "\u2022 ", bold: false }, ...runs], 10.5, INK.body, 10);
      });
      l.gap(0.4);
    } else if (n.type === "table") {
      const rows = tableRows(n);
      l.grid(
        rows,
        rows[0]!.map((_, i) => (i === 0 ? 0.6 : 1.6)),
      );
      l.gap(0.6);
    }
  }
}

const utc = (iso: string | null) => (iso ? iso.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC") : "under way");
const hopRow = (h: DeviceRoute["up_hops"][number]) => [String(h.hop), h.hostname ?? "Unknown Host", h.ip ?? "No IP"];

export async function renderPostMortemPdf(pm: PostMortem, today: DeviceRoute, opts: { productName: string; generatedAt: Date }): Promise<Buffer> {
  const tree = fromMarkdown(pm.markdown, {
    extensions: [gfmTable()],
    mdastExtensions: [gfmTableFromMarkdown()],
  });
  const title = tree.children.find((n) => n.type === "heading" && n.depth === 1);
  const { doc, done, root } = openTaggedPdf({
    margins: M,
    info: {
      Title: pdfSafe(title && title.type === "heading" ? plain(title.children) : `Post-mortem ${pm.outage_id}`),
      Author: pdfSafe(opts.productName),
      Subject: `Outage ${pm.outage_id} of ${pm.device_id}`,
    },
  });
  const l = new Layout(doc, root);

  doc.y = M.top;
  l.block(
    "P",
    [
      {
        text: `${opts.productName} · Post-mortem analysis · generated ${utc(opts.generatedAt.toISOString())}`,
        bold: false,
      },
    ],
    8.5,
    INK.quiet,
  );
  l.gap(0.6);
  layoutMarkdown(l, tree.children);

  // The path today, on a page of its own: what is different now from the path at the time.
  doc.addPage();
  l.block("H2", [{ text: "Appendix: the path today", bold: true }], 13.5, INK.title);
  l.gap(0.3);
  l.block(
    "P",
    [
      {
        text: `Traceroute from the device towards ${today.destination}, as it answers at ${utc(today.up_timestamp_utc)}.`,
        bold: false,
      },
    ],
    10.5,
  );
  l.gap(0.4);
  l.grid([["Hop", "Host", "IP"], ...today.up_hops.map(hopRow)], [0.6, 2.4, 1.4]);
  l.gap(0.8);
  l.block("H3", [{ text: "About this analysis", bold: true }], 11.5, INK.title);
  l.gap(0.2);
  l.block(
    "P",
    [
      {
        text: `The analysis is written from what the device and the provider's monitor recorded for outage ${pm.outage_id} (${utc(pm.start_time)} to ${utc(pm.end_time)}): the self-diagnosis, the traceroute at the time and what recovered the link. Times are UTC.`,
        bold: false,
      },
    ],
    10,
    INK.quiet,
  );

  writePageFeet(doc, (page, count) => {
    doc.font("Helvetica").fontSize(8).fillColor(INK.quiet);
    doc.text(`Page ${page} of ${count}`, M.left, PAGE.height - M.bottom + 24, {
      width: WIDTH,
      align: "right",
      lineBreak: false,
    });
  });
  doc.end();
  return done;
}
