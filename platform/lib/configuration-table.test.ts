import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { consoleEnvSchema } from "../../app/lib/env.server.ts";
import { platformEnvSchema } from "./config.ts";

/*
 * The configuration table (docs/configuration.md, "Every variable"), the two schemas and the code cannot drift apart: every
 * variable a schema declares has its row, every row is declared, and every variable the code reads
 * at run time (app/, platform/, server/, server.mjs; not tests) is declared by a schema, so it is
 * checked at start.
 */
const declared = new Set([...Object.keys(consoleEnvSchema.shape), ...Object.keys(platformEnvSchema.shape)]);

function tableVariables(): Set<string> {
  const page = fs.readFileSync("docs/configuration.md", "utf8");
  const start = page.indexOf("## Every variable\n");
  const section = page.slice(start, page.indexOf("\n## ", start + 1));
  const names = new Set<string>();
  for (const line of section.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const firstCell = line.split("|")[1]!;
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "test" && entry.name !== "node_modules" && !entry.name.startsWith(".")) out.push(...sourceFiles(p));
    } else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.test\.|\.d\.m?ts$/.test(entry.name)) {
      out.push(p);
    }
  }
  return out;
}

/** NAME in process.env.NAME, process.env["NAME"] and env.NAME (a function's environment parameter). */
function variablesRead(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const names: string[] = [];
  for (const m of text.matchAll(/\b(?:process\.env|env)(?:\.([A-Z][A-Z0-9_]+)|\[\s*["'`]([A-Z][A-Z0-9_]+)["'`]\s*\])/g)) names.push((m[1] ?? m[2])!);
  return names;
}

describe("the configuration table", () => {
  it("lists exactly the variables the schemas declare", () => {
    const rows = tableVariables();
    expect([...declared].filter((n) => !rows.has(n)).sort(), "declared, without a row in docs/configuration.md").toEqual([]);
    expect([...rows].filter((n) => !declared.has(n)).sort(), "in docs/configuration.md, declared by no schema").toEqual([]);
  });

  it("declares every variable the code reads at run time", () => {
    const files = [...sourceFiles("app"), ...sourceFiles("platform"), ...sourceFiles("server"), "server.mjs"];
    const undeclared = files.flatMap((f) => variablesRead(f).filter((n) => !declared.has(n)).map((n) => `${n} (${f})`));
    expect(undeclared).toEqual([]);
  });
});
