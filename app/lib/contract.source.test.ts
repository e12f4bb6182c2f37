import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The console names platform calls by the contract's keys and takes their answers as declared
 * (issue 61 item 1, platform/contract/calls.ts): no type argument on a call helper, no `as` cast
 * on what one answers; no module calls the platform by a path of its own (a string call).
 */

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

const helpers = "apiGet|apiGetShared|apiPost|callApi|apiGetOrThrow|apiList|apiListOrThrow|apiPageOrThrow|fetchTablePage|submitForm|removeIntent";
const typed = sources("app");

describe("the console's platform calls (contract)", () => {
  it("put no type argument on a call helper", () => {
    const found = typed.flatMap((f) => [...readFileSync(path.join(root, f), "utf8").matchAll(new RegExp(`\\b(${helpers})<`, "g"))].map((m) => `${f}: ${m[0]}`));
    // The helpers' own declarations are the one place their type parameters stand.
    expect(found.filter((s) => !/^app\/lib\/(api|action|table)\.server\.ts: /.test(s))).toEqual([]);
  });

  // (A route error's `error.data` is React Router's, not a platform answer.)
  it("cast no answer with `as`", () => {
    const cast = new RegExp(`\\b(${helpers})\\([^;]*?\\)\\)?\\s+as\\s+(?!const\\b)|(?<!\\berror)\\.data\\s+as\\s+(?!const\\b)`, "g");
    const found = typed.flatMap((f) => [...readFileSync(path.join(root, f), "utf8").matchAll(cast)].map((m) => `${f}: ${m[0]}`));
    // api.server.ts and action.server.ts: the typed helpers' one cast each, on the declared answer (commented there).
    expect(found.filter((s) => !/^app\/lib\/(api|action)\.server\.ts: /.test(s))).toEqual([]);
  });

  // The untyped path (api.server.ts's callPlatform, table.server.ts's tablePageOf) is private to
  // the typed helpers; a module of its own making the same (a fetch to /api/v1/, a helper taking a
  // `path: string`) would be a string call again. (Raw files and streams: callPlatformRaw, by path.)
  it("call by string nowhere", () => {
    const untyped = /\b(callPlatform|tablePageOf)\b|untyped-calls|\/api\/v1\/\$\{/;
    const found = typed.filter((f) => f !== "app/lib/api.server.ts" && f !== "app/lib/table.server.ts" && untyped.test(readFileSync(path.join(root, f), "utf8")));
    expect(found).toEqual([]);
    const own = ["app/lib/api.server.ts", "app/lib/table.server.ts"].filter((f) => /export (async )?function (callPlatform|tablePageOf)\b/.test(readFileSync(path.join(root, f), "utf8")));
    expect(own).toEqual([]);
  });
});
