import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { fieldMessages } from "../../platform/contract/messages.ts";
import { deviceName } from "../../platform/contract/devices-fields.shapes.ts";
import { pemField } from "../../platform/contract/nodes.shapes.ts";
import { idField, requiredName } from "../../platform/lib/fields.ts";
import { ipField } from "../../platform/lib/net-fields.ts";
import { subjectName } from "../routes/services-shared/schemas.server.ts";

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
 * Messages the field builders make from a field's name at run time (`idField("Node group")` says
 * 'Node group is required.') are run and checked with them: each ends with its stop, and none is a
 * near-twin of a written one.
 */

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$|\.d\.ts$/.test(e.name) ? [rel] : [];
  });
}

/** A JSX `placeholder` attribute's value: a control's label ('Select an endpoint'), not a message. */
const isPlaceholder = (node: ts.Node) => ts.isJsxAttribute(node.parent) && node.parent.name.getText() === "placeholder";

/**
 * Literals of the sources that read as words (a capital first, three words or more): text → where
 * it stands (file:line). `labels`: with JSX placeholders (a sentence is a sentence anywhere; the
 * near-twins leave a placeholder beside its message's words aside).
 */
function phrases(files: string[], labels = true): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.resolve(root, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isJsxText(node)) && (labels || !isPlaceholder(node))) {
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

/** What a schema says for a blank input (its first issue), run. */
const blankSays = (schema: { safeParse(v: unknown): { error?: { issues: readonly { message: string }[] } } }) => schema.safeParse("").error?.issues[0]?.message;

/**
 * The field builders whose blank message is built from the field's name (the name is a literal
 * the scan reads, the sentence is not): the builder → the message for a name, run. `maxArgs`: the
 * arguments the call has at most for the message to be the builder's (ipField's second argument
 * gives the blank's own words, a constant the scan reads).
 */
const builders: Record<string, { says: (what: string) => string | undefined; maxArgs?: number }> = {
  requiredName: { says: (w) => blankSays(requiredName(w)) },
  idField: { says: (w) => blankSays(idField(w)) },
  ipField: { says: (w) => blankSays(ipField(w)), maxArgs: 1 },
  deviceName: { says: (w) => blankSays(deviceName(w)) },
  pemField: { says: (w) => blankSays(pemField(w)) },
  subjectName: { says: (w) => blankSays(subjectName(w, 200)) },
};

/** The messages the builders make at run time for the names the sources call them with: message → where (file:line). */
export function builtMessages(files: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.resolve(root, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && Object.hasOwn(builders, node.expression.text)) {
        const builder = builders[node.expression.text]!;
        const [what] = node.arguments;
        if (what && (ts.isStringLiteral(what) || ts.isNoSubstitutionTemplateLiteral(what)) && node.arguments.length <= (builder.maxArgs ?? Infinity)) {
          const message = builder.says(what.text);
          if (message !== undefined) {
            const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
            found.set(message, [...(found.get(message) ?? []), `${file}:${line}`]);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/**
 * Near-twins: the wordings of one message (the same words once the trailing stop and the case are
 * set aside) written more than one way, at least one of them a sentence (a label's case variants,
 * 'Node Group Id' beside 'Node group id', are labels, not messages; so is a JSX `placeholder`,
 * a select's 'Select an endpoint' beside the error 'Select an endpoint.'). Key (lower case, no stop) →
 * each wording and where it stands.
 */
export function nearTwins(files: string[], built: Map<string, string[]> = new Map()): Map<string, Map<string, string[]>> {
  const groups = new Map<string, Map<string, string[]>>();
  const words = new Map(phrases(files, false));
  for (const [text, where] of built) if (/^[A-Z]/.test(text) && text.split(" ").length >= 3) words.set(text, [...(words.get(text) ?? []), ...where]);
  for (const [text, where] of words) {
    const key = text.replace(/[.!?]+$/, "").toLowerCase();
    groups.set(key, (groups.get(key) ?? new Map()).set(text, where));
  }
  return new Map([...groups].filter(([, wordings]) => wordings.size > 1 && [...wordings.keys()].some((t) => /[.!?]$/.test(t))));
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

  const built = builtMessages([...sources("app"), ...sources("platform")]);

  it("finds the messages the field builders make at run time (the scan works)", () => {
    expect(built.get(fieldMessages.required("Node group"))).toEqual([expect.stringMatching(/^platform\/contract\/nodes-forms\.shapes\.ts:\d+$/)]);
    expect(built.get("The certificate is required.")).toEqual([expect.stringMatching(/^platform\/contract\/nodes\.shapes\.ts:\d+$/)]);
    expect(built.size).toBeGreaterThan(30);
  });

  it("made at run time by the field builders end with their stop", () => {
    expect([...built].filter(([text]) => !/[.!?]$/.test(text)).map(([text, where]) => `${JSON.stringify(text)}: ${where.join(", ")}`)).toEqual([]);
  });

  it("are not written in two near-twin wordings (a stop or a case apart)", () => {
    const twins = nearTwins([...sources("app"), ...sources("platform")], built);
    expect([...twins].map(([key, wordings]) => `${key}: ${JSON.stringify(Object.fromEntries(wordings))}`)).toEqual([]);
  });

  it("finds the near-twins it is meant to (the scan works)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "near-twins-"));
    try {
      writeFileSync(path.join(dir, "a.ts"), 'export const a = "Entity name is required";\nexport const label = "Node Group Id";');
      writeFileSync(
        path.join(dir, "b.tsx"),
        'export const b = <p>Entity Name is required.</p>;\nexport const label = "Node group id";\nexport const s = <select placeholder="Select an endpoint" />;\nexport const e = "Select an endpoint.";',
      );
      const twins = nearTwins([path.join(dir, "a.ts"), path.join(dir, "b.tsx")]);
      expect([...twins.keys()]).toEqual(["entity name is required"]);
      expect([...twins.get("entity name is required")!.keys()].sort()).toEqual(["Entity Name is required.", "Entity name is required"]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

