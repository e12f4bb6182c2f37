import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { and, eq, like } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiLog, pcapAnalyses, pcapFiles } from "../db/schema.ts";
import { MAX_PCAP_BYTES, pcapLimits, STILL_ANALYZING_DETAIL, TOO_LARGE_DETAIL } from "../domain/pcap.ts";
import { queues } from "../jobs/queue.ts";
import { LocalObjectStore, objectStore, uploadPcapPath } from "../storage/index.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { untilAnalysed as untilAnalysedOn } from "../test/pcap.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const corpus = path.resolve(repoRoot, "tests/fixtures/pcaps");
const capture = (name: string) => path.join(corpus, "captures", name);
const expected = (name: string) => JSON.parse(fs.readFileSync(path.join(corpus, "expected", name), "utf8"));
const hasPdftotext = (() => {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

let p: TestPlatform;
let owner: TestAccount;

beforeAll(async () => {
  p = await testPlatform();
  owner = await p.newAccount();
});

afterEach(() => {
  pcapLimits.maxBytes = MAX_PCAP_BYTES;
});

/** A request to the platform with any method and body (streams included). */
async function send(
  method: string,
  url: string,
  opts: { token?: string; body?: BodyInit | null; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers; bytes: Buffer }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const init: RequestInit & { duplex?: "half" } = { method, headers, body: opts.body ?? null };
  if (opts.body instanceof ReadableStream) init.duplex = "half";
  const res = await p.app.fetch(new Request(new URL(url, "http://platform.test"), init));
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: any = bytes.toString("utf8");
  try {
    body = JSON.parse(body);
  } catch {}
  return { status: res.status, body, headers: res.headers, bytes };
}

const fileStream = (file: string) => Readable.toWeb(fs.createReadStream(file)) as unknown as ReadableStream<Uint8Array>;

/** A web stream of `total` bytes, in 1 KiB chunks, made as it is read. */
function generated(total: number, fill = 0x41): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(1024, total - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(fill));
    },
  });
}

type Uploaded = { pcap_file_key: string; pcap_file_name: string };
const analyzeQuery = (u: Uploaded, extra: Record<string, string> = {}) => ({ pcap_file_key: u.pcap_file_key, pcap_file_name: u.pcap_file_name, ...extra });

const untilAnalysed = (token: string, query: Record<string, string>) => untilAnalysedOn(p, token, query);

/** The capture's row (its analysis state) and the analysis jobs of its key. */
async function analysisRow(key: string) {
  const [row] = await p.deps.db.select().from(pcapFiles).where(eq(pcapFiles.pcapFileKey, key));
  const jobs = await p.deps.jobs!.boss.findJobs(queues.pcapAnalysis.name, { key });
  return { row: row!, jobs };
}

async function uploadUrl(token: string, name = "capture.pcap") {
  const r = await p.call("GET", "get-s3-upload-url", { token, query: { pcap_file_name: name } });
  expect(r.status).toBe(200);
  return r.body as { s3_url: string; pcap_file_key: string; pcap_file_name: string };
}

async function uploadFile(token: string, file: string, name = path.basename(file)) {
  const u = await uploadUrl(token, name);
  const put = await send("PUT", u.s3_url, {
    body: fileStream(file),
    headers: { "content-type": "application/vnd.tcpdump.pcap", "content-length": String(fs.statSync(file).size) },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return u;
}

describe("PCAP analyzer calls", () => {
  it("uploads a capture to the signed URL, analyses it, reports on a session and renders the PDF", async () => {
    const file = capture("tcpdump-ssh.pcap");
    const oracle = expected("tcpdump-ssh.json");
    const u = await uploadUrl(owner.token, "tcpdump-ssh.pcap");
    expect(u.pcap_file_name).toBe("tcpdump-ssh.pcap");
    expect(u.pcap_file_key.startsWith(`${owner.accountId}_pcap-`)).toBe(true);
    const signed = new URL(u.s3_url, "http://console.test");
    expect(signed.pathname).toBe(`/api/v1/upload-pcap/${u.pcap_file_key}`);
    expect([...signed.searchParams.keys()].sort()).toEqual(["expires", "max", "sig"]);
    const ttl = Number(signed.searchParams.get("expires")) - Date.now() / 1000;
    expect(ttl).toBeGreaterThan(14 * 60);
    expect(ttl).toBeLessThanOrEqual(15 * 60 + 1);
    expect(signed.searchParams.get("max")).toBe(String(MAX_PCAP_BYTES));

    // The browser PUTs the raw file, without a bearer token.
    const put = await send("PUT", u.s3_url, {
      body: fileStream(file),
      headers: { "content-type": "application/vnd.tcpdump.pcap", "content-length": String(oracle.file_size) },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ pcap_file_key: u.pcap_file_key, pcap_file_name: "tcpdump-ssh.pcap", size: oracle.file_size });
    const stored = await objectStore(p.deps).stat(u.pcap_file_key);
    expect(stored?.size).toBe(oracle.file_size);

    // The upload is in the API log (without its body or signature).
    const logged = await p.deps.db
      .select()
      .from(apiLog)
      .where(and(eq(apiLog.accountId, owner.accountId), like(apiLog.urlPath, "/upload-pcap/%")));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.method).toBe("PUT");
    expect(JSON.stringify(logged[0]!.queryParameters)).not.toContain(signed.searchParams.get("sig")!);

    // The first call queues the analysis (a job) and answers its state; a client asks again.
    const first = await send("GET", `/api/v1/analyze-s3-pcap?pcap_file_key=${u.pcap_file_key}&pcap_file_name=tcpdump-ssh.pcap`, { token: owner.token });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toMatchObject({ pcap_file_key: u.pcap_file_key, pcap_file_name: "tcpdump-ssh.pcap", state: "queued", started_at: null, size: oracle.file_size });
    expect(Date.parse(first.body.queued_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(first.headers.get("retry-after")).toBe("1");
    const analysed = await untilAnalysed(owner.token, analyzeQuery(u));
    expect(analysed.status, JSON.stringify(analysed.body)).toBe(200);
    const a = analysed.body;
    expect(a.state).toBe("done");
    expect(Date.parse(a.analyzed_at)).toBeGreaterThanOrEqual(Date.parse(first.body.queued_at));
    expect(a.pcap_file_key).toBe(u.pcap_file_key);
    expect(a.pcap_file_name).toBe("tcpdump-ssh.pcap");
    expect(a.sessions).toHaveLength(oracle.conversations.length);
    expect(a.summary.packets).toBe(oracle.packets);
    expect(a.summary.bytes).toBe(oracle.bytes);
    expect(a.summary.sessions).toBe(oracle.conversations.length);
    expect(a.summary.duration).toBeCloseTo(oracle.duration, 6);
    expect(a.summary.degraded_percent).toBeCloseTo((100 * a.summary.degraded_sessions) / a.summary.sessions, 1);
    expect(a.warnings).toEqual([]);
    expect("details" in a).toBe(false);
    const session = a.sessions[0];
    for (const field of [
      "session_id",
      "start_time",
      "end_time",
      "app_name",
      "server_name",
      "src_addr",
      "dst_addr",
      "src_port",
      "dst_port",
      "proto",
      "tx_bytes",
      "rx_bytes",
      "tx_packets",
      "rx_packets",
      "ep_id",
      "app_service_id",
      "node_id",
      "performance",
    ]) {
      expect(session, field).toHaveProperty(field);
    }
    const conv = oracle.conversations[0];
    expect(session.proto).toBe("tcp");
    expect(`${session.src_addr}:${session.src_port}`).toBe(conv.first_src);
    expect(session.tx_bytes + session.rx_bytes).toBe(conv.bytes);
    expect(session.ep_id).toBeNull();
    expect(session.app_service_id).toBeNull();
    expect(session.node_id).toBeNull();
    expect(session.start_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
    expect(Date.parse(session.start_time) / 1000).toBeCloseTo(conv.start_time, 2);
    expect(["good", "not good"]).toContain(session.performance);

    // Stored: read again without re-parsing (same answer; one row in pcap_analyses; one job, completed).
    const again = await p.call("GET", "analyze-s3-pcap", {
      token: owner.token,
      query: { pcap_file_key: u.pcap_file_key, pcap_file_name: u.pcap_file_name },
    });
    expect(again).toEqual(analysed);
    const rows = await p.deps.db.select().from(pcapAnalyses).where(eq(pcapAnalyses.pcapFileKey, u.pcap_file_key));
    expect(rows).toHaveLength(1);
    const { row, jobs } = await analysisRow(u.pcap_file_key);
    expect(row).toMatchObject({ analysisState: "done", analysisFailure: null });
    expect(jobs.map((j) => [j.id, j.state])).toEqual([[row.analysisJobId, "completed"]]);

    // The console sends the whole session object plus the key.
    const flow = await p.call("POST", "perform-flow-analysis", {
      token: owner.token,
      body: { ...session, pcap_file_key: u.pcap_file_key },
    });
    expect(flow.status, JSON.stringify(flow.body)).toBe(200);
    expect(flow.body.session_id).toBe(session.session_id);
    expect(["yes", "no"]).toContain(flow.body.summary.performance_degradation);
    expect(typeof flow.body.summary.comment).toBe("string");
    expect(flow.body.summary.performance_degradation === "yes").toBe(session.performance !== "good");
    for (const part of ["general_info", "network_data", "flow_quality_assessment"]) {
      expect(typeof flow.body[part], part).toBe("object");
    }

    const pdf = await send("GET", `/api/v1/pcap-report-pdf?pcap_file_key=${u.pcap_file_key}&session_id=${session.session_id}`, {
      token: owner.token,
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toContain(
      `attachment; filename="${p.deps.config.productName}-performance-insights-report.pdf"`,
    );
    expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    if (hasPdftotext) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pcap-pdf-"));
      const out = path.join(dir, "report.pdf");
      fs.writeFileSync(out, pdf.bytes);
      const text = execFileSync("pdftotext", ["-layout", out, "-"], { encoding: "utf8" });
      const order = [
        `${p.deps.config.productName} Performance Insights Report`,
        "Summary",
        "General Info",
        "Network Data",
        "Flow Quality Assessment",
        "Cross-client similarity",
        "Cross-site similarity",
      ].map((t) => text.indexOf(t));
      expect(order.every((i) => i >= 0), text).toBe(true);
      expect([...order].sort((x, y) => x - y)).toEqual(order);
      expect(text.match(/information not available yet/gi)).toHaveLength(2);
      expect(text).toMatch(/Page 1 of \d+/);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("mirrored traffic: decode-as through the job, the mirror sessions kept in the stored rows, the VNI filter, the report and the PDF", async () => {
    const encap = path.join(corpus, "encap");
    const oracle = JSON.parse(fs.readFileSync(path.join(encap, "expected", "vxlan-port-8472.json"), "utf8")) as {
      sessions: { name: string; vni: number; packets: number }[];
      conversations: { session: string }[];
    };
    const file = path.join(encap, "captures", "vxlan-port-8472.pcap");
    const bad = await p.call("GET", "analyze-s3-pcap", { token: owner.token, query: { pcap_file_key: "x_pcap-0000000000000000", pcap_file_name: "a.pcap", decode_as: "udp.port==70000,vxlan" } });
    expect(bad.status).toBe(422);

    // Without decode-as: UDP to 8472 is plain traffic, the answer unchanged but for null/[] fields.
    const plainUpload = await uploadFile(owner.token, file);
    const plain = await untilAnalysed(owner.token, analyzeQuery(plainUpload));
    expect(plain.status).toBe(200);
    expect(plain.body.encapsulation).toBeNull();
    expect(plain.body.decode_as).toEqual([]);
    expect(plain.body.sessions.every((s: { vni: unknown; mirror_session: unknown }) => s.vni === null && s.mirror_session === null)).toBe(true);

    // With it (read by the first call, which queues the analysis): the mirror sessions tshark -d finds.
    const u = await uploadFile(owner.token, file);
    const done = await untilAnalysed(owner.token, analyzeQuery(u, { decode_as: "udp.port==8472,vxlan" }));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.decode_as).toEqual(["udp.port==8472,vxlan"]);
    expect(done.body.encapsulation.encapsulations).toEqual(["vxlan"]);
    const perSession = (name: string) => oracle.conversations.filter((c) => c.session === name).length;
    expect(done.body.encapsulation.mirror_sessions.map((m: { name: string; packets: number; sessions: number }) => [m.name, m.packets, m.sessions]).sort()).toEqual(
      oracle.sessions.map((m) => [m.name, m.packets, perSession(m.name)]).sort(),
    );
    expect(done.body.sessions_total).toBe(oracle.conversations.length);

    // Read again (from the stored result, without decode_as): the same; the VNI filter narrows.
    const vni = await p.call("GET", "analyze-s3-pcap", { token: owner.token, query: analyzeQuery(u, { vni: "100" }) });
    expect(vni.status).toBe(200);
    expect(vni.body.sessions_total).toBe(perSession("vxlan:100@192.0.2.1,192.0.2.2"));
    expect(vni.body.summary.sessions).toBe(oracle.conversations.length);
    expect(vni.body.sessions.every((s: { vni: number; encapsulation: string }) => s.vni === 100 && s.encapsulation === "vxlan")).toBe(true);
    expect((await p.call("GET", "analyze-s3-pcap", { token: owner.token, query: analyzeQuery(u, { vni: "16777216" }) })).status).toBe(422);

    const session = vni.body.sessions[0];
    const flow = await p.call("POST", "perform-flow-analysis", { token: owner.token, body: { ...session, pcap_file_key: u.pcap_file_key } });
    expect(flow.status).toBe(200);
    expect(flow.body.general_info.mirror_session).toEqual({ name: "vxlan:100@192.0.2.1,192.0.2.2", encapsulation: "vxlan", vni: 100, outer_a: "192.0.2.1", outer_b: "192.0.2.2" });
    if (hasPdftotext) {
      const pdf = await send("GET", `/api/v1/pcap-report-pdf?pcap_file_key=${u.pcap_file_key}&session_id=${session.session_id}`, { token: owner.token });
      expect(pdf.status).toBe(200);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pcap-pdf-"));
      fs.writeFileSync(path.join(dir, "r.pdf"), pdf.bytes);
      const text = execFileSync("pdftotext", [path.join(dir, "r.pdf"), "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
      expect(text).toContain("Mirrored traffic: VXLAN VNI 100 between 192.0.2.1 and 192.0.2.2");
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("makes signed URLs single-use and refuses tampered, expired or missing signatures with 403", async () => {
    const u = await uploadFile(owner.token, capture("zeek-tcp-retransmit-timeout.pcapng"));
    const reused = await send("PUT", u.s3_url, { body: "again" });
    expect(reused).toMatchObject({ status: 403, body: { detail: "This upload URL has already been used." } });

    const fresh = await uploadUrl(owner.token);
    const url = new URL(fresh.s3_url, "http://platform.test");
    const tamper = (k: string, v: string) => {
      const t = new URL(url);
      t.searchParams.set(k, v);
      return t.pathname + t.search;
    };
    const sig = url.searchParams.get("sig")!;
    for (const bad of [
      tamper("sig", (sig[0] === "A" ? "B" : "A") + sig.slice(1)),
      tamper("expires", String(Number(url.searchParams.get("expires")) + 3600)),
      tamper("max", String(MAX_PCAP_BYTES * 2)),
      url.pathname, // no signature at all
      // the signature of one key does not open another
      uploadPcapPath(`${owner.accountId}_pcap-0000000000000000`) + url.search,
    ]) {
      const r = await send("PUT", bad, { body: "x" });
      expect(r.status, bad).toBe(403);
      expect(r.body.detail).toBe("Invalid upload URL signature.");
    }

    // A URL signed 16 minutes ago has expired.
    const past = new LocalObjectStore({
      root: path.join(p.deps.config.dataDir, "objects"),
      secretFile: path.join(p.deps.config.dataDir, "objects-secret"),
      uploadUrl: uploadPcapPath,
      now: () => Date.now() - 16 * 60 * 1000,
    });
    const expiredUrl = await past.presignPut(fresh.pcap_file_key, { expiresIn: 15 * 60, maxBytes: MAX_PCAP_BYTES });
    const expired = await send("PUT", expiredUrl, { body: "x" });
    expect(expired).toMatchObject({ status: 403, body: { detail: "This upload URL has expired." } });

    // None of the refused attempts used up the URL.
    const ok = await send("PUT", fresh.s3_url, { body: fs.readFileSync(capture("zeek-tcp-retransmit-timeout.pcapng")) });
    expect(ok.status).toBe(200);
  });

  it("answers 404 for another account's key, an unknown key and an unknown session", async () => {
    const u = await uploadFile(owner.token, capture("zeek-tcp-ctu-64702-888.pcap"));
    const other = await p.newAccount();
    const q = { pcap_file_key: u.pcap_file_key, pcap_file_name: u.pcap_file_name };
    expect(await p.call("GET", "analyze-s3-pcap", { token: other.token, query: q })).toEqual({
      status: 404,
      body: { detail: "PCAP file not found." },
    });
    expect(
      (await p.call("POST", "perform-flow-analysis", { token: other.token, body: { pcap_file_key: u.pcap_file_key, session_id: "1" } })).status,
    ).toBe(404);
    expect((await send("GET", `/api/v1/pcap-report-pdf?pcap_file_key=${u.pcap_file_key}&session_id=1`, { token: other.token })).status).toBe(404);
    // A key made up with the other account's prefix is not theirs either.
    const forged = `${other.accountId}_${u.pcap_file_key.split("_")[1]}`;
    expect((await p.call("GET", "analyze-s3-pcap", { token: other.token, query: { ...q, pcap_file_key: forged } })).status).toBe(404);

    const analysed = await untilAnalysed(owner.token, q);
    expect(analysed.status).toBe(200);
    const unknown = await p.call("POST", "perform-flow-analysis", {
      token: owner.token,
      body: { pcap_file_key: u.pcap_file_key, session_id: "999999" },
    });
    expect(unknown).toEqual({ status: 404, body: { detail: "There is no test data." } });
    const pdf = await send("GET", `/api/v1/pcap-report-pdf?pcap_file_key=${u.pcap_file_key}&session_id=999999`, { token: owner.token });
    expect(pdf.status).toBe(404);
    expect(pdf.body).toEqual({ detail: "There is no test data." });

    // Asked for a URL but never uploaded.
    const pending = await uploadUrl(owner.token);
    expect(
      await p.call("GET", "analyze-s3-pcap", {
        token: owner.token,
        query: { pcap_file_key: pending.pcap_file_key, pcap_file_name: pending.pcap_file_name },
      }),
    ).toEqual({ status: 404, body: { detail: "The PCAP file has not been uploaded." } });
  });

  it("refuses uploads over the limit with 413, by Content-Length and while streaming", async () => {
    // Declared too large: refused before reading the body.
    const u = await uploadUrl(owner.token);
    const declared = await send("PUT", u.s3_url, {
      body: generated(10),
      headers: { "content-length": String(MAX_PCAP_BYTES + 1) },
    });
    expect(declared).toMatchObject({ status: 413, body: { detail: TOO_LARGE_DETAIL } });
    const declaredStream = await send("POST", "/api/v1/upload-pcap-stream?pcap_file_name=big.pcap", {
      token: owner.token,
      body: generated(10),
      headers: { "content-type": "application/octet-stream", "content-length": String(MAX_PCAP_BYTES + 1) },
    });
    expect(declaredStream).toMatchObject({ status: 413, body: { detail: TOO_LARGE_DETAIL } });

    // A body without a length that grows past a (test-sized) limit.
    pcapLimits.maxBytes = 4096;
    const small = await uploadUrl(owner.token);
    expect(new URL(small.s3_url, "http://x").searchParams.get("max")).toBe("4096");
    const streamed = await send("PUT", small.s3_url, { body: generated(64 * 1024) });
    expect(streamed).toMatchObject({ status: 413, body: { detail: TOO_LARGE_DETAIL } });
    expect(await objectStore(p.deps).stat(small.pcap_file_key)).toBeNull();
    const objectsDir = path.join(p.deps.config.dataDir, "objects");
    expect(fs.readdirSync(objectsDir).filter((f) => f.includes(".part-"))).toEqual([]);

    const viaStream = await send("POST", "/api/v1/upload-pcap-stream?pcap_file_name=big.pcap", {
      token: owner.token,
      body: generated(64 * 1024),
      headers: { "content-type": "application/octet-stream" },
    });
    expect(viaStream).toMatchObject({ status: 413, body: { detail: TOO_LARGE_DETAIL } });

    // Exactly at the limit is fine.
    const exact = await uploadUrl(owner.token);
    expect((await send("PUT", exact.s3_url, { body: generated(4096) })).status).toBe(200);
  });

  it("uploads through upload-pcap-stream (the console's no-JS path) without the 2 MB body limit", async () => {
    const file = capture("pcapplusplus-tls2.pcap"); // 2.8 MB
    const oracle = expected("pcapplusplus-tls2.json");
    const anon = await send("POST", "/api/v1/upload-pcap-stream?pcap_file_name=tls2.pcap", {
      body: generated(10),
      headers: { "content-type": "application/octet-stream" },
    });
    expect(anon.status).toBe(401);
    const up = await send("POST", "/api/v1/upload-pcap-stream?pcap_file_name=tls2.pcap", {
      token: owner.token,
      body: fileStream(file),
      headers: { "content-type": "application/octet-stream" },
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.pcap_file_name).toBe("tls2.pcap");
    expect(up.body.size).toBe(oracle.file_size);
    const analysed = await untilAnalysed(owner.token, { pcap_file_key: up.body.pcap_file_key, pcap_file_name: "tls2.pcap" });
    expect(analysed.status).toBe(200);
    expect(analysed.body.sessions).toHaveLength(oracle.conversations.length);
    expect(new Set(analysed.body.sessions.map((s: any) => s.session_id)).size).toBe(oracle.conversations.length);
    expect(analysed.body.summary.packets).toBe(oracle.packets);
    expect(analysed.body.sessions_total).toBe(oracle.conversations.length);

    // Paged, sorted and searched by the platform: one page, the count of all matches.
    const all = analysed.body.sessions as any[];
    const byBytes = [...all].sort((x, y) => y.tx_bytes - x.tx_bytes || all.indexOf(x) - all.indexOf(y));
    const page2 = await p.call("GET", "analyze-s3-pcap", {
      token: owner.token,
      query: { pcap_file_key: up.body.pcap_file_key, pcap_file_name: "tls2.pcap", sort: "-tx_bytes", page: "2", size: "2" },
    });
    expect(page2.status, JSON.stringify(page2.body)).toBe(200);
    expect(page2.body.sessions_total).toBe(all.length);
    expect(page2.body.sessions.map((s: any) => s.session_id)).toEqual(byBytes.slice(2, 4).map((s) => s.session_id));
    expect(page2.body.summary.sessions).toBe(oracle.conversations.length);
    const proto = all[0].proto as string;
    const searched = await p.call("GET", "analyze-s3-pcap", {
      token: owner.token,
      query: { pcap_file_key: up.body.pcap_file_key, pcap_file_name: "tls2.pcap", q: proto, size: "50" },
    });
    expect(searched.body.sessions_total).toBe(all.filter((s) => s.proto === proto).length);
    const bad = await p.call("GET", "analyze-s3-pcap", {
      token: owner.token,
      query: { pcap_file_key: up.body.pcap_file_key, pcap_file_name: "tls2.pcap", sort: "password", size: "100000" },
    });
    expect(bad.status).toBe(422);
    const log = await p.deps.db
      .select()
      .from(apiLog)
      .where(and(eq(apiLog.accountId, owner.accountId), eq(apiLog.urlPath, "/upload-pcap-stream")));
    expect(log).toHaveLength(1);
    expect(log[0]!.queryParameters).toEqual({ pcap_file_name: "tls2.pcap" });
  });

  it("answers 422 with the parser's message for a corrupt or truncated file: the failure is recorded, not tried again", async () => {
    const garbage = await send("POST", "/api/v1/upload-pcap-stream?pcap_file_name=notes.txt", {
      token: owner.token,
      body: "This is a text file, not a packet capture.\n",
      headers: { "content-type": "application/octet-stream" },
    });
    expect(garbage.status).toBe(200);
    const r1 = await untilAnalysed(owner.token, { pcap_file_key: garbage.body.pcap_file_key, pcap_file_name: "notes.txt" });
    expect(r1.status).toBe(422);
    expect(r1.body.detail).toMatch(/^not a pcap or pcapng file \(magic 0x[0-9a-f]{8} at byte 0\)$/);
    // Recorded with its message; the job completed (a file that is not a capture is not tried again).
    const { row, jobs } = await analysisRow(garbage.body.pcap_file_key);
    expect(row).toMatchObject({ analysisState: "failed", analysisFailureStatus: 422, analysisFailure: r1.body.detail });
    expect(jobs.map((j) => j.state)).toEqual(["completed"]);
    // Asked again: the same answer, from the row, and no second job.
    expect(await p.call("GET", "analyze-s3-pcap", { token: owner.token, query: { pcap_file_key: garbage.body.pcap_file_key, pcap_file_name: "notes.txt" } })).toEqual(r1);
    expect((await analysisRow(garbage.body.pcap_file_key)).jobs).toHaveLength(1);
    // A flow report of it answers the same failure.
    const flow = await p.call("POST", "perform-flow-analysis", { token: owner.token, body: { pcap_file_key: garbage.body.pcap_file_key, session_id: "1" } });
    expect(flow).toEqual(r1);

    const empty = await send("POST", "/api/v1/upload-pcap-stream?pcap_file_name=empty.pcap", {
      token: owner.token,
      body: "",
      headers: { "content-type": "application/octet-stream" },
    });
    const r2 = await untilAnalysed(owner.token, { pcap_file_key: empty.body.pcap_file_key, pcap_file_name: "empty.pcap" });
    expect(r2.status).toBe(422);
    expect(typeof r2.body.detail).toBe("string");

    // Cut inside the first packet record: nothing readable.
    const head = fs.readFileSync(capture("tcpdump-ssh.pcap")).subarray(0, 40);
    const cut = await send("POST", "/api/v1/upload-pcap-stream?pcap_file_name=cut.pcap", {
      token: owner.token,
      body: head,
      headers: { "content-type": "application/octet-stream" },
    });
    const r3 = await untilAnalysed(owner.token, { pcap_file_key: cut.body.pcap_file_key, pcap_file_name: "cut.pcap" });
    expect(r3.status).toBe(422);
    expect(r3.body.detail).toMatch(/\d/); // says where
  });

  it("readonly IAM users read the account's captures but do not upload (app/lib/roles.ts)", async () => {
    const reader = await p.newIamUser(owner, "readonly");
    // Uploading stores a capture in the account: a change, so 403 before the body is read.
    const refused = await p.call("GET", "get-s3-upload-url", { token: reader.token, query: { pcap_file_name: "x.pcap" } });
    expect(refused.status).toBe(403);
    // A capture the owner stored: the readonly user has it analysed (a read: it changes nothing of
    // the account's configuration) and reads a session's report.
    const u = await uploadFile(owner.token, capture("zeek-tcp-retransmit-timeout.pcapng"));
    const analysed = await untilAnalysed(reader.token, analyzeQuery(u));
    expect(analysed.status).toBe(200);
    const flow = await p.call("POST", "perform-flow-analysis", {
      token: reader.token,
      body: { pcap_file_key: u.pcap_file_key, session_id: analysed.body.sessions[0].session_id },
    });
    expect(flow.status).toBe(200);
  });

  it("analyses on the job queue: one job per capture however often it is asked for, one analysis at a time per instance", async () => {
    const a = await uploadFile(owner.token, capture("pcapplusplus-example2.pcap"));
    const b = await uploadFile(owner.token, capture("tcpdump-afs.pcap"));
    // Asked for at once, thrice for `a`, twice for `b`: every answer is the progress, or the
    // analysis when the worker already finished it (the small capture takes a fraction of a second
    // on a quiet machine); the answer that queued a capture is the progress. One job per capture (below).
    const order = [a, b, a, b, a];
    const asked = await Promise.all(order.map((u) => p.call("GET", "analyze-s3-pcap", { token: owner.token, query: analyzeQuery(u) })));
    for (const r of asked) {
      if (r.status === 200) expect(r.body.state).toBe("done");
      else {
        expect(r.status, JSON.stringify(r.body)).toBe(202);
        expect(["queued", "analyzing"]).toContain(r.body.state);
      }
    }
    for (const u of [a, b]) expect(asked.some((r, i) => order[i] === u && r.status === 202)).toBe(true);
    // A flow report asked for before the analysis is done: 409, and no further job.
    const early = await p.call("POST", "perform-flow-analysis", { token: owner.token, body: { pcap_file_key: a.pcap_file_key, session_id: "1" } });
    expect(early).toEqual({ status: 409, body: { detail: STILL_ANALYZING_DETAIL } });

    const [ra, rb] = [await untilAnalysed(owner.token, analyzeQuery(a)), await untilAnalysed(owner.token, analyzeQuery(b))];
    expect(ra.status).toBe(200);
    expect(rb.status).toBe(200);
    expect(ra.body.sessions).toHaveLength(expected("pcapplusplus-example2.json").conversations.length);
    expect(rb.body.sessions).toHaveLength(expected("tcpdump-afs.json").conversations.length);
    const [ja, jb] = [await analysisRow(a.pcap_file_key), await analysisRow(b.pcap_file_key)];
    expect(ja.jobs.map((j) => j.state)).toEqual(["completed"]);
    expect(jb.jobs.map((j) => j.state)).toEqual(["completed"]);
    // This instance's worker took them one after the other (concurrency 1: the analysis thread's).
    const runs = [ja.row, jb.row].map((r) => [r.analysisStartedAt!.getTime(), r.analysisFinishedAt!.getTime()]).sort((x, y) => x[0]! - y[0]!);
    expect(runs[1]![0]).toBeGreaterThanOrEqual(runs[0]![1]!);
    // Sessions are in time order, and the summary counts the degraded ones.
    const starts = ra.body.sessions.map((s: any) => s.start_time);
    expect([...starts].sort()).toEqual(starts);
    const degraded = ra.body.sessions.filter((s: any) => s.performance !== "good").length;
    expect(ra.body.summary.degraded_sessions).toBe(degraded);
    expect(ra.body.summary.degraded_percent).toBe(Math.round((degraded / ra.body.sessions.length) * 10000) / 100);
  });

  it("answers a flow report asked for first (its analysis queued by it) with 409 until the analysis is done", async () => {
    const u = await uploadFile(owner.token, capture("tcpdump-ssh.pcap"));
    const early = await p.call("POST", "perform-flow-analysis", { token: owner.token, body: { pcap_file_key: u.pcap_file_key, session_id: "1" } });
    expect(early).toEqual({ status: 409, body: { detail: STILL_ANALYZING_DETAIL } });
    const pdf = await send("GET", `/api/v1/pcap-report-pdf?pcap_file_key=${u.pcap_file_key}&session_id=1`, { token: owner.token });
    expect(pdf.status).toBe(409);
    expect((await analysisRow(u.pcap_file_key)).jobs).toHaveLength(1);
    const done = await untilAnalysed(owner.token, analyzeQuery(u));
    const flow = await p.call("POST", "perform-flow-analysis", { token: owner.token, body: { pcap_file_key: u.pcap_file_key, session_id: done.body.sessions[0].session_id } });
    expect(flow.status).toBe(200);
  });

  it("validates names and keys, and needs a bearer token except for the signed PUT", async () => {
    expect((await p.call("GET", "get-s3-upload-url", { query: { pcap_file_name: "a.pcap" } })).status).toBe(401);
    for (const bad of ["", "../etc/passwd", "dir/a.pcap", "dir\\a.pcap", "a".repeat(256), "..", "tab\there.pcap"]) {
      const r = await p.call("GET", "get-s3-upload-url", { token: owner.token, query: { pcap_file_name: bad } });
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(r.body.detail[0].loc).toEqual(["query", "pcap_file_name"]);
    }
    const missing = await p.call("GET", "get-s3-upload-url", { token: owner.token });
    expect(missing.status).toBe(422);
    expect((await p.call("GET", "get-s3-upload-url", { token: owner.token, query: { pcap_file_name: "a".repeat(255) } })).status).toBe(
      200,
    );
    expect((await p.call("GET", "analyze-s3-pcap", { token: owner.token, query: { pcap_file_name: "a.pcap" } })).status).toBe(422);
    expect(
      (await p.call("GET", "analyze-s3-pcap", { token: owner.token, query: { pcap_file_key: "../../x", pcap_file_name: "a.pcap" } })).status,
    ).toBe(404);
    expect((await p.call("POST", "perform-flow-analysis", { token: owner.token, body: { pcap_file_key: "k" } })).status).toBe(422);
    expect((await send("PUT", "/api/v1/upload-pcap/..%2F..%2Fetc?expires=1&max=1&sig=x", { body: "x" })).status).toBe(404);
    // Same-origin PUTs need no CORS; the console's own origin is answered if it ever is cross-origin.
    const pre = await send("OPTIONS", "/api/v1/upload-pcap/anything", {
      headers: { origin: p.deps.config.consoleUrl, "access-control-request-method": "PUT" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(p.deps.config.consoleUrl);
    expect(pre.headers.get("access-control-allow-methods")).toContain("PUT");
    const foreign = await send("OPTIONS", "/api/v1/upload-pcap/anything", { headers: { origin: "https://evil.example" } });
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const doc = await p.call("GET", "openapi.json");
    for (const call of [
      "/api/v1/get-s3-upload-url",
      "/api/v1/upload-pcap/{key}",
      "/api/v1/upload-pcap-stream",
      "/api/v1/analyze-s3-pcap",
      "/api/v1/perform-flow-analysis",
      "/api/v1/pcap-report-pdf",
    ]) {
      expect(Object.keys(doc.body.paths), call).toContain(call);
    }
    expect(doc.body.paths["/api/v1/upload-pcap/{key}"].put.security).toEqual([]);
  });
});
