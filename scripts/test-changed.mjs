// `npm run test:changed [-- BASE]`: the tests a change touches, in a minute or two instead of the
// whole suite's quarter of an hour. BASE is a git revision (default: HEAD, i.e. what is not yet
// committed); files changed since it, and new files, are "the change".
//
// - types (the whole program: a change can break a caller anywhere) and lint (the changed files);
// - unit and platform tests that import a changed file, directly or not (vitest --changed), on
//   PGlite, and again on PostgreSQL when a platform file changed and PostgreSQL answers;
// - the end-to-end specs that changed, and those that visit a changed screen's URL (a folder of
//   app/routes/ is a screen; its URL is found in app/routes.ts), with JavaScript on and off.
// It is a quick answer, not the guarantee: shared console code (app/components, app/lib, root) can
// change any screen, and `npm test` remains what CI runs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const listOnly = process.argv.includes("--list"); // say what would run, run nothing
const base = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "HEAD";
const git = (args) => spawnSync("git", args, { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
const changed = [...new Set([...git(["diff", "--name-only", base]), ...git(["ls-files", "--others", "--exclude-standard"])])].filter((f) =>
  fs.existsSync(f),
);
if (changed.length === 0) {
  console.log(`Nothing changed since ${base}.`);
  process.exit(0);
}
console.log(`${changed.length} file(s) changed since ${base}.`);

const failed = [];
function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  if (listOnly) return;
  const t0 = Date.now();
  const res = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  console.log(`=== ${name}: ${res.status === 0 ? "ok" : "failed"} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (res.status !== 0) failed.push(name);
}

const code = changed.filter((f) => /\.(ts|tsx|mjs|js)$/.test(f));
run("type check", "npm", ["run", "-s", "typecheck"]);
if (code.length) run("lint (changed files)", "npx", ["eslint", "--max-warnings=0", "--no-warn-ignored", ...code]);

run("unit + platform (PGlite), related to the change", "npx", ["vitest", "run", "--changed", base, "--passWithNoTests"]);
if (changed.some((f) => f.startsWith("platform/"))) {
  const url = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";
  run("platform (PostgreSQL), related to the change", "npx", ["vitest", "run", "platform", "--changed", base, "--passWithNoTests"], {
    TEST_DATABASE_URL: url,
  });
}

// A screen's URL: app/routes.ts maps each URL to its module; the module's folder is the screen.
const routesFile = fs.readFileSync("app/routes.ts", "utf8");
const urlsOf = (folder) =>
  [...routesFile.matchAll(/(?:route|index)\(\s*"([^"]*)"\s*,\s*"routes\/([^"]+)"/g)]
    .filter(([, , module]) => module.startsWith(`${folder}/`) || module.replace(/\.tsx?$/, "") === folder)
    .map(([, url]) => `/${url.replace(/\/?:.*$/, "").replace(/^\//, "")}`)
    .filter((url) => url !== "/");
const screens = new Set(changed.filter((f) => f.startsWith("app/routes/")).map((f) => f.split("/")[2]?.replace(/\.(tsx?|css)$/, "")).filter(Boolean));
const urls = [...screens].flatMap(urlsOf);
const specs = fs
  .readdirSync("tests/e2e")
  .filter((f) => f.endsWith(".spec.ts"))
  .map((f) => `tests/e2e/${f}`)
  .filter((spec) => {
    if (changed.includes(spec)) return true;
    const text = fs.readFileSync(spec, "utf8");
    return urls.some((url) => new RegExp(`["'\`]${url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:[/?#"'\`]|$)`).test(text));
  });
const shared = changed.filter((f) => /^(app\/(components|lib|root|entry|routes\.ts)|server\/)/.test(f));
if (shared.length) console.log(`\nShared console code changed (${shared.slice(0, 3).join(", ")}${shared.length > 3 ? ", …" : ""}): any screen may be affected; npm run test:e2e runs them all.`);
if (specs.length) {
  run("build the console and the platform", "node", ["scripts/ensure-build.mjs"]);
  run(`end-to-end (${specs.length} spec(s))`, "npx", ["playwright", "test", ...specs]);
} else {
  console.log("\nNo end-to-end spec visits a changed screen.");
}

console.log(failed.length ? `\nFailed: ${failed.join("; ")}` : "\nAll passed.");
process.exit(failed.length ? 1 : 0);
