import { execFileSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDockerfile, healthy, imagePath, startImage, type Image } from "../../scripts/dockerfile-steps.mjs";
import { createPrivateDatabase, serverReachable } from "../../scripts/private-database.mjs";
import { freePort } from "../../platform/test/ports.ts";

// The project's Dockerfile, its steps performed in an empty folder in its order
// (scripts/dockerfile-steps.mjs: no Docker daemon runs here), then what results started as
// `docker run` would: the console (the CMD) and the platform on its own, on a private PostgreSQL
// database, each until the image's HEALTHCHECK passes. Runs alone after the other unit tests
// (vitest.config.ts: its own project, a later group): npm ci and the build use both cores.

const root = path.resolve(import.meta.dirname, "../..");
const serverUrl = process.env.TEST_DATABASE_URL ?? "postgres://root@127.0.0.1:5432/test";

/** PostgreSQL is the image's database: without one the test cannot run (CI has one: .ci/run starts it). */
const postgres = await serverReachable(serverUrl);
if (!postgres && process.env.CI) throw new Error(`the image test needs PostgreSQL at ${serverUrl}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the HEALTHCHECK every second until it passes; throws with the server's output if the server exits or `maxMs` passes. */
async function waitHealthy(image: Image, started: ReturnType<typeof startImage>, env: Record<string, string>, maxMs = 120_000) {
  const t0 = Date.now();
  while (Date.now() - t0 < maxMs) {
    if (started.child.exitCode !== null) throw new Error(`the server exited (${started.child.exitCode}) before it was healthy:\n${started.output()}`);
    if (await healthy(image, { env })) return Date.now() - t0;
    await sleep(1000);
  }
  throw new Error(`not healthy after ${maxMs / 1000} s:\n${started.output()}`);
}

/** The files of `dir` (relative paths), node_modules left out. */
function filesOf(dir: string, rel = ""): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((entry) => {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.name === "node_modules") return [];
    return entry.isDirectory() ? filesOf(dir, child) : [child];
  });
}

describe.skipIf(!postgres)("the image (Dockerfile)", () => {
  let work: string;
  let image: Image;
  let database: Awaited<ReturnType<typeof createPrivateDatabase>>;
  const running: ChildProcess[] = [];
  /** What a production deployment sets (docs/deploy.md): PostgreSQL and the secrets every instance shares. */
  let env: Record<string, string>;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-image-"));
    const t0 = Date.now();
    image = await buildDockerfile({ context: root, workDir: work });
    console.log(`[image] Dockerfile steps performed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const t1 = Date.now();
    database = await createPrivateDatabase(serverUrl, "linkwise_image");
    console.log(`[image] database ${database.name} made in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    env = {
      DATABASE_URL: database.url,
      SESSION_SECRET: crypto.randomBytes(32).toString("base64url"),
      NODE_SECRETS_KEY: crypto.randomBytes(32).toString("hex"),
      // What several instances on one database must share in production (docs/configuration.md).
      OBJECTS_SECRET: crypto.randomBytes(32).toString("base64url"),
      // One platform instance: its DATA_DIR holds every PCAP upload.
      DATA_DIR_SHARED: "true",
      CONSOLE_URL: "https://console.example.test",
      PLATFORM_URL: "https://console.example.test",
      ACCESS_LOG: "off",
    };
  }, 900_000);

  afterAll(async () => {
    const t0 = Date.now();
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await database?.drop().catch(() => {});
    if (work) await fs.promises.rm(work, { recursive: true, force: true });
    console.log(`[image] cleaned up in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 300_000);

  it("holds the production dependencies, the build and the servers: no dev dependency, no TypeScript, no sources", () => {
    const modules = imagePath(image, "node_modules");
    for (const needed of ["react-router", "pg", "@electric-sql/pglite", "hono"]) expect(fs.existsSync(path.join(modules, needed)), needed).toBe(true);
    // (typescript stays: @react-router/node names it as an optional peer, and npm keeps a peer it finds installed.)
    for (const dev of ["tsx", "vite", "esbuild", "vitest", "@react-router/dev", "typescript-7", "eslint", "node"]) {
      expect(fs.existsSync(path.join(modules, dev)), dev).toBe(false);
    }
    const files = filesOf(imagePath(image, "."));
    expect(files.filter((f) => /\.(ts|tsx|mts)$/.test(f))).toEqual([]);
    expect(files.filter((f) => /^(app|platform|tests|scripts|docs)\//.test(f))).toEqual([]);
    expect(files).toContain("build/server/index.js");
    expect(files).toContain("build/platform/server.mjs");
    expect(files).toContain("build/platform/thread-worker.mjs");
    expect(files).toContain("build/platform/pcap-worker.mjs");
  });

  it("runs as a non-root user, exposes its port, stops on SIGTERM and checks its health", () => {
    expect(image.config.user).toMatch(/^[1-9]\d*(:\d+)?$/);
    expect(image.config.expose).toEqual(["3000"]);
    expect(image.config.stopsignal).toBe("SIGTERM");
    expect(image.config.healthcheck?.command).toEqual(["node", "server/healthcheck.mjs"]);
    expect(image.env.NODE_ENV).toBe("production");
  });

  it("refuses to start the platform without DATABASE_URL: the image's database is PostgreSQL", async () => {
    for (const command of [undefined, ["node", "build/platform/server.mjs"]]) {
      const started = startImage(image, { command, env: { PORT: String(await freePort()) } });
      running.push(started.child);
      const code = await new Promise((resolve) => started.child.on("close", resolve));
      expect(code).toBe(1);
      expect(started.output()).toContain("DATABASE_URL is required");
    }
  });

  it("starts the console (its CMD) on PostgreSQL until its health check passes, and serves pages and the embedded platform", async () => {
    const port = String(await freePort());
    const started = startImage(image, { env: { ...env, PORT: port } });
    running.push(started.child);
    const ms = await waitHealthy(image, started, { PORT: port });
    console.log(`[image] the console was healthy after ${(ms / 1000).toFixed(1)} s`);
    const login = await fetch(`http://127.0.0.1:${port}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain("<form");
    // The platform thread's built entry answers through the console.
    const contract = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`);
    expect(contract.status).toBe(200);
    expect(((await contract.json()) as { openapi: string }).openapi).toBe("3.1.0");

    // docker stop: SIGTERM, then the process drains and exits 0 well within the grace the docs ask (30 s).
    const t0 = Date.now();
    started.child.kill("SIGTERM");
    const code = await new Promise((resolve) => started.child.on("close", resolve));
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(30_000);
  }, 180_000);

  it("starts the platform on its own (node build/platform/server.mjs) on the same database until the same health check passes", async () => {
    const port = String(await freePort());
    const started = startImage(image, { command: ["node", "build/platform/server.mjs"], env: { ...env, PORT: port } });
    running.push(started.child);
    await waitHealthy(image, started, { PORT: port });
    const contract = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`);
    expect(contract.status).toBe(200);
    started.child.kill("SIGTERM");
    expect(await new Promise((resolve) => started.child.on("close", resolve))).toBe(0);
  }, 180_000);

  it("analyses a capture in the analyzer's built thread, with production dependencies only", () => {
    const capture = path.join(root, "tests/fixtures/pcaps/captures/pcapplusplus-nanosecs_big_endian.pcap");
    const script = `
      import { Worker } from "node:worker_threads";
      const worker = new Worker(${JSON.stringify(imagePath(image, "build/platform/pcap-worker.mjs"))});
      worker.on("message", (m) => {
        if (m.ready) worker.postMessage({ id: 1, path: ${JSON.stringify(capture)}, options: {} });
        else { console.log(JSON.stringify(m)); process.exit(0); }
      });
      worker.on("error", (e) => { console.error(e); process.exit(1); });`;
    // A file, not --eval: the worker thread would inherit --input-type and refuse its own entry.
    const file = path.join(work, "analyse.mjs");
    fs.writeFileSync(file, script);
    const out = execFileSync(image.node, [file], { cwd: imagePath(image, "."), encoding: "utf8", timeout: 60_000 });
    const answer = JSON.parse(out) as { id: number; ok: boolean; result: { packets: number } };
    expect(answer.ok).toBe(true);
    expect(answer.result.packets).toBeGreaterThan(0);
  });
});
