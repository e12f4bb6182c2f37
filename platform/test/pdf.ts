import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";

/*
 * What poppler's tools (installed by .ci/run) read from a report PDF, for the reports' tests: its
 * text (pdftotext), its fonts (pdffonts) and its document information (pdfinfo).
 */

export interface PdfFont {
  name: string;
  type: string;
  embedded: boolean;
  subset: boolean;
  /** Has a ToUnicode map: its text can be extracted. */
  unicode: boolean;
}

export interface PdfRead {
  /** pdftotext's text, in reading order (no -layout). */
  text: string;
  /** The same with every run of white space one space. */
  flat: string;
  /** pdftotext -layout's lines. */
  lines: string[];
  fonts: PdfFont[];
  /** pdfinfo's fields (Title, Subject, Pages, …), as UTF-8. */
  info: Record<string, string>;
}

/** Columns of pdffonts' table, from its rule of dashes: [start, end) of each. */
function columns(rule: string): [number, number][] {
  return [...rule.matchAll(/-+/g)].map((m) => [m.index, m.index + m[0].length]);
}

export function readPdf(pdf: Buffer): PdfRead {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "report-pdf-"));
  const file = path.join(dir, "report.pdf");
  try {
    fs.writeFileSync(file, pdf);
    const run = (tool: string, ...args: string[]) => execFileSync(tool, [...args, file, ...(tool === "pdftotext" ? ["-"] : [])], { encoding: "utf8" });
    const text = run("pdftotext", "-enc", "UTF-8");
    const [, rule, ...rows] = run("pdffonts").split("\n");
    const cols = columns(rule!);
    const fonts = rows
      .filter((r) => r.trim())
      .map((r) => {
        const cell = (i: number) => r.slice(cols[i]![0], i + 1 < cols.length ? cols[i + 1]![0] : undefined).trim();
        return { name: cell(0), type: cell(1), embedded: cell(3) === "yes", subset: cell(4) === "yes", unicode: cell(5) === "yes" };
      });
    const info = Object.fromEntries(
      run("pdfinfo", "-enc", "UTF-8")
        .split("\n")
        .map((l) => /^([^:]+):\s*(.*)$/.exec(l))
        .filter((m) => m !== null)
        .map((m) => [m[1]!, m[2]!]),
    );
    return { text, flat: text.replace(/\s+/g, " "), lines: run("pdftotext", "-layout", "-enc", "UTF-8").split("\n"), fonts, info };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A name in the scripts customers write theirs in: Latin with diacritics, CJK, Greek, Cyrillic. */
export const WORLD_NAME = "Łódź 東京 Αθήνα Москва";

/** Every font is embedded as a subset with a ToUnicode map, none of them a standard font left to the viewer (Helvetica). */
export function expectEmbeddedFonts(read: PdfRead) {
  expect(read.fonts.length).toBeGreaterThan(0);
  for (const f of read.fonts) {
    expect(f, f.name).toMatchObject({ embedded: true, subset: true, unicode: true });
    // A subset's name is a tag of six capitals, '+', the font's name.
    expect(f.name, f.name).toMatch(/^[A-Z]{6}\+Noto/);
  }
}
