import { describe, expect, it } from "vitest";
import { tableRows } from "./table-rows.ts";
import { BOUNDED_MAX, compareValues, pageRows, parsePositiveInt, parseTableQuery, platformPage, type TableState } from "./table.server.ts";

interface Row {
  id: string;
  name: string;
  email: string;
  n?: number | null;
}

function req(query: string, cookie?: string) {
  return new Request(`http://localhost/contacts${query}`, { headers: cookie ? { Cookie: cookie } : {} });
}

const options = { sortable: ["name", "email", "n"], hideable: ["address", "updated_at"] };

describe("parseTableQuery", () => {
  it("defaults: page 1, size 10, no search, no sort, nothing selected", () => {
    const { state, headers } = parseTableQuery(req(""), options);
    expect(state).toEqual({ page: 1, size: 10, sizes: [10, 25, 50], q: "", sort: null, selected: [], cols: [], sortable: ["name", "email", "n"] });
    expect(headers.get("Set-Cookie")).toBeNull();
  });

  it("reads page, size, q, sort, selected and cols", () => {
    const { state } = parseTableQuery(req("?page=3&size=25&q=%20ada%20&sort=-email&selected=a&selected=b,c&cols=address&cols=bogus"), options);
    expect(state).toMatchObject({ page: 3, size: 25, q: "ada", sort: { id: "email", desc: true }, selected: ["a", "b", "c"], cols: ["address"] });
    expect(parseTableQuery(req("?sort=name"), options).state.sort).toEqual({ id: "name", desc: false });
  });

  it("ignores a sort on a column that cannot be sorted, keeping the default", () => {
    expect(parseTableQuery(req("?sort=password"), options).state.sort).toBeNull();
    expect(parseTableQuery(req("?sort=-"), { ...options, defaultSort: { id: "n", desc: true } }).state.sort).toEqual({ id: "n", desc: true });
  });

  it("clamps bad pages to 1 and refuses sizes other than 10, 25, 50", () => {
    for (const page of ["0", "-2", "abc", "1.5", "", "1e3"]) expect(parseTableQuery(req(`?page=${page}`), options).state.page).toBe(1);
    expect(parseTableQuery(req("?page=99999999999"), options).state.page).toBe(1_000_000);
    for (const size of ["0", "11", "1000", "x", "-10"]) expect(parseTableQuery(req(`?size=${size}`), options).state.size).toBe(10);
  });

  it("remembers a chosen size in the page_size cookie and uses the cookie after", () => {
    const chosen = parseTableQuery(req("?size=50"), options);
    expect(chosen.state.size).toBe(50);
    expect(chosen.headers.get("Set-Cookie")).toMatch(/^page_size=50; Path=\/; Max-Age=\d+; SameSite=Lax$/);
    const later = parseTableQuery(req("", "a=1; page_size=50; b=2"), options);
    expect(later.state.size).toBe(50);
    expect(later.headers.get("Set-Cookie")).toBeNull();
    // Same size as the cookie: nothing to set. A bad cookie is ignored.
    expect(parseTableQuery(req("?size=50", "page_size=50"), options).headers.get("Set-Cookie")).toBeNull();
    expect(parseTableQuery(req("", "page_size=7"), options).state.size).toBe(10);
    // The URL wins over the cookie.
    expect(parseTableQuery(req("?size=25", "page_size=50"), options).state.size).toBe(25);
  });

  it("uses the table's default size (50 for PCAP sessions) without URL or cookie", () => {
    expect(parseTableQuery(req(""), { defaultSize: 50 }).state.size).toBe(50);
    expect(parseTableQuery(req("", "page_size=10"), { defaultSize: 50 }).state.size).toBe(10);
  });

  it("caps the search text", () => {
    expect(parseTableQuery(req(`?q=${"x".repeat(500)}`), options).state.q).toHaveLength(200);
  });
});

describe("helpers", () => {
  it("parsePositiveInt", () => {
    expect(parsePositiveInt("7", 1)).toBe(7);
    expect(parsePositiveInt(null, 4)).toBe(4);
    expect(parsePositiveInt("50", 1, 10)).toBe(10);
  });
  it("compareValues: numbers, natural text order, case-insensitive, blanks last", () => {
    expect(compareValues(2, 10)).toBeLessThan(0);
    expect(compareValues("a2", "a10")).toBeLessThan(0);
    expect(compareValues("apple", "Banana")).toBeLessThan(0);
    expect(compareValues("", "a")).toBeGreaterThan(0);
    expect(compareValues(null, null)).toBe(0);
  });
});

describe("pageRows", () => {
  const rows: Row[] = Array.from({ length: 23 }, (_, i) => ({
    id: `r${i}`,
    name: `Name ${i}`,
    email: i % 2 ? `odd${i}@example.com` : `even${i}@example.com`,
    n: i % 5 === 0 ? null : i,
  }));
  const base: TableState = { page: 1, size: 10, sizes: [10, 25, 50], q: "", sort: null, selected: [], cols: [] };
  const opts = { getRowId: (r: Row) => r.id, search: ["name", "email"] as const };

  it("pages and counts", () => {
    const p = pageRows(rows, { ...base, page: 3 }, opts);
    expect(tableRows(p).map((r) => r.id)).toEqual(["r20", "r21", "r22"]);
    expect(p).toMatchObject({ page: 3, pageCount: 3, total: 23, unfiltered: 23 });
  });

  it("clamps a page past the end to the last page", () => {
    expect(pageRows(rows, { ...base, page: 40 }, opts).page).toBe(3);
    const empty = pageRows([], { ...base, page: 5 }, opts);
    expect(empty).toMatchObject({ page: 1, pageCount: 1, total: 0, unfiltered: 0, rowCount: 0 });
  });

  it("searches case-insensitively; every word must match", () => {
    expect(tableRows(pageRows(rows, { ...base, q: "ODD1" }, opts)).map((r) => r.id)).toEqual(["r1", "r11", "r13", "r15", "r17", "r19"]);
    expect(tableRows(pageRows(rows, { ...base, q: "name 2 even" }, opts)).map((r) => r.id)).toEqual(["r2", "r12", "r20", "r22"]);
    const none = pageRows(rows, { ...base, q: "nobody" }, opts);
    expect(none).toMatchObject({ total: 0, unfiltered: 23, rowCount: 0 });
    expect(tableRows(none)).toEqual([]);
    expect(pageRows(rows, { ...base, q: "r1" }, { getRowId: opts.getRowId, search: (r: Row) => r.id }).total).toBe(11);
  });

  it("sorts naturally both ways, blanks last, ties stable", () => {
    const asc = tableRows(pageRows(rows, { ...base, size: 50, sort: { id: "name", desc: false } }, opts)).map((r) => r.name);
    expect(asc.slice(0, 4)).toEqual(["Name 0", "Name 1", "Name 2", "Name 3"]);
    expect(asc.at(-1)).toBe("Name 22");
    const desc = tableRows(pageRows(rows, { ...base, size: 50, sort: { id: "name", desc: true } }, opts)).map((r) => r.name);
    expect(desc[0]).toBe("Name 22");
    const byN = tableRows(pageRows(rows, { ...base, size: 50, sort: { id: "n", desc: true } }, opts));
    expect(byN[0]!.n).toBe(22);
    expect(byN.slice(-5).map((r) => r.n)).toEqual([null, null, null, null, null]);
    expect(byN.slice(-5).map((r) => r.id)).toEqual(["r0", "r5", "r10", "r15", "r20"]);
  });

  it("sorts by a custom value", () => {
    const p = pageRows(rows, { ...base, sort: { id: "email", desc: false } }, { ...opts, sortValue: (r) => r.email.length });
    expect(tableRows(p)[0]!.email.length).toBeLessThanOrEqual(tableRows(p)[9]!.email.length);
  });

  it("keeps only selected ids that exist (even when filtered out)", () => {
    const p = pageRows(rows, { ...base, q: "odd", selected: ["r2", "ghost", "r3"] }, opts);
    expect(p.selected).toEqual(["r2", "r3"]);
  });

  it("searches, then sorts, then pages", () => {
    const p = pageRows(rows, { ...base, q: "even", sort: { id: "name", desc: true }, size: 10, page: 2 }, opts);
    expect(p.total).toBe(12);
    // Even rows by name, naturally, descending: Name 22, 20, …, 4 | 2, 0.
    expect(tableRows(p).map((r) => r.id)).toEqual(["r2", "r0"]);
  });
});

describe("platformPage", () => {
  const state = { page: 3, size: 10, sizes: [10, 25, 50], q: "hopper", sort: null, selected: ["con-ada", "con-grace"], cols: [] };

  it("keeps the TablePage shape, clamps the page and counts only selected rows the result holds", () => {
    const page = platformPage({ items: [{ id: "con-grace" }], total: 1 }, state, ["con-grace"], 1);
    expect(page).toMatchObject({ page: 1, pageCount: 1, total: 1, rowCount: 1, unfiltered: 1, selected: ["con-grace"] });
    expect(tableRows(page)).toEqual([{ id: "con-grace" }]);
  });

  it("a selection the search hides is not counted (issue 10 item 13)", () => {
    const page = platformPage({ items: [], total: 0 }, state, [], 1);
    expect(page.selected).toEqual([]);
    expect(page.pageCount).toBe(1);
  });
});

describe("pageRows", () => {
  it("refuses a list that is not bounded by design", () => {
    const rows = Array.from({ length: BOUNDED_MAX + 1 }, (_, i) => ({ id: String(i) }));
    const state = { page: 1, size: 10, sizes: [10], q: "", sort: null, selected: [], cols: [] };
    const error = console.error;
    console.error = () => {};
    try {
      expect(() => pageRows(rows, state, { getRowId: (r) => r.id })).toThrow(/at most/);
    } finally {
      console.error = error;
    }
  });
});
