import { describe, expect, it } from "vitest";
import { LANDING_PATH, safePath, safeRedirect } from "./redirect.ts";

// The known open-redirect bypasses (issue 10 item 6): each must fall back.
const bypasses = [
  "//evil.example",
  "//evil.example/",
  "///evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\t/evil.example/",
  "/\u0009/evil.example/",
  "/%09/evil.example/",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/x\r\nSet-Cookie: a=1",
  "/%0d%0aSet-Cookie:%20a=1",
  "%2F%2Fevil.example",
  "/%2F%2Fevil.example",
  "/%2Fevil.example",
  "/%5Cevil.example",
  "/%5c%5cevil.example",
  "%5C%5Cevil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/a/..//evil.example",
  "javascript:alert(1)",
  "JavaScript:alert(1)",
  "/javascript:alert(1)".slice(1),
  "http://evil.example/",
  "https://evil.example/",
  "http:/evil.example",
  "//evil.example@good",
  " /main-dashboard",
  "\t/main-dashboard",
  "\u00a0//evil.example",
  "/ /evil.example",
  "/\u2028/evil.example",
  "/\u200b/evil.example",
  "/\uff0fevil.example",
  "/\u2215evil.example",
  "/%EF%BC%8Fevil.example",
  "/%E2%88%95evil.example",
  "data:text/html,<script>alert(1)</script>",
  "/%",
  "",
  `/${"a".repeat(2001)}`,
];

describe("safePath and safeRedirect: the console's one safe-redirect rule", () => {
  it.each(bypasses)("refuses %j", (raw) => {
    expect(safePath(raw, "/fallback")).toBe("/fallback");
    expect(safeRedirect(raw)).toBe("/main-dashboard");
  });

  it("refuses what is not a string", () => {
    expect(safeRedirect(null)).toBe("/main-dashboard");
    expect(safeRedirect(undefined)).toBe("/main-dashboard");
    expect(safeRedirect(new File([], "x"))).toBe("/main-dashboard");
  });

  it("keeps same-origin paths with their query and hash, normalised and ASCII", () => {
    expect(safeRedirect("/contacts?page=2&sort=-name")).toBe("/contacts?page=2&sort=-name");
    expect(safeRedirect("/entities?dialog=edit&id=e1#top")).toBe("/entities?dialog=edit&id=e1#top");
    expect(safeRedirect("/contacts/../entities")).toBe("/entities");
    expect(safeRedirect("/contacts?q=caf%C3%A9")).toBe("/contacts?q=caf%C3%A9");
    expect(safeRedirect("/contacts?q=café")).toBe("/contacts?q=caf%C3%A9");
    expect(safeRedirect("/")).toBe("/");
  });

  it("never goes back to the sign-in pages or the API after a login; safePath takes its own exclusions", () => {
    for (const p of ["/login", "/login?redirectTo=/x", "/login-mfa", "/logout", "/api/v1/token"]) expect(safeRedirect(p)).toBe("/main-dashboard");
    expect(safeRedirect("/loginx")).toBe("/loginx");
    expect(safePath("/login", "/f")).toBe("/login");
    expect(safePath("/pcap-analyzer?x=1", "/f", ["/pcap-analyzer"])).toBe("/f");
  });

  it("answers only values a Location header accepts", () => {
    for (const raw of [...bypasses, "/contacts?q=café", "/ü"]) expect(() => new Headers({ location: safeRedirect(raw) })).not.toThrow();
  });
});

// Issue 63 item 14: both specs name /main-dashboard the default landing; /dashboard is the Private
// Access dashboard, a page of its own, never where a sign-in ends by default.
describe("the landing page after signing in", () => {
  it("is /main-dashboard", () => {
    expect(LANDING_PATH).toBe("/main-dashboard");
    expect(safeRedirect(null)).toBe("/main-dashboard");
    expect(safeRedirect("")).toBe("/main-dashboard");
  });
});
