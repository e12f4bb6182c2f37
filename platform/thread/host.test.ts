import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPlatformThread, type PlatformThread } from "./host.ts";

// A real platform thread on its own PGlite directory (no demo data, no fleet clock).
let thread: PlatformThread;
let dataDir: string;
const saved = { ...process.env };

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-thread-"));
  // METRICS_PORT: the thread keeps its metrics for the main thread's scrape (it opens no port itself).
  Object.assign(process.env, { DATA_DIR: dataDir, SEED_DEMO: "false", FLEET_TICK: "0", METRICS_PORT: "0" });
  delete process.env.DATABASE_URL;
  thread = startPlatformThread();
  await thread.ready;
  // A new PGlite directory migrates from nothing: 10–20 s quiet, past a minute on a loaded machine.
}, 180_000);

afterAll(async () => {
  await thread?.close();
  process.env = saved;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const call = () => thread.text("GET", "http://platform/api/v1/healthz", [], null);

describe("settle: what shutdown waits for before it closes the platform", () => {
  it("waits for a loader between two of its calls, not only for the calls under way", async () => {
    const steps: string[] = [];
    // A loader whose browser hung up: three calls with a little rendering work between them.
    const loader = (async () => {
      for (let i = 0; i < 3; i++) {
        await call();
        steps.push(`call ${i}`);
        await new Promise((r) => setTimeout(r, 15));
      }
      steps.push("loader done");
    })();
    const settled = await thread.settle(50, 5_000);
    steps.push("settled");
    await loader;
    expect(settled).toBe(true);
    expect(steps).toEqual(["call 0", "call 1", "call 2", "loader done", "settled"]);
  });

  it("answers false when calls are still under way at the limit, and true at once when quiet", async () => {
    const pending = call();
    expect(await thread.settle(50, 0)).toBe(false);
    await pending;
    await new Promise((r) => setTimeout(r, 60));
    const started = performance.now();
    expect(await thread.settle(50, 5_000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(40);
  });
});

describe("the thread's metrics, for the main thread's scrape (docs/operations.md)", () => {
  it("answers its calls by route, its event loop and its queues, and carries the request id through", async () => {
    const answer = await thread.text("GET", "http://platform/api/v1/readyz", [["x-request-id", "thread-req-1"]], null);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-request-id")).toBe("thread-req-1");
    const scopes = await thread.metrics();
    const platform = scopes.find((s) => s.scope.name === "linkwise-platform");
    const names = platform?.metrics.map((m) => m.descriptor.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(["http.server.request.duration", "http.server.requests", "nodejs.eventloop.delay", "linkwise.queue.depth"]));
    const requests = platform!.metrics.find((m) => m.descriptor.name === "http.server.requests")!;
    expect(requests.dataPoints.some((p) => p.attributes["http.route"] === "/api/v1/readyz" && p.value === 1)).toBe(true);
  });
});
