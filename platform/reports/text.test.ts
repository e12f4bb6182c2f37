import { describe, expect, it } from "vitest";
import { expectEmbeddedFonts, readPdf } from "../test/pdf.ts";
import { openTaggedPdf } from "./pdf.ts";
import { textHeight, writeText, type Text, type TextStyle } from "./text.ts";

/*
 * Text in the reports' fonts (./text.ts): each character in a font that has it, lines broken where
 * Unicode allows, measured across fonts, as the PDF's text reads back.
 */

/** A PDF of `text` in `style` at the page's top left: what pdftotext, pdffonts and pdfinfo read of it. */
async function pdfOf(text: Text, style: TextStyle) {
  const { doc, done, root } = openTaggedPdf({ margins: { top: 50, bottom: 50, left: 50, right: 50 }, info: { Title: "Text", Author: "Linkwise", Subject: "Text" } });
  root.add(doc.struct("P", {}, [() => writeText(doc, text, 50, 50, style)]));
  doc.end();
  return readPdf(await done);
}

describe("report text", () => {
  it("sets each character in a font that has it: Latin, Greek, Cyrillic in Noto Sans, kana and Chinese characters in Noto Sans SC, Hangul in Noto Sans KR", async () => {
    const pdf = await pdfOf([{ text: "Łódź Αθήνα Москва ひらがな 北京 서울 " }, { text: "東京 서울 Kraków", weight: "bold" }], { size: 10, width: 400 });
    expect(pdf.flat).toContain("Łódź Αθήνα Москва ひらがな 北京 서울 東京 서울 Kraków");
    expectEmbeddedFonts(pdf);
    expect(pdf.fonts.map((f) => f.name.slice(7)).sort()).toEqual(["NotoSans-Bold", "NotoSans-Regular", "NotoSansKR-Bold", "NotoSansKR-Regular", "NotoSansSC-Bold", "NotoSansSC-Regular"]);
  });

  it("wraps Chinese text, which has no spaces, at the column's width", async () => {
    const { doc } = openTaggedPdf({ margins: { top: 50, bottom: 50, left: 50, right: 50 }, info: { Title: "", Author: "", Subject: "" } });
    // 60 characters of 1 em (10 pt) in a 100 pt column: 10 a line, 6 lines of 1.2 em.
    expect(textHeight(doc, "東京".repeat(30), { size: 10, width: 100 })).toBeCloseTo(6 * 12, 6);
    const pdf = await pdfOf("東京".repeat(30), { size: 10, width: 100 });
    expect(pdf.text.trim().split("\n")).toEqual(Array.from({ length: 6 }, () => "東京".repeat(5)));
  });

  it("breaks a word wider than the column after its dots, a newline always, and keeps an empty line", async () => {
    const pdf = await pdfOf("et-0-0-1.core1.syd.backbone.example.net\n\nnext", { size: 10, width: 90 });
    const lines = pdf.text.replace(/\f/g, "").trimEnd().split("\n");
    expect(lines.at(-1)).toBe("next");
    const word = lines.slice(0, -1).filter(Boolean);
    expect(word.join("")).toBe("et-0-0-1.core1.syd.backbone.example.net");
    expect(word.length).toBeGreaterThan(1);
    for (const l of word.slice(0, -1)) expect(l).toMatch(/\.$/);
    // The empty line (pdftotext does not print it): its height.
    const { doc } = openTaggedPdf({ margins: { top: 50, bottom: 50, left: 50, right: 50 }, info: { Title: "", Author: "", Subject: "" } });
    expect(textHeight(doc, "a\n\nb", { size: 10, width: 90 })).toBeCloseTo(3 * 12, 6);
  });

  it("prints a letter and its combining accent as the accented letter", async () => {
    const pdf = await pdfOf("Lo\u0301dz\u0301", { size: 10, width: 400 });
    expect(pdf.text.trim()).toBe("Lódź");
  });
});
