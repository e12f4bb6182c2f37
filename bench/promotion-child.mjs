// The child of bench/promotion.ts: renders URL through the production build's request handler, in
// this process, N times one after another (a macrotask between views, as requests arrive), and marks
// the measured stretch on standard output for the parent, which reads V8's --trace-gc-nvp lines.
import path from "node:path";
import { pathToFileURL } from "node:url";

process.env.NODE_ENV = "production";
const { createRequestHandler } = await import("react-router");
const build = await import(pathToFileURL(path.resolve("build/server/index.js")).href);
const handler = createRequestHandler(build, "production");
const [url, count = "2000"] = process.argv.slice(2);
const headers = process.env.PROMOTION_COOKIE ? { cookie: process.env.PROMOTION_COOKIE } : {};
const view = async () => {
  const response = await handler(new Request(url, { headers }));
  await response.arrayBuffer();
  // Without a macrotask between views, every view would run in one microtask checkpoint and the
  // work React schedules with setImmediate would keep all of them alive: a harness artefact.
  await new Promise((resolve) => setImmediate(resolve));
  return response.status;
};
const status = await view();
for (let i = 0; i < 300; i++) await view();
console.log("PROMOTION-START");
const started = performance.now();
for (let i = 0; i < Number(count); i++) await view();
console.log(`PROMOTION-END ${count} ${status} ${((performance.now() - started) / Number(count)).toFixed(3)}`);
process.exit(0);
