import LineBreaker from "linebreak";
import { FACES, faceFor, hasGlyph, loadFace, type Face, type Weight } from "./fonts.ts";

/*
 * Text in the reports' fonts (./fonts.ts), laid out here rather than by pdfkit's own wrapping:
 * pdfkit sets one font per call and wraps each call on its own, so neither a name mixing scripts
 * ("Łódź 東京") nor a sentence with bold runs could be wrapped as one. Here a paragraph is one text:
 * its characters go to the fonts that have them, its lines break where the Unicode line breaking
 * algorithm allows (UAX #14, as pdfkit: between words, between CJK characters, never before a
 * comma), measured across every run, and each line is drawn run by run on one baseline.
 */

type Doc = PDFKit.PDFDocument;

/** A run of text in one weight (the post-mortem's bold runs). */
export interface Span {
  text: string;
  weight?: Weight;
}

/** A string in the style's weight, or runs each in its own. */
export type Text = string | readonly Span[];

export interface TextStyle {
  size: number;
  /** Of a string, and of runs that name none; regular by default. */
  weight?: Weight;
  /** The width the lines wrap at and are aligned in. */
  width: number;
  /** Below each line, as pdfkit's lineGap. */
  lineGap?: number;
  align?: "left" | "center" | "right";
  /** false: no wrapping (a page's foot): one line per newline, whatever its width. */
  wrap?: boolean;
}

const registered = new WeakMap<Doc, Set<Face>>();

/** Makes the font the document's current one (registered on first use in the document). */
function withFace(doc: Doc, face: Face, size: number): Doc {
  let faces = registered.get(doc);
  if (!faces) registered.set(doc, (faces = new Set()));
  if (!faces.has(face)) {
    doc.registerFont(face, loadFace(face).bytes);
    faces.add(face);
  }
  return doc.font(face).fontSize(size);
}

/**
 * Sets the weight's main font and the size, as `doc.font(...).fontSize(...)` did: what pdfkit's
 * own measures (`moveDown`, `currentLineHeight`) then go by.
 */
export const setFont = (doc: Doc, weight: Weight, size: number) => withFace(doc, FACES[weight][0]!, size);

/** Symbols Noto Sans lacks (the CJK fonts' are full-width): spelled out, as the reports always did. */
const SPELLED: Record<string, string> = { "\u2192": "->", "\u2190": "<-", "\u2194": "<->", "\u2264": "<=", "\u2265": ">=", "\u2248": "~" };

/** NFC (accented letters as one glyph: the fonts are used without their layout tables), tabs as spaces, no control characters. */
const clean = (s: string) =>
  s
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, " ")
    .replace(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g, "")
    .replace(/[\u2190\u2192\u2194\u2264\u2265\u2248]/g, (c) => SPELLED[c]!);

interface Run {
  start: number;
  end: number;
  face: Face;
  weight: Weight;
}

/** The text as one string and the runs of it each font sets. */
interface Prepared {
  text: string;
  runs: Run[];
}

const marks = /\p{M}/u;

function prepare(t: Text, weight: Weight): Prepared {
  const spans = typeof t === "string" ? [{ text: t, weight }] : t;
  let text = "";
  const runs: Run[] = [];
  for (const span of spans) {
    const w = span.weight ?? weight;
    for (const ch of clean(span.text)) {
      const cp = ch.codePointAt(0)!;
      const last = runs[runs.length - 1];
      // Spaces and newlines stay in the run before them (a CJK name is one run, spaces and all); a
      // combining mark stays on its letter when that font has it.
      const follows = last && last.weight === w && (ch === " " || ch === "\n" || (marks.test(ch) && hasGlyph(last.face, cp)));
      const face = follows ? last.face : faceFor(w, cp);
      if (last && last.face === face && last.weight === w) last.end += ch.length;
      else runs.push({ start: text.length, end: text.length + ch.length, face, weight: w });
      text += ch;
    }
  }
  return { text, runs };
}

/** The width of text[a, b) (newlines left out) at `size`. */
function measure(doc: Doc, p: Prepared, size: number, a: number, b: number): number {
  let width = 0;
  for (const r of p.runs) {
    const s = Math.max(a, r.start);
    const e = Math.min(b, r.end);
    if (s >= e) continue;
    const part = p.text.slice(s, e).replace(/\n/g, "");
    if (part) width += withFace(doc, r.face, size).widthOfString(part);
  }
  return width;
}

interface Line {
  start: number;
  /** Its end, trailing spaces left out. */
  end: number;
  width: number;
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
/** Rounding: a line exactly as wide as the column fits. */
const EPSILON = 1e-6;

function layout(doc: Doc, p: Prepared, style: TextStyle): Line[] {
  const { size } = style;
  const lines: Line[] = [];
  if (style.wrap === false) {
    let start = 0;
    for (const part of p.text.split("\n")) {
      lines.push({ start, end: start + part.length, width: measure(doc, p, size, start, start + part.length) });
      start += part.length + 1;
    }
    return lines;
  }
  const max = style.width + EPSILON;
  // The line being filled: from `start`; `end` and `width` up to its last word; `advance` with that word's trailing spaces.
  let line: Line = { start: 0, end: 0, width: 0 };
  let advance = 0;
  let filled = false;
  const newLine = (at: number) => {
    lines.push(filled ? line : { start: line.start, end: line.start, width: 0 });
    line = { start: at, end: at, width: 0 };
    advance = 0;
    filled = false;
  };
  const add = (a: number, b: number, w: number) => {
    if (filled && advance + w > max) newLine(a);
    line.end = b;
    line.width = advance + w;
    advance = line.width;
    filled = true;
  };
  const breaker = new LineBreaker(p.text);
  let from = 0;
  for (let brk = breaker.nextBreak(); brk; brk = breaker.nextBreak()) {
    const to = brk.position;
    let word = to;
    while (word > from && (p.text[word - 1] === " " || p.text[word - 1] === "\n")) word--;
    if (word > from) {
      const w = measure(doc, p, size, from, word);
      if (w <= max) add(from, word, w);
      else {
        // A word wider than the column (a host name, an address): cut after a dot, hyphen, slash…
        // where that fits, else between characters.
        let at = from;
        for (const part of p.text.slice(from, word).split(/(?<=[.\-/_:@])/)) {
          const pw = measure(doc, p, size, at, at + part.length);
          if (pw <= max) add(at, at + part.length, pw);
          else
            for (const g of graphemes.segment(part)) {
              const a = at + g.index;
              add(a, a + g.segment.length, measure(doc, p, size, a, a + g.segment.length));
            }
          at += part.length;
        }
      }
    }
    // The spaces after it count only when another word follows on the line.
    advance += measure(doc, p, size, word, to);
    // A newline ends the line (one ending the text too, with no empty line after it).
    if (brk.required && (to < p.text.length || p.text[to - 1] === "\n")) newLine(to);
    from = to;
  }
  if (filled) lines.push(line);
  return lines;
}

/**
 * A line's height, in ems: 1.2, as print commonly sets. Noto Sans's own (ascent + descent, 1.36 em)
 * would spread a report over more pages than Helvetica's 1.16 em did. The fonts' ascent-descent
 * box is centred on the line, as CSS does: accents and descenders keep clear of the next line.
 */
const LINE_HEIGHT = 1.2;

/** The height of a line of `style`, and its baseline below the line's top. */
function lineMetrics(weight: Weight, style: TextStyle) {
  const { font } = loadFace(FACES[weight][0]!);
  const ascent = font.ascent / font.unitsPerEm;
  const descent = -font.descent / font.unitsPerEm;
  return { height: LINE_HEIGHT * style.size + (style.lineGap ?? 0), baseline: ((LINE_HEIGHT - ascent - descent) / 2 + ascent) * style.size };
}

/** The height `text` takes in `style` (pdfkit's heightOfString, for these fonts). */
export function textHeight(doc: Doc, text: Text, style: TextStyle): number {
  const weight = style.weight ?? "regular";
  return layout(doc, prepare(text, weight), style).length * lineMetrics(weight, style).height;
}

/**
 * Writes `text` with its top at (x, y) (y: where the document is), as `doc.text` does: wrapped
 * at `style.width`, continued on a new page past the bottom margin, and leaving the document at
 * x, below the text, with the style's main font set.
 */
export function writeText(doc: Doc, text: Text, x: number, y: number | undefined, style: TextStyle): Doc {
  const weight = style.weight ?? "regular";
  const p = prepare(text, weight);
  const lines = layout(doc, p, style);
  // Every run sits on the main font's baseline.
  const { height: lineHeight, baseline } = lineMetrics(weight, style);
  let top = y ?? doc.y;
  for (const line of lines) {
    if (style.wrap !== false && top + lineHeight > doc.page.height - doc.page.margins.bottom && top > doc.page.margins.top) {
      doc.continueOnNewPage();
      top = doc.y;
    }
    let left = x + (style.align === "right" ? style.width - line.width : style.align === "center" ? (style.width - line.width) / 2 : 0);
    for (const r of p.runs) {
      const s = Math.max(line.start, r.start);
      const e = Math.min(line.end, r.end);
      if (s >= e) continue;
      const part = p.text.slice(s, e).replace(/\n/g, "");
      withFace(doc, r.face, style.size).text(part, left, top + baseline, { lineBreak: false, baseline: "alphabetic" });
      left += doc.widthOfString(part);
    }
    top += lineHeight;
  }
  setFont(doc, weight, style.size);
  doc.x = x;
  doc.y = top;
  return doc;
}
