import { formatMilliseconds, pcapClientRuleSentence, pcapClientRuleText, pcapMirrorSessionText } from "../contract/pcap.ts";
import type { PcapFlowReport, PcapSession } from "../domain/pcap.ts";
import type { Weight } from "./fonts.ts";
import { A4, openTaggedPdf, reportInk, writePageFeet } from "./pdf.ts";
import { setFont, textHeight, writeText } from "./text.ts";

/**
 * The PCAP performance insights report (spec 1 §2, §9): A4, the product name in the title, then
 * Summary, General Info, Network Data and Flow Quality Assessment as tables of label/value rows
 * (per-direction figures side by side), then the cross-client and cross-site similarity
 * placeholders. The reports' embedded fonts (file names and values in any script), page numbers
 * in the footer.
 *
 * The report sections are rendered from their data, so fields added to the flow report by
 * platform/pcap/report.ts show up without changes here: a nested object becomes a sub-table, an
 * object keyed by direction (client_to_server / server_to_client, a_to_b / b_to_a, tx / rx, …)
 * becomes columns side by side.
 */

export interface PcapInsightsInput {
  productName: string;
  fileName: string;
  session: PcapSession;
  report: PcapFlowReport;
  generatedAt: Date;
}

export const SIMILARITY_PLACEHOLDER = "information not available yet";

/** General Info, the client rule said in words ("Client and server: by SYN: the client opened…"). */
function generalInfo(report: PcapFlowReport): Record<string, unknown> {
  const { client_chosen_by: rule, mirror_session: mirror, ...info } = report.general_info ?? ({} as Partial<PcapFlowReport["general_info"]>);
  const sentence = pcapClientRuleSentence(rule);
  // Mirrored traffic only: plain captures' reports are unchanged.
  const withMirror = mirror ? { ...info, mirror_session: pcapMirrorSessionText(mirror) } : info;
  return sentence ? { ...withMirror, client_and_server: sentence } : withMirror;
}

// ---------------------------------------------------------------------------------------------
// From report data to blocks

type Cell = { text: string; tone?: "good" | "bad" };
type Block =
  | { kind: "table"; header: string[] | null; rows: Cell[][] }
  | { kind: "subheading"; text: string }
  | { kind: "text"; text: string };

const directionLabels: Record<string, string> = {
  client_to_server: "Client to server",
  server_to_client: "Server to client",
  a_to_b: "A to B",
  b_to_a: "B to A",
  src_to_dst: "Source to destination",
  dst_to_src: "Destination to source",
  upstream: "Upstream",
  downstream: "Downstream",
  upload: "Upload",
  download: "Download",
  tx: "Sent (tx)",
  rx: "Received (rx)",
  client: "Client",
  server: "Server",
  forward: "Forward",
  reverse: "Reverse",
  request: "Request",
  response: "Response",
  total: "Total",
};

const words: Record<string, string> = {
  rtt: "RTT",
  tcp: "TCP",
  udp: "UDP",
  ip: "IP",
  ipv4: "IPv4",
  ipv6: "IPv6",
  id: "ID",
  ack: "ACK",
  acks: "ACKs",
  dup: "duplicate",
  dupack: "duplicate ACK",
  dupacks: "duplicate ACKs",
  syn: "SYN",
  fin: "FIN",
  rst: "RST",
  mss: "MSS",
  ttl: "TTL",
  sni: "SNI",
  tls: "TLS",
  http: "HTTP",
  dns: "DNS",
  ms: "",
  pct: "",
  percent: "",
  seconds: "",
  bps: "",
  stats: "statistics",
  tx: "TX",
  rx: "RX",
  src: "source",
  dst: "destination",
  addr: "address",
  proto: "protocol",
  num: "number of",
  avg: "average",
  min: "minimum",
  max: "maximum",
  std: "std. dev.",
  p95: "95th percentile",
  p99: "99th percentile",
  ep: "endpoint",
  qos: "QoS",
};

/** `dup_acks` → "Duplicate ACKs", `ack_rtt_ms` → "ACK RTT (ms)". */
export function humanize(key: string): string {
  const parts = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((w) => words[w.toLowerCase()] ?? w.toLowerCase());
  const text = parts.filter(Boolean).join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  !(v instanceof Date);
const isPrimitive = (v: unknown) =>
  v === null ||
  v === undefined ||
  ["string", "number", "boolean"].includes(typeof v);

/** The object's keys are two or more directions. */
function isDirectional(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return (
    keys.length >= 2 &&
    keys.length <= 4 &&
    keys.every((k) => k in directionLabels)
  );
}

/** `{count, rate}` and nothing else. */
function isCountAndRate(v: unknown): v is { count: number; rate: number } {
  return (
    isPlainObject(v) &&
    Object.keys(v).length === 2 &&
    typeof v.count === "number" &&
    typeof v.rate === "number"
  );
}

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const nf = (v: number, digits: number) =>
  v.toLocaleString("en-US", { maximumFractionDigits: digits });

/** `n` in the largest of `units` (each `step` times the one before) that keeps it at least 1. */
function scaled(n: number, step: number, units: readonly string[]): { v: number; unit: string } {
  let v = n;
  let i = 0;
  while (v >= step && i < units.length - 1) {
    v /= step;
    i++;
  }
  return { v, unit: units[i] };
}

function humanBytes(n: number): string {
  const { v, unit } = scaled(n, 1024, ["bytes", "KiB", "MiB", "GiB", "TiB"]);
  return `${nf(v, v >= 100 ? 0 : 1)} ${unit}`;
}

function humanRate(bps: number): string {
  const { v, unit } = scaled(bps, 1000, ["bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"]);
  return `${nf(v, v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${unit}`;
}

/** A value as text, its unit taken from the key: `_ms`, `_seconds`, `_bps`, `_rate`/`_ratio` (0–1), `bytes`. */
export function formatValue(key: string, v: unknown): Cell {
  if (v === null || v === undefined || v === "") return { text: "n/a" };
  if (typeof v === "boolean") return { text: v ? "Yes" : "No" };
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return { text: "n/a" };
    if (/(^|_)(port|id|year)$/.test(key)) return { text: String(v) };
    if (/_ms$/.test(key)) return { text: formatMilliseconds(v) };
    if (/(_seconds|^duration)$/.test(key)) return { text: `${nf(v, 6)} s` };
    if (/_bps$|^bps$/.test(key)) return { text: humanRate(v) };
    if (/(_|^)(rate|ratio)$/.test(key))
      return { text: `${nf(v * 100, v * 100 >= 10 ? 1 : 2)} %` };
    if (/percent|pct/.test(key)) return { text: `${nf(v, 2)} %` };
    if (/bytes/.test(key) && Number.isInteger(v)) {
      return {
        text:
          v >= 10240
            ? `${v.toLocaleString("en-US")} (${humanBytes(v)})`
            : v.toLocaleString("en-US"),
      };
    }
    return {
      text: Number.isInteger(v)
        ? v.toLocaleString("en-US")
        : nf(v, Math.abs(v) >= 100 ? 1 : Math.abs(v) >= 1 ? 3 : 6),
    };
  }
  if (typeof v === "string") {
    if (/^(protocol|proto)$/.test(key)) return { text: v.toUpperCase() };
    if (isoTime.test(v))
      return { text: v.replace("T", " ").replace("Z", " UTC") };
    const low = v.toLowerCase();
    // Qualities (good / not good, yes / no) are coloured.
    if (/quality|performance|degradation|status|assessment/.test(key)) {
      if (
        ["good", "ok", "normal", "healthy"].includes(low) ||
        (low === "no" && /degradation/.test(key))
      ) {
        return { text: cap(v), tone: "good" };
      }
      if (
        ["bad", "poor", "degraded", "not good", "warning"].includes(low) ||
        (low === "yes" && /degradation/.test(key))
      ) {
        return { text: cap(v), tone: "bad" };
      }
    }
    return { text: v };
  }
  if (Array.isArray(v) && v.every(isPrimitive))
    return { text: v.map((x) => formatValue(key, x).text).join(", ") || "n/a" };
  return { text: JSON.stringify(v) };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Flattens nested objects into [label path, value] pairs ("RTT · Median"). */
function flatten(
  obj: Record<string, unknown>,
  prefix = "",
): [string, string, unknown][] {
  const out: [string, string, unknown][] = [];
  for (const [k, v] of Object.entries(obj)) {
    const label = prefix
      ? `${prefix}, ${humanize(k).toLowerCase()}`
      : humanize(k);
    if (isPlainObject(v) && !isDirectional(v)) out.push(...flatten(v, label));
    else out.push([label, k, v]);
  }
  return out;
}

/** Blocks of one report section (or sub-object). */
export function sectionBlocks(
  obj: Record<string, unknown>,
  depth = 0,
): Block[] {
  const blocks: Block[] = [];
  let table: Extract<Block, { kind: "table" }> | null = null;
  const flush = () => {
    if (table && table.rows.length) blocks.push(table);
    table = null;
  };
  const addRow = (header: string[] | null, row: Cell[]) => {
    const same =
      table !== null &&
      (table.header === null
        ? header === null
        : header !== null && table.header.join("|") === header.join("|"));
    if (!same) {
      flush();
      table = { kind: "table", header, rows: [] };
    }
    table!.rows.push(row);
  };

  // A section keyed by direction at its top: one table, metrics down, directions across.
  if (isDirectional(obj) && Object.values(obj).every(isPlainObject)) {
    return [pivot(obj as Record<string, Record<string, unknown>>)];
  }

  // Entries named by direction ({client_to_server: {...}, server_to_client: {...}, total: {...}}):
  // one table, metrics down, directions across, where the first of them is.
  const directionEntries = Object.entries(obj).filter(
    ([k, v]) => k in directionLabels && isPlainObject(v),
  );
  const grouped =
    directionEntries.length >= 2
      ? new Set(directionEntries.map(([k]) => k))
      : new Set<string>();

  // Plain figures first, in one table, so none of them reads as part of a sub-table above it.
  const entries = Object.entries(obj);
  const simple = ([k, v]: [string, unknown]) =>
    !grouped.has(k) &&
    (isPrimitive(v) ||
      (Array.isArray(v) && v.every(isPrimitive)) ||
      isCountAndRate(v));
  for (const [key, value] of [
    ...entries.filter(simple),
    ...entries.filter((e) => !simple(e)),
  ]) {
    if (isCountAndRate(value)) {
      // {count, rate}: "114 (30.2 %)"
      addRow(null, [
        { text: humanize(key) },
        {
          text: `${formatValue("count", value.count).text} (${formatValue("rate", value.rate).text})`,
        },
      ]);
    } else if (grouped.has(key)) {
      if (key === directionEntries[0]![0]) {
        const block = pivot(
          Object.fromEntries(directionEntries) as Record<
            string,
            Record<string, unknown>
          >,
        );
        for (const row of block.rows) addRow(block.header, row);
      }
    } else if (
      isPrimitive(value) ||
      (Array.isArray(value) && value.every(isPrimitive))
    ) {
      addRow(null, [{ text: humanize(key) }, formatValue(key, value)]);
    } else if (
      isDirectional(value) &&
      Object.values(value).every((x) => isPrimitive(x))
    ) {
      // One metric per direction: a row with the directions side by side.
      const dirs = Object.keys(value);
      addRow(
        ["", ...dirs.map((d) => directionLabels[d]!)],
        [
          { text: humanize(key) },
          ...dirs.map((d) => formatValue(key, value[d])),
        ],
      );
    } else if (isDirectional(value)) {
      flush();
      blocks.push({ kind: "subheading", text: humanize(key) });
      blocks.push(pivot(value as Record<string, Record<string, unknown>>));
    } else if (isPlainObject(value)) {
      flush();
      const inner = Object.values(value);
      if (
        inner.length > 0 &&
        inner.every(
          (x) => isDirectional(x) && Object.values(x).every(isPrimitive),
        )
      ) {
        // {metric: {client_to_server: 1, server_to_client: 2}, …}: one table.
        blocks.push({ kind: "subheading", text: humanize(key) });
        const nested = sectionBlocks(value, depth + 1);
        blocks.push(...nested);
      } else if (depth >= 2) {
        for (const [label, k, v] of flatten(value, humanize(key)))
          addRow(null, [{ text: label }, formatValue(k, v)]);
      } else {
        blocks.push({ kind: "subheading", text: humanize(key) });
        blocks.push(...sectionBlocks(value, depth + 1));
      }
    } else if (Array.isArray(value)) {
      flush();
      blocks.push({ kind: "subheading", text: humanize(key) });
      if (value.length === 0) blocks.push({ kind: "text", text: "None." });
      const objects = value.filter(isPlainObject);
      const cols = [...new Set(objects.flatMap((o) => Object.keys(o)))];
      if (
        objects.length === value.length &&
        cols.length <= 5 &&
        objects.every((o) => Object.values(o).every(isPrimitive))
      ) {
        blocks.push({
          kind: "table",
          header: cols.map(humanize),
          rows: objects.map((o) => cols.map((c) => formatValue(c, o[c]))),
        });
      } else {
        value.forEach((item, i) => {
          if (isPlainObject(item)) {
            blocks.push({
              kind: "subheading",
              text: `${humanize(key)} ${i + 1}`,
            });
            blocks.push(...sectionBlocks(item, depth + 2));
          } else {
            blocks.push({ kind: "text", text: formatValue(key, item).text });
          }
        });
      }
    }
  }
  flush();
  return blocks;
}

function pivot(
  byDirection: Record<string, Record<string, unknown>>,
): Extract<Block, { kind: "table" }> {
  const dirs = Object.keys(byDirection);
  const rows: Cell[][] = [];
  const seen = new Map<string, { label: string; key: string }>();
  const values = new Map<string, Map<string, unknown>>();
  for (const d of dirs) {
    for (const [label, key, v] of flatten(byDirection[d] ?? {})) {
      if (!seen.has(label)) seen.set(label, { label, key });
      if (!values.has(label)) values.set(label, new Map());
      values.get(label)!.set(d, v);
    }
  }
  for (const { label, key } of seen.values()) {
    rows.push([
      { text: label },
      ...dirs.map((d) => formatValue(key, values.get(label)!.get(d))),
    ]);
  }
  return {
    kind: "table",
    header: ["", ...dirs.map((d) => directionLabels[d]!)],
    rows,
  };
}

// ---------------------------------------------------------------------------------------------
// Layout

const margin = { top: 56, bottom: 64, left: 56, right: 56 };
const contentWidth = A4.width - margin.left - margin.right;
const colors = reportInk;
const fontSize = {
  title: 20,
  subtitle: 9.5,
  heading: 13,
  subheading: 10.5,
  cell: 9.5,
  footer: 8,
};
const pad = { x: 6, y: 4 };

export async function renderPcapInsightsPdf(
  input: PcapInsightsInput,
): Promise<Buffer> {
  const product = input.productName;
  // Rules, fills, repeated table heads and the footer are marked as artifacts (openTaggedPdf).
  const { doc, done, root } = openTaggedPdf({
    margins: margin,
    info: {
      Title: `${product} performance insights report`,
      Author: product,
      Subject: `Flow analysis of session ${input.session.session_id} of ${input.fileName}`,
    },
  });

  const bottom = () => A4.height - margin.bottom;
  const ensure = (h: number) => {
    if (doc.y + h > bottom()) {
      doc.addPage();
      doc.y = margin.top;
      return true;
    }
    return false;
  };

  /** One tagged block of text (H1, H2, H3, P) in one style; `y` defaults to where the text is. */
  const textBlock = (tag: "H1" | "H2" | "H3" | "P", style: { color: string; weight: Weight; size: number }, text: string, y?: number) =>
    doc.struct(tag, {}, [() => writeText(doc.fillColor(style.color), text, margin.left, y ?? doc.y, { size: style.size, weight: style.weight, width: contentWidth })]);

  // Title block
  const s = input.session;
  root.add(textBlock("H1", { color: colors.heading, weight: "bold", size: fontSize.title }, `${product} Performance Insights Report`, margin.top));
  doc.moveDown(0.35);
  const clientRule = pcapClientRuleText(s.client_chosen_by);
  const flow = `${s.proto.toUpperCase()} ${endpoint(s.src_addr, s.src_port)} to ${endpoint(s.dst_addr, s.dst_port)}`;
  for (const line of [
    `Capture: ${input.fileName}`,
    `Session ${s.session_id}: ${flow}${s.app_name ? ` (${s.app_name})` : ""}${clientRule ? `; client ${clientRule}` : ""}`,
    ...(input.report.general_info?.mirror_session ? [`Mirrored traffic: ${pcapMirrorSessionText(input.report.general_info.mirror_session)}`] : []),
    `Generated: ${input.generatedAt
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, " UTC")}`,
  ]) {
    root.add(textBlock("P", { color: colors.muted, weight: "regular", size: fontSize.subtitle }, line));
  }
  doc.moveDown(0.6);
  rule(doc, colors.heading, 1.2);
  doc.moveDown(0.8);

  const sections: [string, Block[]][] = [
    ["Summary", summaryBlocks(input.report.summary)],
    ["General Info", sectionBlocks(generalInfo(input.report))],
    ["Network Data", sectionBlocks(input.report.network_data ?? {})],
    ["Flow Quality Assessment", sectionBlocks(notMeasured(input.report))],
    [
      "Cross-client similarity",
      [{ kind: "text", text: cap(SIMILARITY_PLACEHOLDER) + "." }],
    ],
    [
      "Cross-site similarity",
      [{ kind: "text", text: cap(SIMILARITY_PLACEHOLDER) + "." }],
    ],
  ];

  for (const [title, blocks] of sections) {
    const sect = doc.struct("Sect");
    root.add(sect);
    heading(sect, title, blocks[0]);
    if (blocks.length === 0) paragraph(sect, "No data.", true);
    for (const [i, b] of blocks.entries()) {
      if (b.kind === "subheading") {
        // Kept with what follows it: the whole table when it fits on a page, else its first row.
        const next = blocks[i + 1];
        ensure(subheadingHeight() + (next ? keepHeight(next) : 0));
        doc.moveDown(0.3);
        sect.add(textBlock("H3", { color: colors.heading, weight: "bold", size: fontSize.subheading }, b.text));
        doc.moveDown(0.25);
      } else if (b.kind === "text") {
        paragraph(
          sect,
          b.text,
          b.text.toLowerCase().startsWith(SIMILARITY_PLACEHOLDER),
        );
      } else {
        table(sect, b);
        doc.moveDown(0.5);
      }
    }
    sect.end();
    doc.moveDown(0.7);
  }
  root.end();

  // Footer on every page: product and "Page i of n".
  writePageFeet(doc, (page, count) => {
    const y = A4.height - margin.bottom + 24;
    doc
      .moveTo(margin.left, y - 8)
      .lineTo(A4.width - margin.right, y - 8)
      .lineWidth(0.5)
      .strokeColor(colors.rule)
      .stroke();
    doc.fillColor(colors.muted);
    writeText(doc, `${product} performance insights report`, margin.left, y, { size: fontSize.footer, width: contentWidth / 2, wrap: false });
    writeText(doc, `Page ${page} of ${count}`, margin.left + contentWidth / 2, y, { size: fontSize.footer, width: contentWidth / 2, align: "right", wrap: false });
  });
  doc.end();
  return done;

  // -- helpers (closures over doc) --

  function heading(
    sect: PDFKit.PDFStructureElement,
    title: string,
    first: Block | undefined,
  ) {
    ensure(30 + (first ? keepHeight(first) : 20));
    sect.add(textBlock("H2", { color: colors.heading, weight: "bold", size: fontSize.heading }, title));
    doc.moveDown(0.2);
    rule(doc, colors.rule, 0.75);
    doc.moveDown(0.5);
  }

  function paragraph(
    sect: PDFKit.PDFStructureElement,
    text: string,
    muted = false,
  ) {
    const weight: Weight = muted ? "italic" : "regular";
    const h = textHeight(doc, text, { size: fontSize.cell, weight, width: contentWidth });
    ensure(h + 4);
    sect.add(textBlock("P", { color: muted ? colors.muted : colors.text, weight, size: fontSize.cell }, text));
    doc.moveDown(0.3);
  }

  /** The height to keep with a heading: a whole table when it fits on one page, else its first row. */
  function keepHeight(b: Block): number {
    if (b.kind !== "table") return firstRowHeight(b);
    const cols = b.header?.length ?? Math.max(...b.rows.map((r) => r.length));
    const w = widths(cols);
    const total =
      (b.header
        ? rowHeight(
            b.header.map((t) => ({ text: t })),
            w,
            true,
          )
        : 0) + b.rows.reduce((h, r) => h + rowHeight(r, w, false), 0);
    return total <= bottom() - margin.top - 60 ? total : firstRowHeight(b);
  }

  function subheadingHeight() {
    return setFont(doc, "bold", fontSize.subheading).currentLineHeight(true) + 10;
  }

  function widths(cols: number): number[] {
    if (cols <= 1) return [contentWidth];
    // The label column is as wide in every table, so values line up down the page.
    const first = contentWidth * 0.36;
    const rest = (contentWidth - first) / (cols - 1);
    return [first, ...Array.from({ length: cols - 1 }, () => rest)];
  }

  function rowHeight(cells: Cell[], w: number[], bold: boolean) {
    let h = 0;
    cells.forEach((c, i) => {
      h = Math.max(
        h,
        textHeight(doc, c.text || " ", { size: fontSize.cell, weight: bold || i === 0 ? "bold" : "regular", width: w[i]! - 2 * pad.x }),
      );
    });
    return h + 2 * pad.y;
  }

  function firstRowHeight(b: Block): number {
    if (b.kind !== "table") return 24;
    const cols = b.header?.length ?? b.rows[0]?.length ?? 2;
    const w = widths(cols);
    const head = b.header
      ? rowHeight(
          b.header.map((t) => ({ text: t })),
          w,
          true,
        )
      : 0;
    return head + (b.rows[0] ? rowHeight(b.rows[0], w, false) : 0);
  }

  /**
   * One row. `tr` receives the row's structure (TH in the head, else TD); without it (the head
   * repeated on a new page) the row is an artifact, read once only.
   */
  function drawRow(
    cells: Cell[],
    w: number[],
    kind: "header" | "even" | "odd",
    tr: PDFKit.PDFStructureElement | null,
  ) {
    const h = rowHeight(cells, w, kind === "header");
    const y = doc.y;
    if (kind !== "odd") {
      doc.markContent("Artifact", { type: "Layout" });
      doc
        .rect(margin.left, y, contentWidth, h)
        .fill(kind === "header" ? colors.headerFill : colors.zebra);
      doc.endMarkedContent();
    }
    let x = margin.left;
    cells.forEach((c, i) => {
      const bold = kind === "header" || i === 0;
      const cellX = x;
      const draw = () => {
        doc.fillColor(
          c.tone === "good"
            ? colors.pass
            : c.tone === "bad"
              ? colors.fail
              : i === 0 && kind !== "header"
                ? colors.muted
                : colors.text,
        );
        writeText(doc, c.text, cellX + pad.x, y + pad.y, {
          size: fontSize.cell,
          weight: bold || c.tone ? "bold" : "regular",
          width: w[i]! - 2 * pad.x,
        });
      };
      if (tr) tr.add(doc.struct(kind === "header" ? "TH" : "TD", {}, [draw]));
      else {
        doc.markContent("Artifact", { type: "Pagination" });
        draw();
        doc.endMarkedContent();
      }
      x += w[i]!;
    });
    doc.markContent("Artifact", { type: "Layout" });
    doc
      .moveTo(margin.left, y + h)
      .lineTo(margin.left + contentWidth, y + h)
      .lineWidth(0.4)
      .strokeColor(colors.rule)
      .stroke();
    doc.endMarkedContent();
    doc.x = margin.left;
    doc.y = y + h;
  }

  /** A table; kept on one page when it fits, else its head row is repeated on each new page. */
  function table(
    sect: PDFKit.PDFStructureElement,
    b: Extract<Block, { kind: "table" }>,
  ) {
    const cols = b.header?.length ?? Math.max(...b.rows.map((r) => r.length));
    const w = widths(cols);
    const header = b.header?.map((t) => ({ text: t }));
    const struct = doc.struct("Table");
    sect.add(struct);
    ensure(keepHeight(b));
    if (header) {
      const tr = doc.struct("TR");
      struct.add(tr);
      drawRow(header, w, "header", tr);
      tr.end();
    }
    b.rows.forEach((r, i) => {
      const cells = Array.from(
        { length: cols },
        (_, j) => r[j] ?? { text: "" },
      );
      if (ensure(rowHeight(cells, w, false)) && header)
        drawRow(header, w, "header", null);
      const tr = doc.struct("TR");
      struct.add(tr);
      drawRow(cells, w, i % 2 === 0 ? "even" : "odd", tr);
      tr.end();
    });
    struct.end();
  }
}

function summaryBlocks(
  summary: PcapFlowReport["summary"] | undefined,
): Block[] {
  if (!summary) return [];
  // `findings` are not repeated: the comment already says each of them in words.
  const {
    performance_degradation,
    comment,
    findings: _findings,
    ...rest
  } = summary as Record<string, unknown>;
  const rows: Cell[][] = [
    [
      { text: "Performance degradation" },
      formatValue("performance_degradation", performance_degradation),
    ],
    [{ text: "Comment" }, formatValue("comment", comment)],
  ];
  const blocks: Block[] = [{ kind: "table", header: null, rows }];
  if (Object.keys(rest).length) blocks.push(...sectionBlocks(rest));
  return blocks;
}

/** The flow quality figures; for UDP, those without a value say why. */
function notMeasured(report: PcapFlowReport): Record<string, unknown> {
  const fqa = (report.flow_quality_assessment ?? {}) as Record<string, unknown>;
  if (report.general_info?.protocol !== "udp") return fqa;
  return Object.fromEntries(
    Object.entries(fqa).map(([k, v]) => [
      k,
      v === null ? "Not measured for UDP" : v,
    ]),
  );
}

function endpoint(addr: string, port: number) {
  return addr.includes(":") ? `[${addr}]:${port}` : `${addr}:${port}`;
}

function rule(doc: PDFKit.PDFDocument, color: string, width: number) {
  const y = doc.y;
  doc.markContent("Artifact", { type: "Layout" });
  doc
    .moveTo(margin.left, y)
    .lineTo(margin.left + contentWidth, y)
    .lineWidth(width)
    .strokeColor(color)
    .stroke();
  doc.endMarkedContent();
  doc.y = y;
}
