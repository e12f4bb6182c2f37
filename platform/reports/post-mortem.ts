import type { PhrasingContent, RootContent, Table } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmTableFromMarkdown } from "mdast-util-gfm-table";
import { gfmTable } from "micromark-extension-gfm-table";
import type PDFDocument from "pdfkit";
import type { DeviceRoute, PostMortem } from "../contract/monitoring.shapes.ts";
import { A4 as PAGE, openTaggedPdf, reportTime, writePageFeet } from "./pdf.ts";
import { drawTable } from "./table.ts";
import { textHeight, writeText, type Span } from "./text.ts";

/**
 * The post-mortem analysis of an outage as analysis.pdf (spec 3 §9: multi-page A4): the fleet's
 * markdown read into a syntax tree (mdast, with GFM tables) and laid out block by block —
 * headings, paragraphs with their bold runs, lists, the path table —, then, on a page of its own,
 * the path today next to the one at the time. A paragraph is laid out as one text, bold runs and
 * all (./text.ts), and its times are printed as the console prints them. The reports' embedded
 * fonts, tagged for screen readers, 'Page n of m' at the foot of each page.
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

/** ISO 8601 times in the text (the fleet writes them with milliseconds), and the "(UTC)" that may follow. */
const isoTimes = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z\b( \(UTC\))?/g;

/** The text with its times as the console shows them ('2026-12-01 13:13 UTC', which says UTC itself). */
export const consoleTimes = (text: string) => text.replace(isoTimes, (iso, utc: string | undefined) => reportTime(utc ? iso.slice(0, -utc.length) : iso));

/** Inline text as runs: bold where the markdown says so. */
function runsOf(nodes: readonly PhrasingContent[], bold = false): Span[] {
  return nodes.flatMap((n): Span[] => {
    if (n.type === "text" || n.type === "inlineCode") return [{ text: consoleTimes(n.value), weight: bold ? "bold" : "regular" }];
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

  /** Runs as one tagged block, laid out as one text (a heading is bold throughout). */
  block(tag: "H1" | "H2" | "H3" | "P" | "LI", runs: Span[], size: number, color = INK.body, indent = 0) {
    const doc = this.doc;
    const heading = tag.startsWith("H");
    const text = heading ? runs.map((r) => ({ ...r, weight: "bold" as const })) : runs;
    const style = { size, width: WIDTH - indent, lineGap: 2, weight: heading ? ("bold" as const) : ("regular" as const) };
    this.room(textHeight(doc, text, style) + 4);
    this.root.add(doc.struct(tag, {}, [() => writeText(doc.fillColor(color), text, M.left + indent, doc.y, style)]));
    doc.x = M.left;
  }

  /** A grid of cells: the header row shaded, rows banded, a row never split across pages. */
  grid(rows: string[][], weights: number[]) {
    const sum = weights.reduce((a, b) => a + b, 0);
    const cell = (text: string) => ({ text });
    drawTable(this.doc, this.root, rows[0]!.map(cell), rows.slice(1).map((r) => r.map(cell)), {
      x: M.left,
      columns: weights.map((w) => (w / sum) * WIDTH),
      size: 9,
      padding: { x: 4, y: 4 },
      color: INK.body,
      headFill: INK.head,
      band: INK.band,
      rule: { color: INK.line, width: 0.5 },
    });
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
        l.block("LI", [{ text: n.ordered ? `${i + 1}. ` : "\u2022 " }, ...runs], 10.5, INK.body, 10);
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

const utc = (iso: string | null) => (iso ? reportTime(iso) : "under way");
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
      Title: title && title.type === "heading" ? plain(title.children) : `Post-mortem ${pm.outage_id}`,
      Author: opts.productName,
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
      },
    ],
    8.5,
    INK.quiet,
  );
  l.gap(0.6);
  layoutMarkdown(l, tree.children);

  // The path today, on a page of its own: what is different now from the path at the time.
  doc.addPage();
  l.block("H2", [{ text: "Appendix: the path today" }], 13.5, INK.title);
  l.gap(0.3);
  l.block(
    "P",
    [
      {
        text: `Traceroute from the device towards ${today.destination}, as it answers at ${utc(today.up_timestamp_utc)}.`,
      },
    ],
    10.5,
  );
  l.gap(0.4);
  l.grid([["Hop", "Host", "IP"], ...today.up_hops.map(hopRow)], [0.6, 2.4, 1.4]);
  l.gap(0.8);
  l.block("H3", [{ text: "About this analysis" }], 11.5, INK.title);
  l.gap(0.2);
  l.block(
    "P",
    [
      {
        text: `The analysis is written from what the device and the provider's monitor recorded for outage ${pm.outage_id} (${utc(pm.start_time)} to ${utc(pm.end_time)}): the self-diagnosis, the traceroute at the time and what recovered the link. Times are UTC.`,
      },
    ],
    10,
    INK.quiet,
  );

  writePageFeet(doc, (page, count) => {
    writeText(doc.fillColor(INK.quiet), `Page ${page} of ${count}`, M.left, PAGE.height - M.bottom + 24, { size: 8, width: WIDTH, align: "right", wrap: false });
  });
  doc.end();
  return done;
}
