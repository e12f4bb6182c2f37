import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * Each user-facing message is written once (issue 61 item 1): a sentence said by both the platform
 * and the console lives in platform/contract/messages.ts (plain constants, no zod, so browser code
 * may import it), one the console says in several modules in app/lib/messages.ts or the screen's
 * model. This reads every source of app/ and platform/ (tests aside) with the TypeScript parser
 * and lists each sentence-like literal (a capital first, `.`, `!` or `?` last, three words or
 * more: string, template without substitutions or JSX text) that stands in more than one module,
 * with file:line. The same module saying it twice is one definition (one place to change).
 */

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$|\.d\.ts$/.test(e.name) ? [rel] : [];
  });
}

/** Sentence-like literals of the sources: text → where it stands (file:line). */
export function sentences(files: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isJsxText(node)) {
        const s = node.text.trim().replace(/\s+/g, " ");
        if (/^[A-Z].*[.!?]$/.test(s) && s.split(" ").length >= 3) {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          const where = found.get(s) ?? [];
          found.set(s, [...where, `${file}:${line}`]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe("user-facing messages", () => {
  const found = sentences([...sources("app"), ...sources("platform")]);

  it("finds the sentences it is meant to (the scan works)", () => {
    expect(found.get("Assigned entity successfully.")).toEqual([expect.stringMatching(/^platform\/contract\/messages\.ts:\d+$/)]);
    expect(found.size).toBeGreaterThan(300);
  });

  it("are each written in one module", () => {
    const duplicated = [...found]
      .filter(([, where]) => new Set(where.map((w) => w.replace(/:\d+$/, ""))).size > 1)
      .map(([text, where]) => `${JSON.stringify(text)}: ${where.join(", ")}`);
    expect(duplicated).toEqual([]);
  });
});
