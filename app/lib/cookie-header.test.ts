import { expect, it } from "vitest";
import { readCookie } from "./cookie-header.ts";

it("readCookie finds one cookie among others, quoted or not, and no other", () => {
  expect(readCookie("a=1; b=two; c=3", "b")).toBe("two");
  expect(readCookie('a=1;b="q%20v"', "b")).toBe("q v");
  expect(readCookie("ab=1; b=2", "b")).toBe("2");
  expect(readCookie("xpage_size=25", "page_size")).toBeNull();
  expect(readCookie("a=1; page_size=25", "page_size")).toBe("25");
  expect(readCookie("v=a=b", "v")).toBe("a=b");
  expect(readCookie("a=1", "b")).toBeNull();
  expect(readCookie(null, "b")).toBeNull();
});
