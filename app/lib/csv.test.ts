import { describe, expect, it } from "vitest";

/** The bytes as text, BOM kept (Response.text() drops it). */
const read = async (stream: ReadableStream<Uint8Array>) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
import { CSV_BOM, csvCell, csvLine, ndjsonToCsv, toCsv, type CsvColumn } from "./csv.ts";

describe("csvCell", () => {
  it("leaves plain text alone and writes blanks for null", () => {
    expect(csvCell("Ada Lovelace")).toBe("Ada Lovelace");
    expect(csvCell(42)).toBe("42");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
  });

  it("quotes commas, quotes and line breaks (RFC 4180), doubling quotes", () => {
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("line1\nline2")).toBe('"line1\nline2"');
    expect(csvCell("a\r\nb")).toBe('"a\r\nb"');
  });

  it("neutralises what a spreadsheet would run as a formula", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+44 1")).toBe("'+44 1");
    expect(csvCell("-2")).toBe("'-2");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("\rx")).toBe("\"'\rx\"");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvCell("a=b")).toBe("a=b");
  });

  it("ends a line with CRLF", () => {
    expect(csvLine(["a", "b,c", null])).toBe('a,"b,c",\r\n');
  });
});

describe("ndjsonToCsv", () => {
  const columns: CsvColumn<{ n: string; e: string }>[] = [
    { header: "Name", value: (r) => r.n },
    { header: "E-mail, work", value: (r) => r.e },
  ];

  it("writes the BOM and the header, then one line per row, across chunk boundaries", async () => {
    const ndjson = `${JSON.stringify({ n: "Ada", e: "a@x" })}\n${JSON.stringify({ n: "=cmd", e: "é,\"q\"" })}\n`;
    const bytes = new TextEncoder().encode(ndjson);
    // Split inside a line and inside the two-byte 'é'.
    const cut1 = 10;
    const cut2 = bytes.indexOf(0xc3) + 1;
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, cut1));
        c.enqueue(bytes.slice(cut1, cut2));
        c.enqueue(bytes.slice(cut2));
        c.close();
      },
    });
    const text = await read(source.pipeThrough(ndjsonToCsv(columns)));
    expect(text).toBe(`${CSV_BOM}Name,"E-mail, work"\r\nAda,a@x\r\n'=cmd,"é,""q"""\r\n`);
  });

  it("writes only the header for no rows, and a last line without a newline", async () => {
    const empty = await read(new Response("").body!.pipeThrough(ndjsonToCsv(columns)));
    expect(empty).toBe(`${CSV_BOM}Name,"E-mail, work"\r\n`);
    const last = await read(new Response('{"n":"x","e":"y"}').body!.pipeThrough(ndjsonToCsv(columns)));
    expect(last).toBe(`${CSV_BOM}Name,"E-mail, work"\r\nx,y\r\n`);
  });
});

describe("toCsv", () => {
  it("writes a header and rows with CRLF, numbers (even negative) as numbers", () => {
    expect(toCsv([{ header: "A", value: (r: { a: number }) => r.a }], [{ a: 1 }, { a: -2 }])).toBe("A\r\n1\r\n-2\r\n");
    expect(csvCell(-3)).toBe("-3");
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
  });
});
