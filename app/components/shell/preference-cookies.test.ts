import { describe, expect, it } from "vitest";
import { readNav, readTheme } from "../../lib/preferences.server.ts";
import { preferenceCookie } from "./preference-cookies.ts";

/** A request carrying the cookie a browser keeps from a Set-Cookie (or document.cookie) string. */
const withCookie = (cookie: string) => new Request("http://x/", { headers: { Cookie: cookie.split(";")[0]! } });

describe("the preferences' cookies, written by the browser at once and by /preferences", () => {
  it("are what the server reads back", () => {
    expect(readTheme(withCookie(preferenceCookie("theme", "dark")!))).toBe("dark");
    expect(readTheme(withCookie(preferenceCookie("theme", "light")!))).toBe("light");
    expect(readNav(withCookie(preferenceCookie("nav", "collapsed")!))).toBe("collapsed");
    expect(readNav(withCookie(preferenceCookie("nav", "expanded")!))).toBe("expanded");
  });

  it("clear the cookie for the system's theme and the screen's own width, and last a year otherwise", () => {
    expect(preferenceCookie("theme", "system")).toMatch(/^theme=; Path=\/; Max-Age=0;/);
    expect(preferenceCookie("nav", "auto")).toMatch(/^nav_collapsed=; Path=\/; Max-Age=0;/);
    expect(preferenceCookie("theme", "dark")).toContain(`Max-Age=${60 * 60 * 24 * 365}`);
  });

  it("write nothing for another field or an unknown value", () => {
    expect(preferenceCookie("csrf", "x")).toBeNull();
    expect(preferenceCookie("theme", "pink")).toBeNull();
    expect(preferenceCookie("nav", "wide")).toBeNull();
  });
});
