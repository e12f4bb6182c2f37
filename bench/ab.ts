// A/B of two builds side by side: `TREES=old:/tmp/old,new:/tmp/new npx tsx bench/ab.ts` (each tree a checkout
// with its node_modules and a production build). Both servers run at once and each page is measured on
// each in turn, so the machine's drift (tens of per cent within a minute here) hits both alike; it reports
// the CPU milliseconds per request of each server process (/proc/<pid>/stat) and the ratios to the 404
// page. ONLY=404,contacts picks pages; DASH=1 adds /dashboard; PROF=<dir> writes CPU profiles.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createCookieSessionStorage } from "react-router";

const secret = "bench-session-secret";
const trees = (process.env.TREES ?? "old:/tmp/old,head:/tmp/head").split(",").map((s, i) => { const [name, dir] = s.split(":"); return { name: name!, dir: dir!, port: 3391 + i }; });
const N = Number(process.env.N ?? 1000);
const C = Number(process.env.C ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
type S = { name: string; base: string; pid: number; cookie: string; token: string; pages: Record<string, string> };
const servers: S[] = [];
for (const t of trees) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `linkwise-ab-${t.name}-`));
  const child = spawn(process.execPath, [...(process.env.PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROF}/${t.name}`] : []), "server.mjs", "./build/server/index.js"], { cwd: t.dir, env: { ...process.env, NODE_ENV: "production", PORT: String(t.port), DATA_DIR: dataDir, SESSION_SECRET: secret, COOKIE_SECURE: "false", DEMO_PASSWORD: "bench-password", FLEET_TICK: "0" }, stdio: ["ignore", "ignore", "inherit"] });
  process.on("exit", () => child.kill("SIGINT"));
  const base = `http://localhost:${t.port}`;
  for (let i = 0; ; i++) { try { if ((await fetch(`${base}/healthz`)).ok) break; } catch { /* not up yet */ } if (i > 600) throw new Error("no server"); await new Promise((r) => setTimeout(r, 250)); }
  const storage = createCookieSessionStorage({ cookie: { name: "__session", secrets: [secret], httpOnly: true, sameSite: "lax", path: "/" } });
  const { access_token } = (await (await fetch(`${base}/api/v1/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "demo@linkwise.example", password: "bench-password" }) })).json()) as { access_token: string };
  const session = await storage.getSession();
  session.set("username", "demo@linkwise.example"); session.set("access_token", access_token); session.set("session_type", "account");
  const sc = (await storage.commitSession(session)).split(";")[0]!;
  const first = await fetch(`${base}/no-such-page`, { headers: { cookie: sc } });
  const cookie = `${sc}; ${first.headers.getSetCookie().find((c) => c.startsWith("csrf="))?.split(";")[0]}`;
  const auth = { authorization: `Bearer ${access_token}`, "content-type": "application/json" };
  for (let i = 0; i < 55; i++) await fetch(`${base}/api/v1/create-contact`, { method: "POST", headers: auth, body: JSON.stringify({ first_name: `First${i}`, last_name: `Last${i}`, email: `contact${i}@bench.example`, phone: `+1 555 01${String(i).padStart(2, "0")}`, address: `${i} Main Street`, company_name: "Bench Corp", contact_type: "technical", entity_name: "Headquarters" }) });
  let firstAs = "";
  for (let i = 0; i < 50; i++) { const r = await fetch(`${base}/api/v1/create-app-service`, { method: "POST", headers: auth, body: JSON.stringify({ app_service_name: `Bench service ${String(i).padStart(2, "0")}`, location: "aws", region: "us-east-1", cloud_endpoint_service_name: `com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f607${String(i).padStart(2, "0")}`, port: 443 }) }); firstAs ||= ((await r.json()) as { app_service_id: string }).app_service_id; }
  const pages: Record<string, string> = { "404": `${base}/no-such-page`, contacts: `${base}/contacts?size=50`, "app-services": `${base}/app-services?size=50&selected=${firstAs}&tab=details` };
  if (process.env.DASH && t.name !== "old") pages.dashboard = `${base}/dashboard?range=1d`;
  pages.api = `${base}/api/v1/get_contact?page=1&size=50`;
  if (process.env.ONLY) for (const k of Object.keys(pages)) if (!process.env.ONLY.split(",").includes(k)) delete pages[k];
  for (const [n, u] of Object.entries(pages)) { const r = await fetch(u, { headers: { cookie, authorization: `Bearer ${access_token}` } }); console.log(t.name, n, r.status, (await r.text()).length); }
  servers.push({ name: t.name, base, pid: child.pid!, cookie, token: access_token, pages });
}
const ticks = (pid: number) => { const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" "); return Number(f[11]) + Number(f[12]); };
for (const s of servers) for (const u of Object.values(s.pages)) await autocannon({ url: u, connections: C, amount: 800, headers: { cookie: s.cookie, authorization: `Bearer ${s.token}` } });
const res: Record<string, { cpu: number[]; rps: number[] }> = {};
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...servers].reverse() : servers;
  for (const page of ["404", "contacts", "app-services", "dashboard", "api"]) for (const s of order) {
    const url = s.pages[page]; if (!url) continue;
    const t0 = ticks(s.pid); const out = await autocannon({ url, connections: C, amount: N, headers: { cookie: s.cookie, authorization: `Bearer ${s.token}` } }); const t1 = ticks(s.pid);
    const k = `${s.name} ${page}`; (res[k] ??= { cpu: [], rps: [] }).cpu.push(((t1 - t0) * 10) / N); res[k].rps.push(out.requests.average);
  }
}
const med = (a: number[]) => { const b = [...a].sort((x, y) => x - y); return b.length % 2 ? b[(b.length - 1) / 2]! : (b[b.length / 2 - 1]! + b[b.length / 2]!) / 2; };
for (const s of servers) for (const page of ["404", "contacts", "app-services", "dashboard", "api"]) {
  const k = `${s.name} ${page}`; if (!res[k]) continue; const nf = res[`${s.name} 404`]!;
  const cpuRatios = res[k].cpu.map((c, i) => nf.cpu[i]! / c); const rpsRatios = res[k].rps.map((x, i) => x / nf.rps[i]!);
  console.log(`${k.padEnd(20)} cpu ms/req ${med(res[k].cpu).toFixed(2)}  cpu-ratio ${med(cpuRatios).toFixed(2)} [${cpuRatios.map((x) => x.toFixed(2)).join(" ")}]  rps-ratio ${med(rpsRatios).toFixed(2)}`);
}
for (const s of servers) process.kill(s.pid, "SIGINT");
await new Promise((r) => setTimeout(r, 4000));
process.exit(0);
