import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, setPageSecurityHeaders } from "./csp.server.ts";
import { reportPdfHeaders } from "./pdf-headers.ts";

/*
 * Issue 27 item 11: the PCAP report's PDF preview renders under the CSP. The page may embed one
 * thing as an object, the report PDF of its own origin; everything else stays refused.
 */
const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";

describe("the report preview under the CSP", () => {
  it("a page's object-src allows the same-origin report PDFs only", () => {
    const csp = contentSecurityPolicy("n0nce", { dev: false, env: {}, origin: "https://console.example" });
    expect(directive(csp, "object-src")).toBe("object-src https://console.example/pcap-analyzer/report.pdf https://console.example/main-dashboard/flow-report.pdf");
    expect(directive(csp, "frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive(csp, "frame-src")).toBe("");
  });

  it("without a known origin, nothing may be embedded", () => {
    expect(directive(contentSecurityPolicy("n0nce", { dev: false, env: {} }), "object-src")).toBe("object-src 'none'");
  });

  it("setPageSecurityHeaders takes the page's origin", () => {
    const h = new Headers();
    setPageSecurityHeaders(h, "n0nce", "/pcap-analyzer", "http://localhost:3000");
    expect(h.get("Content-Security-Policy")).toContain("object-src http://localhost:3000/pcap-analyzer/report.pdf");
  });

  it("the inline PDF may be embedded by its own origin (frame-ancestors 'self'), a download by nobody", () => {
    const inline = reportPdfHeaders(false, "Linkwise-report.pdf");
    expect(inline.get("X-Frame-Options")).toBe("SAMEORIGIN");
    expect(directive(inline.get("Content-Security-Policy")!, "frame-ancestors")).toBe("frame-ancestors 'self'");
    expect(directive(inline.get("Content-Security-Policy")!, "default-src")).toBe("default-src 'none'");
    const download = reportPdfHeaders(true, "Linkwise-report.pdf");
    expect(download.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(download.get("X-Frame-Options")).toBe("DENY");
  });
});
