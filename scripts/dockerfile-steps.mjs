// The Dockerfile's steps performed without Docker (no daemon runs on the machines that test this
// project), in an empty folder and in the Dockerfile's order, so that a step that could not work in
// `docker build` (npm ci before the files its postinstall script reads, a COPY of what the context
// does not hold or .dockerignore leaves out, a stage that lacks what its command loads) fails here too.
// tests/docker/image.test.ts builds the project's Dockerfile with it and starts what results.
//
// What each instruction does here (Docker's reference semantics, narrowed to what a Node image needs):
// - FROM node:N…: a new stage, its root an empty folder; its Node is the one running this script,
//   which must be N (the base image's Node). FROM <earlier stage>: a copy of that stage's root.
// - WORKDIR, ENV: noted (relative WORKDIRs join the previous one). An ENV value that is an absolute
//   path is, for the processes started here, that path inside the stage's root.
// - COPY [--from=stage] SRC… DEST: from the build context with .dockerignore applied (the parser of
//   @balena/dockerignore, a port of Docker's), or from an earlier stage's root; a directory's
//   contents go into DEST, as Docker copies them; a source that is missing fails the step.
// - RUN: `sh -c` (or the exec form) in the stage's WORKDIR with the stage's ENV, PATH holding the
//   base image's Node first. A RUN naming an absolute path is refused: here it would be this
//   machine's path, not the image's. npm reads its cache offline first: the build machine's cache,
//   as `--mount=type=cache` (the one flag known here) lends one to docker build.
// - USER, EXPOSE, STOPSIGNAL, HEALTHCHECK, ENTRYPOINT, CMD, LABEL: noted in the stage's config.
// - Anything else (ARG, ADD, VOLUME, SHELL, ONBUILD…) is refused, so that a Dockerfile using it is
//   not taken for tested.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ignore from "@balena/dockerignore";
import { DockerfileParser } from "dockerfile-ast";

const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * What a RUN takes from this machine's environment, as a build host lends its network set-up to
 * `docker build`: the home (npm's cache and configuration), certificates and proxies. Nothing else
 * (not the test's variables, not npm's lifecycle variables of the `npm test` around it).
 */
const BUILD_HOST_ENV = ["HOME", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"];

/** A failed step: which one (its line and text) and why. */
export class DockerfileStepError extends Error {
  constructor(instruction, message) {
    super(`Dockerfile line ${instruction.getRange().start.line + 1}, ${instruction.toString().split("\n")[0]}: ${message}`);
    this.name = "DockerfileStepError";
  }
}

/** The exec form's array of an instruction (CMD, ENTRYPOINT, RUN, HEALTHCHECK's CMD), or null for the shell form. */
function execForm(text) {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[")) return null;
  const parsed = JSON.parse(trimmed);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === "string")) throw new Error(`not an exec form: ${text}`);
  return parsed;
}

/** The text after an instruction's flags (--from=…, --interval=…). */
function afterFlags(instruction) {
  let rest = instruction.getArgumentsContent() ?? "";
  for (;;) {
    const m = /^\s*--[a-z-]+(=\S*)?\s+/.exec(rest);
    if (!m) return rest.trim();
    rest = rest.slice(m[0].length);
  }
}

/** A path inside a stage's root. */
const inRoot = (root, p) => path.join(root, path.posix.normalize(`/${p}`));

/** Whether a command line names an absolute path (outside a URL). */
const namesAbsolutePath = (text) => /(^|[\s=:'"(])\/[\w.-]/.test(text.replace(/\w+:\/\/\S*/g, ""));

/** The major version of the Node at `node`. */
function nodeMajor(node) {
  const out = spawnSync(node, ["-p", "process.versions.node"], { encoding: "utf8" });
  return Number(out.stdout.split(".")[0]);
}

/** The files of the build context (paths relative to it, with /), .dockerignore applied. */
function contextFilter(context) {
  const file = path.join(context, ".dockerignore");
  const patterns = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n") : [];
  const ig = ignore().add(patterns);
  // Without exceptions (!…), an ignored directory holds nothing to copy: skip walking it.
  const exceptions = patterns.some((line) => line.trim().startsWith("!"));
  return { ignores: (rel) => ig.ignores(rel), pruneDirectories: !exceptions };
}

/** Copies `src` (a file or a directory's contents) to `dest`, keeping modes and symlinks; `keep(rel)` filters. */
function copyTree(src, dest, { keep = () => true, rel = "", prune = false } = {}) {
  const stat = fs.lstatSync(src);
  if (stat.isDirectory()) {
    fs.mkdirSync(dest, { recursive: true });
    let copied = 0;
    for (const entry of fs.readdirSync(src)) {
      const childRel = rel ? `${rel}/${entry}` : entry;
      const child = path.join(src, entry);
      const isDir = fs.lstatSync(child).isDirectory();
      if (!keep(childRel)) {
        if (!isDir || prune) continue;
        // An ignored directory may still hold an exception: walk it, keeping only what is kept.
      }
      copied += copyTree(child, path.join(dest, entry), { keep, rel: childRel, prune });
    }
    return copied;
  }
  if (!keep(rel) && rel) return 0;
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.rmSync(dest, { force: true, recursive: true });
  if (stat.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(src), dest);
  else fs.copyFileSync(src, dest);
  if (!stat.isSymbolicLink()) fs.chmodSync(dest, stat.mode & 0o7777);
  return 1;
}

/**
 * Performs the Dockerfile's steps in `workDir` (an empty folder: one sub-folder per stage). Answers
 * the last stage: its root, WORKDIR, ENV and what USER, EXPOSE, STOPSIGNAL, HEALTHCHECK, ENTRYPOINT
 * and CMD said. Throws a DockerfileStepError at the first step that fails.
 */
export async function buildDockerfile({ context, dockerfile = path.join(context, "Dockerfile"), text, workDir, node = process.execPath, log = () => {}, runTimeoutMs = 600_000 }) {
  const parsed = DockerfileParser.parse(text ?? fs.readFileSync(dockerfile, "utf8"));
  const filter = contextFilter(context);
  const stages = [];
  let stage = null;
  for (const instruction of parsed.getInstructions()) {
    const keyword = instruction.getKeyword();
    const fail = (message) => {
      throw new DockerfileStepError(instruction, message);
    };
    if (keyword !== "FROM" && !stage) fail("comes before any FROM");
    log(instruction.toString().split("\n")[0]);
    switch (keyword) {
      case "FROM": {
        const image = instruction.getImage();
        const name = instruction.getBuildStage();
        const root = path.join(workDir, `${stages.length}-${name ?? "stage"}`);
        const from = stages.find((s) => s.name && s.name === image);
        if (from) {
          fs.cpSync(from.root, root, { recursive: true, verbatimSymlinks: true });
          stage = { ...from, name, root, env: { ...from.env }, config: { ...from.config } };
        } else {
          const m = /^node:(\d+)(-[\w.-]+)?$/.exec(image ?? "");
          if (!m) fail(`only node:N… images and earlier stages are known here, not ${image}`);
          const major = nodeMajor(node);
          if (major !== Number(m[1])) fail(`the image's Node is ${m[1]}, this test runs on Node ${major}`);
          fs.mkdirSync(root, { recursive: true });
          stage = { name, root, workdir: "/", env: {}, config: { user: "root" } };
        }
        stages.push(stage);
        break;
      }
      case "WORKDIR": {
        stage.workdir = path.posix.resolve(stage.workdir, afterFlags(instruction));
        fs.mkdirSync(inRoot(stage.root, stage.workdir), { recursive: true });
        break;
      }
      case "ENV": {
        for (const property of instruction.getProperties()) {
          const value = property.getUnescapedValue() ?? "";
          if (value.includes("$")) fail("variables in ENV values are not expanded here");
          stage.env[property.getName()] = value;
        }
        break;
      }
      case "COPY": {
        const flags = Object.fromEntries(instruction.getFlags().map((f) => [f.getName(), f.getValue()]));
        for (const name of Object.keys(flags)) if (!["from", "chown", "chmod"].includes(name)) fail(`--${name} is not known here`);
        const args = execForm(afterFlags(instruction)) ?? afterFlags(instruction).split(/\s+/);
        if (args.length < 2) fail("needs a source and a destination");
        const dest = args.at(-1);
        const sources = args.slice(0, -1);
        if (sources.some((s) => /[*?[]/.test(s))) fail("wildcards are not supported here");
        const into = path.posix.resolve(stage.workdir, dest);
        const intoDirectory = dest.endsWith("/") || sources.length > 1;
        let from = null;
        if (flags.from) {
          from = stages.find((s) => s.name === flags.from);
          if (!from) fail(`no earlier stage named ${flags.from}`);
        }
        for (const source of sources) {
          const rel = path.posix.normalize(source).replace(/^\/+/, "").replace(/\/+$/, "") || ".";
          const src = from ? inRoot(from.root, path.posix.resolve("/", source)) : path.join(context, rel);
          const keep = from ? () => true : (p) => !filter.ignores(rel === "." ? p : `${rel}/${p}`);
          if (!fs.existsSync(src) || (!from && rel !== "." && filter.ignores(rel))) {
            fail(`${source} is not in ${from ? `stage ${flags.from}` : "the build context (or .dockerignore leaves it out)"}`);
          }
          const isDir = fs.lstatSync(src).isDirectory();
          const target = isDir || intoDirectory ? inRoot(stage.root, isDir ? into : path.posix.join(into, path.posix.basename(rel))) : inRoot(stage.root, into);
          copyTree(src, target, { keep, prune: filter.pruneDirectories });
        }
        break;
      }
      case "RUN": {
        // A cache mount keeps npm's cache between builds: here the build machine's own cache is used.
        for (const flag of instruction.getFlags()) {
          if (flag.getName() !== "mount" || !/^type=cache(,|$)/.test(flag.getValue() ?? "")) fail(`RUN --${flag.getName()} is not supported here, only --mount=type=cache`);
        }
        const content = afterFlags(instruction);
        if (namesAbsolutePath(content)) fail("names an absolute path, which here would be this machine's: use paths relative to WORKDIR");
        const argv = execForm(content) ?? ["sh", "-c", content];
        const code = await runProcess(argv, {
          cwd: inRoot(stage.root, stage.workdir),
          env: {
            ...Object.fromEntries(BUILD_HOST_ENV.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]])),
            ...processEnv(stage, node),
            npm_config_prefer_offline: "true",
            npm_config_update_notifier: "false",
          },
          timeoutMs: runTimeoutMs,
          log,
        });
        if (code.exit !== 0) fail(`exited with ${code.exit ?? code.signal}\n${code.output.slice(-4000)}`);
        break;
      }
      case "USER":
      case "STOPSIGNAL":
        stage.config[keyword.toLowerCase()] = afterFlags(instruction);
        break;
      case "EXPOSE":
        stage.config.expose = afterFlags(instruction).split(/\s+/);
        break;
      case "HEALTHCHECK": {
        const rest = afterFlags(instruction);
        const options = Object.fromEntries(instruction.getFlags().map((f) => [f.getName(), f.getValue()]));
        if (/^NONE$/i.test(rest)) stage.config.healthcheck = null;
        else {
          const m = /^CMD\s+([\s\S]*)$/i.exec(rest);
          if (!m) fail("HEALTHCHECK needs CMD or NONE");
          stage.config.healthcheck = { options, command: execForm(m[1]) ?? ["sh", "-c", m[1]] };
        }
        break;
      }
      case "ENTRYPOINT":
      case "CMD": {
        const content = afterFlags(instruction);
        stage.config[keyword.toLowerCase()] = execForm(content) ?? ["sh", "-c", content];
        break;
      }
      case "LABEL":
        break;
      default:
        fail(`${keyword} is not supported here`);
    }
  }
  if (!stage) throw new Error("the Dockerfile has no FROM");
  return { root: stage.root, workdir: stage.workdir, env: stage.env, config: stage.config, node };
}

/** The environment of a process in `stage`: its ENV (absolute paths inside its root) and PATH with its Node first. */
function processEnv(stage, node) {
  const env = { PATH: `${path.dirname(node)}:${SYSTEM_PATH}` };
  for (const [name, value] of Object.entries(stage.env)) env[name] = value.startsWith("/") ? inRoot(stage.root, value) : value;
  return env;
}

/** argv with absolute paths (the entrypoint's) inside the image's root. */
const mapArgv = (image, argv) => argv.map((a) => (a.startsWith("/") ? inRoot(image.root, a) : a));

/** Runs argv to its end; its exit code (or signal) and its output (the last 64 kB). */
function runProcess(argv, { cwd, env, timeoutMs, log }) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const take = (d) => {
      output = (output + d).slice(-65_536);
      log(String(d).trimEnd());
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ exit: 127, signal: null, output: `${output}${error.message}` });
    });
    child.on("close", (exit, signal) => {
      clearTimeout(timer);
      resolve({ exit, signal, output });
    });
  });
}

/**
 * Starts the image as `docker run` would: ENTRYPOINT + (`command` or CMD), in WORKDIR, with the
 * image's ENV and `env`. Answers the child process and its output so far (`output()`).
 */
export function startImage(image, { command, env = {} } = {}) {
  const argv = mapArgv(image, [...(image.config.entrypoint ?? []), ...(command ?? image.config.cmd ?? [])]);
  const child = spawn(argv[0], argv.slice(1), {
    cwd: inRoot(image.root, image.workdir),
    env: { ...processEnv(image, image.node), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const take = (d) => (output = (output + d).slice(-200_000));
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  return { child, output: () => output };
}

/** Runs the image's HEALTHCHECK command once, as Docker does inside the container; true when it exits 0. */
export async function healthy(image, { env = {}, timeoutMs = 10_000 } = {}) {
  if (!image.config.healthcheck) throw new Error("the image has no HEALTHCHECK");
  const result = await runProcess(mapArgv(image, image.config.healthcheck.command), {
    cwd: inRoot(image.root, image.workdir),
    env: { ...processEnv(image, image.node), ...env },
    timeoutMs,
    log: () => {},
  });
  return result.exit === 0;
}

/** A path of the image (absolute, as the container sees it) on this machine. */
export const imagePath = (image, p) => inRoot(image.root, path.posix.resolve(image.workdir, p));
