import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * The console names platform calls by the contract's keys and takes their answers as declared
 * (issue 61 item 1, platform/contract/calls.ts): no type argument on a call helper, no `as` cast
 * on what one answers. app/lib/untyped-calls.server.ts keeps the old string-named helpers for the
 * modules below only, until each is converted; the list may only shrink.
 */

const root = path.resolve(import.meta.dirname, "../..");

/** The modules still calling by string (each to convert; then remove it here). */
const stillUntyped = [
  "app/routes/devices-shared/activation.server.ts",
  "app/routes/devices-shared/dialog-data.server.ts",
  "app/routes/devices-shared/intents.server.ts",
  "app/routes/endpoint-node-groups/address-toggle.server.ts",
  "app/routes/ethernet-devices/route.tsx",
  "app/routes/routers/route.tsx",
  "app/routes/service-nodes/node-actions.server.ts",
  "app/routes/service-nodes/node-loader.server.ts",
  "app/routes/service-nodes/node-screen.server.ts",
  "app/routes/services-shared/intents.server.ts",
];

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

const helpers = "apiGet|apiGetShared|apiPost|callApi|apiGetOrThrow|apiList|apiListOrThrow|apiPageOrThrow|fetchTablePage|submitForm|removeIntent";
const files = sources("app").filter((f) => f !== "app/lib/untyped-calls.server.ts");
const typed = files.filter((f) => !stillUntyped.includes(f));

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

  it("call by string only in the modules not yet converted", () => {
    const importing = files.filter((f) => /from "[^"]*\/untyped-calls\.server\.ts"/.test(readFileSync(path.join(root, f), "utf8")));
    expect(importing.sort()).toEqual([...stillUntyped].sort());
  });
});
