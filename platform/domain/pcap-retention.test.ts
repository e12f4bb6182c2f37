import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { pcapFiles } from "../db/schema.ts";
import { objectStore } from "../storage/index.ts";
import { untilAnalysed } from "../test/pcap.ts";
import { testPlatform, type TestAccount, type TestPlatform } from "../test/harness.ts";
import { sweepExpiredPcaps } from "./pcap-retention.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const capture = path.resolve(repoRoot, "tests/fixtures/pcaps/captures/tcpdump-ssh.pcap");

let p: TestPlatform;
beforeAll(async () => {
  p = await testPlatform();
});

/** Uploads the capture through the signed URL, as the browser does; returns its key. */
async function upload(owner: TestAccount): Promise<string> {
  const u = await p.call("GET", "get-s3-upload-url", { token: owner.token, query: { pcap_file_name: "tcpdump-ssh.pcap" } });
  expect(u.status).toBe(200);
  const bytes = fs.readFileSync(capture);
  const put = await p.app.fetch(
    new Request(new URL(u.body.s3_url, "http://platform.test"), { method: "PUT", body: bytes, headers: { "content-length": String(bytes.length) } }),
  );
  expect(put.status).toBe(200);
  const a = await untilAnalysed(p, owner.token, { pcap_file_key: u.body.pcap_file_key, pcap_file_name: "tcpdump-ssh.pcap" });
  expect(a.status).toBe(200);
  return u.body.pcap_file_key as string;
}

describe("PCAP retention", () => {
  it("the sweep deletes uploads older than the cut-off, their analyses and objects, and nothing newer", async () => {
    const owner = await p.newAccount();
    const old = await upload(owner);
    const recent = await upload(owner);
    // Age the first one past a 30-day retention.
    await p.deps.db.update(pcapFiles).set({ createdAt: new Date(Date.now() - 31 * 86_400_000) }).where(eq(pcapFiles.pcapFileKey, old));

    const deleted = await sweepExpiredPcaps(p.deps, new Date(Date.now() - 30 * 86_400_000));
    expect(deleted).toContain(old);
    expect(deleted).not.toContain(recent);
    expect(await objectStore(p.deps).stat(old)).toBeNull();
    expect(await objectStore(p.deps).stat(recent)).not.toBeNull();
    const q = (key: string) => ({ token: owner.token, query: { pcap_file_key: key, pcap_file_name: "tcpdump-ssh.pcap" } });
    expect((await p.call("GET", "analyze-s3-pcap", q(old))).status).toBe(404);
    expect((await p.call("GET", "analyze-s3-pcap", q(recent))).status).toBe(200);
  });

  it("removing the account deletes its captures' objects", async () => {
    const owner = await p.newAccount();
    const key = await upload(owner);
    expect(await objectStore(p.deps).stat(key)).not.toBeNull();
    const r = await p.call("POST", "remove-account", { token: owner.token, body: { username: owner.username } });
    expect(r.status).toBe(200);
    expect(await objectStore(p.deps).stat(key)).toBeNull();
  });
});
