import fs from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";

/*
 * The fonts every report PDF is set in (docs/decisions/2026-12-03-pdf-fonts.md): Noto Sans for
 * Latin, Greek and Cyrillic, Noto Sans SC for Chinese characters and kana, Noto Sans KR for
 * Hangul, each in regular and bold (Noto Sans also in italic). They come with `npm install`
 * (@expo-google-fonts, TrueType outlines) and are embedded as subsets (pdfkit via fontkit: only
 * the glyphs a document uses). A character goes to the first font of its weight's list that has
 * it, so a name mixing scripts ("Łódź 東京") prints every glyph (./text.ts splits the runs).
 *
 * Each file is read once per process, when a document first needs it (a report in Latin script
 * never reads the CJK files), and kept with its fontkit object (coverage is asked of that).
 */

/** A font of the reports, by the name it is registered under in each document. */
export type Face = "Sans" | "Sans-Bold" | "Sans-Italic" | "SC" | "SC-Bold" | "KR" | "KR-Bold";

/** How text is set: each weight's fonts in the order a character is looked for. */
export type Weight = "regular" | "bold" | "italic";

const FILES: Record<Face, string> = {
  Sans: "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf",
  "Sans-Bold": "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
  "Sans-Italic": "@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf",
  SC: "@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf",
  "SC-Bold": "@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf",
  KR: "@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf",
  "KR-Bold": "@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf",
};

/** Each weight's fonts, the first the one its line height and baseline come from. CJK has no italic: upright it is. */
export const FACES: Record<Weight, readonly Face[]> = {
  regular: ["Sans", "SC", "KR"],
  bold: ["Sans-Bold", "SC-Bold", "KR-Bold"],
  italic: ["Sans-Italic", "SC", "KR"],
};

/** Where a font file is (node_modules, found from here: the sources and build/platform alike). */
export const fontFile = (face: Face) => createRequire(import.meta.url).resolve(FILES[face]);

/**
 * The font as pdfkit is given it, made once per process. pdfkit opens its own fontkit object of each
 * font for every document, and what fontkit decodes on first use it decodes again for each one:
 * - the OpenType layout tables (GSUB, GPOS, GDEF, BASE, JSTF), on a font's first layout: 150–500 ms
 *   per document for Noto Sans, whose tables serve hundreds of languages. They are left out: fontkit
 *   then maps characters to glyphs one to one (no kerning, ligatures or mark positioning; text is
 *   NFC-normalised first, so accented letters are their precomposed glyphs);
 * - the glyph names of 'post' (version 2), read for the font's descriptor: 10–170 ms for Noto Sans.
 *   It becomes a version 3 table (the same figures, no names; PDF needs none).
 * The embedded subsets hold none of these tables anyway.
 */
export function pdfkitFont(font: Buffer): Buffer {
  return rebuildFont(font, (tag, table) => {
    if (["GSUB", "GPOS", "GDEF", "BASE", "JSTF"].includes(tag)) return null;
    if (tag === "post" && table.readUInt32BE(0) === 0x00020000) {
      const v3 = Buffer.from(table.subarray(0, 32));
      v3.writeUInt32BE(0x00030000, 0);
      return v3;
    }
    return table;
  });
}

/**
 * An sfnt (TrueType/OpenType) font with each table replaced by what `table` answers for it (null:
 * left out). The checksums are not computed again: nothing reading these fonts checks them.
 */
export function rebuildFont(font: Buffer, table: (tag: string, data: Buffer) => Buffer | null): Buffer {
  const count = font.readUInt16BE(4);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 12 + 16 * i;
    const tag = font.toString("latin1", at, at + 4);
    const offset = font.readUInt32BE(at + 8);
    return { tag, checksum: font.readUInt32BE(at + 4), data: table(tag, font.subarray(offset, offset + font.readUInt32BE(at + 12))) };
  }).filter((t): t is typeof t & { data: Buffer } => t.data !== null);
  const directory = Buffer.alloc(12 + 16 * tables.length);
  font.copy(directory, 0, 0, 4); // the sfnt version
  // numTables, then searchRange, entrySelector and rangeShift as the format derives them.
  const power = 2 ** Math.floor(Math.log2(tables.length));
  directory.writeUInt16BE(tables.length, 4);
  directory.writeUInt16BE(power * 16, 6);
  directory.writeUInt16BE(Math.log2(power), 8);
  directory.writeUInt16BE(tables.length * 16 - power * 16, 10);
  const data: Buffer[] = [];
  let offset = directory.length;
  tables.forEach((t, i) => {
    const at = 12 + 16 * i;
    directory.write(t.tag, at, "latin1");
    directory.writeUInt32BE(t.checksum, at + 4);
    directory.writeUInt32BE(offset, at + 8);
    directory.writeUInt32BE(t.data.length, at + 12);
    // Each table starts on a 4-byte boundary.
    const padded = Buffer.alloc((t.data.length + 3) & ~3);
    t.data.copy(padded);
    data.push(padded);
    offset += padded.length;
  });
  return Buffer.concat([directory, ...data]);
}

interface Loaded {
  /** What pdfkit is given (registerFont). */
  bytes: Buffer;
  /** Asked which characters the font has. */
  font: fontkit.Font;
}

const loaded = new Map<Face, Loaded>();

/** The font, read and prepared on first use in this process. */
export function loadFace(face: Face): Loaded {
  let l = loaded.get(face);
  if (!l) {
    const bytes = pdfkitFont(fs.readFileSync(fontFile(face)));
    // A single font, not a collection: the files are .ttf.
    l = { bytes, font: fontkit.create(bytes) as fontkit.Font };
    loaded.set(face, l);
  }
  return l;
}

/** Whether the font has a glyph for the character. */
export const hasGlyph = (face: Face, codePoint: number) => loadFace(face).font.hasGlyphForCodePoint(codePoint);

/** The font of `weight` a character is set in: the first that has it, else the first (it prints the font's missing-glyph box). */
export function faceFor(weight: Weight, codePoint: number): Face {
  const faces = FACES[weight];
  // Printable ASCII is in every font: no look-up.
  if (codePoint >= 0x20 && codePoint < 0x7f) return faces[0]!;
  return faces.find((f) => hasGlyph(f, codePoint)) ?? faces[0]!;
}
