import PDFDocument from "pdfkit";

/*
 * What every report PDF starts with (activation test, PCAP insights; the post-mortem and SLA
 * reports can take it too): an A4 document tagged for screen readers, its bytes collected.
 */

/** A4 in PDF points. */
export const A4 = { width: 595.28, height: 841.89 };

/** The reports' colours (activation test, PCAP insights, SLA): text, headings, rules, table fills, pass and fail. */
export const reportInk = { text: "#1f2328", muted: "#5b636e", heading: "#163a5f", rule: "#c9d1da", zebra: "#f3f6f9", headerFill: "#e4eaf1", pass: "#1a7f37", fail: "#b42318" } as const;

/** Text the built-in fonts can show (WinAnsi): arrows and other symbols are spelled out. */
export function pdfSafe(text: string): string {
  return text
    .replace(/\u2192/g, "->")
    .replace(/\u2190/g, "<-")
    .replace(/\u2194/g, "<->")
    .replace(/[\u2264]/g, "<=")
    .replace(/[\u2265]/g, ">=")
    .replace(/\u00A0/g, " ")
    .replace(
      /[^\u0009\u000A\u000D\u0020-\u007E\u00A1-\u00FF\u2013\u2014\u2018\u2019\u201C\u201D\u2022\u2026\u20AC]/g,
      "?",
    );
}

/**
 * A tagged A4 PDF (pdfkit's accessibility support: a structure tree of headings, paragraphs and
 * tables under `root`, the language, and the title shown instead of the file name), its pages
 * buffered so that page numbers can be written last. `done` resolves with the bytes after
 * `doc.end()`.
 */
export function openTaggedPdf(opts: { margins: { top: number; bottom: number; left: number; right: number }; info: { Title: string; Author: string; Subject: string } }) {
  const doc = new PDFDocument({ size: "A4", margins: opts.margins, bufferPages: true, tagged: true, pdfVersion: "1.5", lang: "en-US", displayTitle: true, info: opts.info });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const root = doc.struct("Document");
  doc.addStructure(root);
  return { doc, done, root };
}

/**
 * The foot of every page, written last (the pages are buffered): `draw` is called on each page
 * with its number and the count, inside a Pagination artifact (screen readers skip it) and with
 * the bottom margin lifted, so text below the content area makes no new page.
 */
export function writePageFeet(doc: PDFKit.PDFDocument, draw: (page: number, count: number) => void) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    doc.markContent("Artifact", { type: "Pagination" });
    const savedBottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    draw(i - range.start + 1, range.count);
    doc.page.margins.bottom = savedBottom;
    doc.endMarkedContent();
  }
}
