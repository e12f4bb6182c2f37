import { describe, expect, it } from "vitest";
import { analyzeFile } from "../pcap/analyzer.ts";
import { flowReport, toSession } from "../pcap/report.ts";
import { expectEmbeddedFonts, readPdf, WORLD_NAME } from "../test/pdf.ts";
import { renderPcapInsightsPdf } from "./pcap-insights.ts";

const SHARED = new URL("../../tests/fixtures/pcaps/captures/", import.meta.url).pathname;

async function tcpSession() {
  const result = await analyzeFile(`${SHARED}tcpdump-ssh.pcap`);
  const conv = result.conversations.find((c) => toSession(c).proto === "tcp")!;
  return { session: { ...toSession(conv), ep_id: null, app_service_id: null, node_id: null }, report: flowReport(conv) };
}

describe("the performance insights PDF", () => {
  it("prints a capture's name in any script (Latin, CJK, Greek, Cyrillic) in embedded subset fonts, the document's subject too", async () => {
    const fileName = `${WORLD_NAME}.pcap`;
    const pdf = readPdf(await renderPcapInsightsPdf({ productName: "Linkwise", fileName, ...(await tcpSession()), generatedAt: new Date("2026-01-01T00:00:00Z") }));
    expect(pdf.flat).toContain(`Capture: ${fileName}`);
    expectEmbeddedFonts(pdf);
    // Noto Sans Italic too: the similarity placeholders.
    expect(pdf.fonts.map((f) => f.name.slice(7))).toContain("NotoSans-Italic");
    expect(pdf.info.Subject).toMatch(new RegExp(`^Flow analysis of session \\w+ of ${WORLD_NAME}\\.pcap$`));
  });

  it("is a tagged PDF: structure tree, language, displayed title, headings and tables", async () => {
    const pdf = await renderPcapInsightsPdf({
      productName: "Linkwise",
      fileName: "tcpdump-ssh.pcap",
      ...(await tcpSession()),
      generatedAt: new Date("2026-01-01T00:00:00Z"),
    });
    const text = pdf.toString("latin1");
    expect(text.startsWith("%PDF-1.5")).toBe(true);
    expect(text).toMatch(/\/MarkInfo \d+ 0 R|\/Marked true/);
    expect(text).toContain("/StructTreeRoot");
    expect(text).toContain("/Lang (en-US)");
    expect(text).toContain("/DisplayDocTitle true");
    for (const tag of ["/S /Document", "/S /H1", "/S /H2", "/S /H3", "/S /P", "/S /Table", "/S /TR", "/S /TH", "/S /TD"]) expect(text).toContain(tag);
  });
});
