import PDFDocument from "pdfkit";

/*
 * What every report PDF starts with (activation test, PCAP insights; the post-mortem and SLA
 * reports can take it too): an A4 document tagged for screen readers, its bytes collected.
 */

/** A4 in PDF points. */
export const A4 = { width: 595.28, height: 841.89 };

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
