// The V8 flags the console's server runs with, wherever it is started: `npm start` and the
// Dockerfile (written out there; server/node-flags.test.ts checks they match), the end-to-end
// server and the benchmark (which import this). docs/decisions/2026-11-28-young-generation.md.
//
// None on Node 24. On Node 20 the server ran with --max-semi-space-size=32: a server-rendered page
// allocates 1–2 MB of short-lived objects, and with V8's default young generation then (16 MB
// semi-spaces) a scavenge ran every few views and promoted what a view still held (5–12 % less CPU
// a list page with the flag). Node 24's V8 defaults to 64 MB semi-spaces, whatever the old
// generation's limit: the flag would now halve the young generation. The test below keeps the
// measured floor (32 MB semi-spaces) checked on the runtime.
export const SERVER_NODE_FLAGS = [];
