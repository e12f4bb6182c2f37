// The V8 flags the console's server runs with, wherever it is started: `npm start` and the
// Dockerfile (written out there; server/node-flags.test.ts checks they match), the end-to-end
// server and the benchmark (which import this). docs/decisions/2026-11-28-young-generation.md.
//
// --max-semi-space-size=32: a server-rendered page allocates 1–2 MB of short-lived objects (React's
// chunks, the loader data's encoding); with V8's default young generation (16 MB semi-spaces) a
// scavenge ran every few views and promoted what a view still held at that moment. Measured side
// by side (two servers, alternating): 5–12 % less CPU a list page, p99 down ~10 %, +~100 MB RSS.
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=32"];
