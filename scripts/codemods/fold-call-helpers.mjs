#!/usr/bin/env node
/*
 * Issue 61 item 3: the platform's call declarations folded into three ways (platform/lib/openapi.ts):
 * `defineCall` (a read, a file, anything else), `defineChange` (a change) and `defineListCalls`
 * (a list with its export and detail). This rewrites the call sites of the helpers that went:
 *
 *   defineDetailCall({ … })  → defineCall({ method: "get", …, errors: [404, …] })
 *   definePdfCall({ … })     → defineCall({ method: "get", media: "application/pdf", …, errors: [404, …], responseDescription: "The PDF" })
 *   defineListCall({ … })    → defineListCalls({ tags, item, page, errors, list: { path, summary, rows, query } }).list
 *   defineExportCall({ … })  → defineListCalls({ tags, item, itemName, errors, export: { path, summary, description, query } }).export
 *
 * and the imports from lib/openapi.ts. The OpenAPI document is the same before and after. It parses
 * with the project's TypeScript (no regex over code), and is idempotent: a file without the old
 * names is left as it is, so it can run again after a merge brings call sites written the old way.
 *
 *   npx node scripts/codemods/fold-call-helpers.mjs [--check] [dir…]   (default: platform)
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const OLD = new Set(["defineDetailCall", "definePdfCall", "defineListCall", "defineExportCall"]);
const check = process.argv.includes("--check");
const dirs = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const roots = dirs.length ? dirs : ["platform"];

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules") yield* files(p);
    } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !p.endsWith(path.join("lib", "openapi.ts"))) yield p;
  }
}

/** The object literal's properties as text, by name (a shorthand `path` is its own text). */
function propsOf(obj, src, file) {
  const props = [];
  for (const p of obj.properties) {
    if (!(ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) || !p.name) {
      throw new Error(`${file}: cannot fold a call whose argument has ${p.getText(src)} (a spread or a method): rewrite it by hand`);
    }
    props.push({ name: p.name.getText(src), text: p.getText(src), node: p, column: src.getLineAndCharacterOfPosition(p.getStart(src)).character });
  }
  return props;
}

/** `errors` with 404 in front (the old helpers added it). */
function errorsWith404(props, src) {
  const errors = props.find((p) => p.name === "errors");
  if (!errors) return "errors: [404]";
  const init = ts.isPropertyAssignment(errors.node) ? errors.node.initializer : errors.node.name;
  if (ts.isArrayLiteralExpression(init)) {
    const items = init.elements.map((e) => e.getText(src));
    return `errors: [${items.includes("404") ? items.join(", ") : ["404", ...items].join(", ")}]`;
  }
  return `errors: [404, ...(${init.getText(src)} ?? [])]`;
}

function rewriteCall(name, obj, src, file) {
  const props = propsOf(obj, src, file);
  // A property written over several lines keeps its shape where it moves (its lines shift with it).
  const column = new Map(props.map((p) => [p.text, p.column]));
  const reindent = (text, to) => {
    const from = column.get(text);
    if (from === undefined || from === to || !text.includes("\n")) return text;
    return text.replace(/\n([ \t]*)/g, (_, ws) => `\n${" ".repeat(Math.max(0, ws.length + to - from))}`);
  };
  const text = (names) => props.filter((p) => names.includes(p.name)).map((p) => p.text);
  const others = (names) => props.filter((p) => !names.includes(p.name)).map((p) => p.text);
  const multiline = obj.getText(src).includes("\n");
  // The indentation of the line the call starts on: its properties go two spaces deeper.
  const lineStart = src.text.lastIndexOf("\n", obj.getStart(src)) + 1;
  const indent = /^[ \t]*/.exec(src.text.slice(lineStart))[0];
  const join = (parts, depth = 1) => {
    if (!multiline) return `{ ${parts.join(", ")} }`;
    const inner = indent + "  ".repeat(depth);
    return `{\n${parts.map((p) => `${inner}${reindent(p, inner.length)},`).join("\n")}\n${inner.slice(2)}}`;
  };
  switch (name) {
    case "defineDetailCall":
      return `defineCall(${join(['method: "get"', ...others(["errors"]), errorsWith404(props, src)])})`;
    case "definePdfCall": {
      const described = props.some((p) => p.name === "responseDescription");
      return `defineCall(${join(['method: "get"', 'media: "application/pdf"', ...others(["errors"]), errorsWith404(props, src), ...(described ? [] : ['responseDescription: "The PDF"'])])})`;
    }
    case "defineListCall": {
      const own = ["path", "summary", "rows", "query"];
      return `defineListCalls(${join([...others(own), `list: ${join(text(own), 2)}`])}).list`;
    }
    case "defineExportCall": {
      const own = ["path", "summary", "description", "query"];
      return `defineListCalls(${join([...others(own), `export: ${join(text(own), 2)}`])}).export`;
    }
  }
  throw new Error(name);
}

function transform(file) {
  const before = fs.readFileSync(file, "utf8");
  if (![...OLD].some((n) => before.includes(n))) return null;
  const src = ts.createSourceFile(file, before, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const edits = [];
  const needed = new Set();
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && OLD.has(node.expression.text)) {
      const [arg] = node.arguments;
      if (!arg || !ts.isObjectLiteralExpression(arg) || node.arguments.length !== 1) throw new Error(`${file}: ${node.getText(src).slice(0, 80)}… takes one object literal`);
      const name = node.expression.text;
      needed.add(name === "defineDetailCall" || name === "definePdfCall" ? "defineCall" : "defineListCalls");
      edits.push({ start: node.getStart(src), end: node.getEnd(), text: rewriteCall(name, arg, src, file) });
      return; // the argument holds no other old call (checked: they are leaves)
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && /(^|\/)lib\/openapi(\.ts)?$/.test(node.moduleSpecifier.text)) {
      const named = node.importClause?.namedBindings;
      if (named && ts.isNamedImports(named) && named.elements.some((e) => OLD.has(e.name.text))) edits.push({ imports: named });
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  const resolved = edits.map((e) => {
    if (!e.imports) return e;
    const names = e.imports.elements.filter((el) => !OLD.has(el.name.text)).map((el) => el.getText(src));
    for (const n of needed) if (!names.some((t) => t === n || t.endsWith(` ${n}`))) names.push(n);
    // The import's order as eslint's sort would have it: by name, case-insensitive, types with their name.
    names.sort((a, b) => a.replace(/^type /, "").localeCompare(b.replace(/^type /, ""), "en", { sensitivity: "base" }));
    return { start: e.imports.getStart(src), end: e.imports.getEnd(), text: `{ ${names.join(", ")} }` };
  });
  resolved.sort((a, b) => b.start - a.start);
  let after = before;
  for (const e of resolved) after = after.slice(0, e.start) + e.text + after.slice(e.end);
  return after === before ? null : after;
}

let changed = 0;
for (const root of roots) {
  for (const file of files(root)) {
    const after = transform(file);
    if (after === null) continue;
    changed++;
    if (check) console.log(`would fold: ${file}`);
    else {
      fs.writeFileSync(file, after);
      console.log(`folded: ${file}`);
    }
  }
}
console.log(`${changed} file(s) ${check ? "to fold" : "folded"}`);
if (check && changed) process.exitCode = 1;
