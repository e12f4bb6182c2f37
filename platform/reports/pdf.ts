import PDFDocument from "pdfkit";
import { setFont } from "./text.ts";

/*
 * What every report PDF starts with (activation test, PCAP insights, post-mortem, SLA): an A4
 * document tagged for screen readers, its bytes collected, set in the reports' embedded fonts
 * (./fonts.ts; text is written with ./text.ts).
 */

/** A4 in PDF points. */
export const A4 = { width: 595.28, height: 841.89 };

/** The reports' colours (activation test, PCAP insights, SLA): text, headings, rules, table fills, pass and fail. */
export const reportInk = { text: "#1f2328", muted: "#5b636e", heading: "#163a5f", rule: "#c9d1da", zebra: "#f3f6f9", headerFill: "#e4eaf1", pass: "#1a7f37", fail: "#b42318" } as const;

/**
 * A time as the console shows it (app/lib/format.ts formatTime): '2026-12-01 13:13 UTC'; an
 * unreadable value as it came.
 */
export function reportTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * A tagged A4 PDF (pdfkit's accessibility support: a structure tree of headings, paragraphs and
 * tables under `root`, the language, and the title shown instead of the file name), its pages
 * buffered so that page numbers can be written last. `done` resolves with the bytes after
 * `doc.end()`. The info strings are written as they are (pdfkit writes UTF-16 where they need it).
 */
export function openTaggedPdf(opts: { margins: { top: number; bottom: number; left: number; right: number }; info: { Title: string; Author: string; Subject: string } }) {
  const doc = new PDFDocument({ size: "A4", margins: opts.margins, bufferPages: true, tagged: true, pdfVersion: "1.5", lang: "en-US", displayTitle: true, info: opts.info });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  // Noto Sans from the start: pdfkit's own default (Helvetica, not embedded) is never used.
  setFont(doc, "regular", 12);
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
