import { describe, expect, it } from "vitest";
import { applyParams, closeDialogHref, dialogHref, hrefWith, hrefWithout, keptParams, listParam, queryString, returnUrl } from "./url.ts";

const loc = { pathname: "/contacts", search: "?q=ada&sort=-last_name&selected=a&selected=b" };

describe("url helpers", () => {
  it("changes one parameter and keeps the rest", () => {
    expect(hrefWith(loc, { page: 2 })).toBe("/contacts?q=ada&sort=-last_name&selected=a&selected=b&page=2");
    expect(hrefWith(loc, { q: "grace" })).toBe("/contacts?q=grace&sort=-last_name&selected=a&selected=b");
  });

  it("removes parameters set to null, undefined, '' or false", () => {
    expect(hrefWith(loc, { q: null, sort: undefined, selected: "" })).toBe("/contacts");
    expect(hrefWith(loc, { q: false })).toBe("/contacts?sort=-last_name&selected=a&selected=b");
    expect(hrefWithout(loc, ["selected", "sort"])).toBe("/contacts?q=ada");
  });

  it("sets lists as repeated parameters, skipping blanks", () => {
    expect(hrefWith({ pathname: "/x", search: "" }, { selected: ["a", "", "b"] })).toBe("/x?selected=a&selected=b");
    expect(hrefWith({ pathname: "/x", search: "?selected=z" }, { selected: [] })).toBe("/x");
  });

  it("encodes values", () => {
    expect(hrefWith({ pathname: "/x", search: "" }, { id: "Branch & Office" })).toBe("/x?id=Branch+%26+Office");
  });

  it("does not touch its input", () => {
    const params = new URLSearchParams("a=1");
    applyParams(params, { a: 2, b: 3 });
    expect(params.toString()).toBe("a=1");
  });

  it("never leaves a lone '?'", () => {
    expect(queryString(new URLSearchParams())).toBe("");
  });

  it("opens and closes dialogs by URL", () => {
    const open = dialogHref(loc, "update", "con-1");
    expect(open).toBe("/contacts?q=ada&sort=-last_name&selected=a&selected=b&dialog=update&id=con-1");
    expect(dialogHref(loc, "create")).toBe("/contacts?q=ada&sort=-last_name&selected=a&selected=b&dialog=create");
    const u = new URL(open, "http://x");
    expect(closeDialogHref({ pathname: u.pathname, search: u.search })).toBe("/contacts?q=ada&sort=-last_name&selected=a&selected=b");
  });

  it("returnUrl: the request's URL without dialog, id and index, plus changes", () => {
    const request = new Request("http://localhost/contacts?q=ada&dialog=remove&id=con-1&index&selected=con-1");
    expect(returnUrl(request)).toBe("/contacts?q=ada&selected=con-1");
    expect(returnUrl(request, { selected: null })).toBe("/contacts?q=ada");
    expect(returnUrl("http://localhost/contacts?dialog=create")).toBe("/contacts");
  });

  it("listParam reads repeated and comma-joined values without blanks or repeats", () => {
    const params = new URLSearchParams("selected=a&selected=b,c&selected=&selected=a, d");
    expect(listParam(params, "selected")).toEqual(["a", "b", "c", "d"]);
    expect(listParam(params, "missing")).toEqual([]);
  });

  it("keptParams: hidden inputs for a GET form, minus its own fields and the dialog", () => {
    expect(keptParams("?q=x&page=3&size=25&dialog=edit&id=1&selected=a&selected=b", ["q", "page"])).toEqual([
      ["size", "25"],
      ["selected", "a"],
      ["selected", "b"],
    ]);
  });
});
