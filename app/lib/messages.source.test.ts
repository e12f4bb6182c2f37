import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
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
 * Near-twins are refused too: two wordings of one message that differ only in their trailing
 * stop or their case ('Entity name is required' beside 'Entity name is required.').
 */

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$|\.d\.ts$/.test(e.name) ? [rel] : [];
  });
}

/** Literals of the sources that read as words (a capital first, three words or more): text → where it stands (file:line). */
function phrases(files: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.resolve(root, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isJsxText(node)) {
        const s = node.text.trim().replace(/\s+/g, " ");
        if (/^[A-Z]/.test(s) && s.split(" ").length >= 3) {
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

/** Sentence-like literals of the sources (a capital first, `.`, `!` or `?` last, three words or more). */
export function sentences(files: string[]): Map<string, string[]> {
  return new Map([...phrases(files)].filter(([text]) => /[.!?]$/.test(text)));
}

/**
 * Near-twins: the wordings of one message (the same words once the trailing stop and the case are
 * set aside) written more than one way, at least one of them a sentence (a label's case variants,
 * 'Node Group Id' beside 'Node group id', are labels, not messages). Key (lower case, no stop) →
 * each wording and where it stands.
 */
export function nearTwins(files: string[]): Map<string, Map<string, string[]>> {
  const groups = new Map<string, Map<string, string[]>>();
  for (const [text, where] of phrases(files)) {
    const key = text.replace(/[.!?]+$/, "").toLowerCase();
    groups.set(key, (groups.get(key) ?? new Map()).set(text, where));
  }
  return new Map([...groups].filter(([, wordings]) => wordings.size > 1 && [...wordings.keys()].some((t) => /[.!?]$/.test(t))));
}

/*
 * The near-twins of the screens still to be converted (issue 61 item 1: app services, endpoints,
 * nodes, devices), each the console's form saying with a stop what the platform says without.
 * Their conversions make the platform's request schemas say the stopped wording (as entities,
 * contacts, user agents and support do) and remove them here; the list must be exact, so a fixed
 * one cannot stay and a new one cannot come. Keys are lower case, without the stop.
 */
const nearTwinsLeft: string[] = [
  "choose a time",
  "select a product",
  // Not yet decided: a select's placeholder ('Select an endpoint') beside the error of the same
  // words ('Select an endpoint.'); the platform's 404 details 'Entity not found' (entities,
  // availability: also in the OpenAPI document's descriptions) beside IAM's 'Entity not found.',
  // and availability's 'Outage not found' beside monitoring's 'Outage not found.'.
  "select an endpoint",
  "entity not found",
  "outage not found",
];

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

  it("are not written in two near-twin wordings (a stop or a case apart)", () => {
    const twins = nearTwins([...sources("app"), ...sources("platform")]);
    for (const [key, wordings] of twins) if (!nearTwinsLeft.includes(key)) console.log(key, [...wordings]);
    expect([...twins.keys()].sort()).toEqual([...nearTwinsLeft].sort());
  });

  it("finds the near-twins it is meant to (the scan works)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "near-twins-"));
    try {
      writeFileSync(path.join(dir, "a.ts"), 'export const a = "Entity name is required";\nexport const label = "Node Group Id";');
      writeFileSync(path.join(dir, "b.tsx"), 'export const b = <p>Entity Name is required.</p>;\nexport const label = "Node group id";');
      const twins = nearTwins([path.join(dir, "a.ts"), path.join(dir, "b.tsx")]);
      expect([...twins.keys()]).toEqual(["entity name is required"]);
      expect([...twins.get("entity name is required")!.keys()].sort()).toEqual(["Entity Name is required.", "Entity name is required"]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

