import { eq } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pcapFiles } from "../db/schema.ts";
import { sweepExpiredPcaps } from "../domain/pcap-retention.ts";
import { untilAnalysed } from "../test/pcap.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { startS3Server } from "../test/servers/s3.ts";
import { objectStore, S3ObjectStore, setObjectStore, type ObjectStore } from "./index.ts";

/*
 * Issue 27 item 20: the S3 store against a real S3-compatible server (s3rver, started here), not a
 * scripted fake: a presigned PUT as a browser sends it, a multipart upload of a large capture, the
 * analysis of a capture that lives in the bucket, and retention deleting the objects.
 */

let s3: Awaited<ReturnType<typeof startS3Server>>;
let store: S3ObjectStore;
let p: TestPlatform;
let before: ObjectStore;
let owner: TestAccount;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-s3-test-"));

beforeAll(async () => {
  s3 = await startS3Server();
  store = new S3ObjectStore(s3.settings, { tmpDir: tmp });
  p = await testPlatform();
  before = objectStore(p.deps);
  owner = await p.newAccount();
});
afterAll(async () => {
  // The shared platform gets its own store back (other files of this worker use it).
  if (p && before) setObjectStore(p.deps, before);
  await s3?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function generated(total: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const n = Math.min(64 * 1024, total - sent);
      sent += n;
      this.push(Buffer.alloc(n, sent % 251));
    },
  });
}

async function drain(stream: Readable) {
  let n = 0;
  for await (const chunk of stream) n += (chunk as Buffer).length;
  return n;
}

const capture = path.resolve(process.cwd(), "tests/fixtures/pcaps/captures/tcpdump-ssh.pcap");

describe("the S3 store against a real S3 server", () => {
  it("a presigned PUT from the browser stores the file; the object is read back whole", async () => {
    const key = `${owner.accountId}_pcap-presigned`;
    const url = await store.presignPut(key, { expiresIn: 900, maxBytes: 10_000_000 });
    expect(url.startsWith(s3.endpoint)).toBe(true);
    const body = fs.readFileSync(capture);
    // What the browser's XHR sends: the raw file, no credentials but the URL's signature.
    const put = await fetch(url, { method: "PUT", body, headers: { "content-type": "application/vnd.tcpdump.pcap" } });
    expect(put.status, await put.clone().text()).toBe(200);
    expect((await store.stat(key))?.size).toBe(body.length);
    expect(await drain(await store.getStream(key))).toBe(body.length);
  });

  it("uploads a large capture in parts (multipart) and reads it back", async () => {
    const key = `${owner.accountId}_pcap-multipart`;
    const size = 40 * 1024 * 1024 + 123; // three parts of 16 MiB
    expect(await store.putStream(key, generated(size), { maxBytes: size + 1 })).toEqual({ size });
    expect((await store.stat(key))?.size).toBe(size);
    const copy = await store.getPath(key);
    try {
      expect(fs.statSync(copy.path).size).toBe(size);
    } finally {
      await copy.release();
    }
  }, 120_000);

  it("analyses a capture that the browser put into the bucket, then retention deletes the object", async () => {
    setObjectStore(p.deps, store);
    try {
      const u = await p.call("GET", "get-s3-upload-url", { token: owner.token, query: { pcap_file_name: "tcpdump-ssh.pcap" } });
      expect(u.status, JSON.stringify(u.body)).toBe(200);
      expect(String(u.body.s3_url).startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
      const put = await fetch(u.body.s3_url, { method: "PUT", body: fs.readFileSync(capture), headers: { "content-type": "application/vnd.tcpdump.pcap" } });
      expect(put.status).toBe(200);
      const key = u.body.pcap_file_key as string;
      // Queued by the first call (the platform hears of the upload only then), analysed from the bucket by the job.
      const analysed = await untilAnalysed(p, owner.token, { pcap_file_key: key, pcap_file_name: "tcpdump-ssh.pcap" });
      expect(analysed.status, JSON.stringify(analysed.body)).toBe(200);
      expect(analysed.body.sessions.length).toBeGreaterThan(0);
      const flow = await p.call("POST", "perform-flow-analysis", { token: owner.token, body: { ...analysed.body.sessions[0], pcap_file_key: key } });
      expect(flow.status, JSON.stringify(flow.body)).toBe(200);

      // Retention: this upload is now "old" (only this row: the sweep's cut-off is before every other).
      await p.deps.db.update(pcapFiles).set({ createdAt: new Date("1971-01-01T00:00:00Z") }).where(eq(pcapFiles.pcapFileKey, key));
      expect(await sweepExpiredPcaps(p.deps, new Date("1972-01-01T00:00:00Z"))).toEqual([key]);
      expect(await store.stat(key)).toBeNull();
    } finally {
      setObjectStore(p.deps, before);
    }
  }, 120_000);
});
