// `npm install` runs this (postinstall): in two installed dependencies it replaces one function
// each that made every server-rendered page keep its data until V8's next full collection
// (docs/decisions/2026-12-01-dependency-patches.md). Each patch names the files of the exact version
// it was written for and the SHA-256 of the text it replaces in each: anything else (another version,
// an edited file) stops the install with a message saying what to do, rather than patching blind.
// Idempotent: a file already patched is left as it is, so after changing a replacement reinstall
// its package (rm -rf node_modules/<package> && npm install). scripts/patch-dependencies.test.ts
// checks that the modules the console and its tests load hold the current patches.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The first 16 hex digits of the text's SHA-256: enough to tell an unexpected text. */
export const digest = (text) => crypto.createHash("sha256").update(text).digest("hex").slice(0, 16);

/** The first line of every replacement: how a patched file is recognised. */
export const header = (patch) =>
  `// Linkwise patch "${patch.name}" (scripts/patch-dependencies.mjs, docs/decisions/2026-12-01-dependency-patches.md):\n`;

/**
 * An object literal's getters as plain properties, each computed once when the literal is made:
 * `get name() {\n      return EXPR;\n    },` becomes `name: EXPR,`.
 */
const gettersToProperties = (text) =>
  text.replace(/ {4}get (\w+)\(\) \{\n {6}return ([\s\S]*?);\n {4}\},\n/g, (_, name, expr) => `    ${name}: ${expr.replaceAll("\n      ", "\n    ")},\n`);

/**
 * The text from `start` up to (not including) `end`, in each file of `files` (path in the package and
 * the digest of that text there), is replaced by `replace(text, file)`.
 */
export const PATCHES = [
  {
    name: "react-router createStaticRouter",
    why:
      "The static router's getters are plain properties, computed once. Each getter of an object literal is a new accessor pair, " +
      "which V8 allocates in the old generation: every server render kept its router, the routes and the loaders' data until a full collection. " +
      "Nothing changes the context after this call.",
    package: "react-router",
    version: "7.18.4",
    // Node's import and require (its module-sync condition) load the .mjs builds; Vitest the CommonJS ones.
    files: [
      { path: "dist/development/chunk-OB3PAWPO.mjs", sha256: "5e9b63f5b659efe7" },
      { path: "dist/production/chunk-Q34X6AWR.mjs", sha256: "5e9b63f5b659efe7" },
      { path: "dist/development/chunk-HQO5H5CC.js", sha256: "3ce9be2bee19b278" },
      { path: "dist/production/chunk-AOOKMWND.js", sha256: "18fa8bba2e4e76d2" },
    ],
    start: "function createStaticRouter(routes, context, opts = {}) {",
    end: "function createHref(to) {",
    replace: (text) => gettersToProperties(text),
  },
  {
    name: "@conform-to/react getMetadata",
    why:
      "The field metadata's getters live on one prototype instead of in an object literal. getMetadata runs on every read of a field's property, " +
      "and each getter of its literal was a new accessor pair in V8's old generation: each read kept its closures and the form's state until a full collection.",
    package: "@conform-to/react",
    version: "1.21.1",
    // Its exports give the .mjs build to Node's import, Vite and Vitest.
    files: [{ path: "dist/context.mjs", sha256: "3706155d7bb4413d" }],
    start: "function getMetadata(context, subjectRef, stateSnapshot) {",
    end: "function getFieldMetadata(context, subjectRef, stateSnapshot) {",
    replace: () => fs.readFileSync(path.join(root, "patches/conform-get-metadata.js"), "utf8"),
  },
];

/**
 * One file's text patched, or null when it is already patched; throws when the text to replace is
 * not the one the patch was written for.
 */
export function patchText(text, patch, file) {
  if (text.includes(header(patch))) return null;
  const at = text.indexOf(patch.start);
  if (at < 0) throw new Error(`${patch.name}: ${patch.package}/${file.path} has no "${patch.start}"`);
  const to = text.indexOf(patch.end, at);
  if (to < 0) throw new Error(`${patch.name}: ${patch.package}/${file.path} has no "${patch.end}" after "${patch.start}"`);
  const original = text.slice(at, to);
  const found = digest(original);
  if (found !== file.sha256) {
    throw new Error(
      `${patch.name}: the text to replace in ${patch.package}/${file.path} is not the one the patch was written for (sha256 ${found}, expected ${file.sha256})`,
    );
  }
  const why = patch.why.replace(/(.{1,96})(\s+|$)/g, "// $1\n");
  return text.slice(0, at) + header(patch) + why + patch.replace(original, file) + text.slice(to);
}

export function applyPatches({ nodeModules = path.join(root, "node_modules"), patches = PATCHES, log = console.log } = {}) {
  for (const patch of patches) {
    const dir = path.join(nodeModules, patch.package);
    if (!fs.existsSync(dir)) continue; // not installed (npm install --omit=dev of another tool)
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    if (version !== patch.version) {
      throw new Error(
        `${patch.name}: written for ${patch.package} ${patch.version}, installed ${version}. Check whether ${version} still ` +
          `needs it (docs/decisions/2026-12-01-dependency-patches.md), then update or remove it in scripts/patch-dependencies.mjs.`,
      );
    }
    for (const file of patch.files) {
      const full = path.join(dir, file.path);
      const patched = patchText(fs.readFileSync(full, "utf8"), patch, file);
      if (patched === null) continue;
      fs.writeFileSync(full, patched);
      log(`patched ${patch.package}/${file.path} (${patch.name})`);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    applyPatches();
  } catch (error) {
    console.error(`scripts/patch-dependencies.mjs: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
