import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Speed machinery stays below the screens (issue 61 item 4, docs/decisions/2026-12-03-caches-and-patches.md):
 * a screen module (app/routes) reads through the loaders and call helpers of app/lib and
 * app/components and never names a cache, so that no screen has to know which of its reads are
 * remembered, for how long, or when to forget them.
 */

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** Modules that are caches, and names that are cache functions, none of which a screen may use. */
const cacheModules = /from "[^"]*\/(bounded-memo|shared-answer\.server|derived|until-next-bucket\.server|kept\.server)(\.tsx?)?"/;
const cacheNames = /\b(BoundedMemo|UntilNextBucket|KeptUntilNextBucket|sharedAnswer|apiGetShared|forgetKeptMonitoring|monitoringKept|derived)\b|\bshared: true\b|\?\.catch\(\(\) => \{\}\)/;

describe("screens and caches", () => {
  const screens = sources("app/routes");

  it("finds the screens' modules", () => {
    expect(screens.length).toBeGreaterThan(50);
  });

  it("no screen module imports a cache or calls a cache function", () => {
    const found = screens.flatMap((f) =>
      readFileSync(path.join(root, f), "utf8")
        .split("\n")
        .flatMap((line, i) => (cacheModules.test(line) || (cacheNames.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line)) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it("refuses what it is meant to refuse", () => {
    const refused = [
      'import { BoundedMemo } from "../../lib/bounded-memo.ts";',
      'import { derived } from "../../lib/shared-answer.server.ts";',
      "  early?.catch(() => {});",
      '  { readable: ["refresh"], guard: forgetKeptMonitoring },',
      '  part(request, "x", {}, { shared: true }),',
    ];
    for (const line of refused) expect(cacheModules.test(line) || cacheNames.test(line), line).toBe(true);
  });
});
