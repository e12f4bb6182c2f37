import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import {
  LocalObjectStore,
  ObjectNotFoundError,
  ObjectTooLargeError,
  S3ObjectStore,
  s3SettingsFromEnv,
  uploadPcapPath,
} from "./index.ts";
import { loadOrCreateSecret, signPut, verifyPut } from "./signing.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-store-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const local = (now?: () => number) =>
  new LocalObjectStore({ root: path.join(dir, "objects"), secretFile: path.join(dir, "objects-secret"), uploadUrl: uploadPcapPath, now });

function chunks(total: number, size = 1000): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const n = Math.min(size, total - sent);
      sent += n;
      this.push(Buffer.alloc(n, 7));
    },
  });
}

describe("embedded object store", () => {
  it("streams bodies to files, replaces them whole, and deletes them", async () => {
    const store = local();
    expect(await store.putStream("acct-a_pcap-1", chunks(25_000), { maxBytes: 1_000_000 })).toEqual({ size: 25_000 });
    const info = await store.stat("acct-a_pcap-1");
    expect(info?.size).toBe(25_000);
    const copy = await store.getPath("acct-a_pcap-1");
    expect(copy.path).toBe(path.join(dir, "objects", "acct-a_pcap-1"));
    expect(fs.statSync(copy.path).size).toBe(25_000);
    let read = 0;
    for await (const c of await store.getStream("acct-a_pcap-1")) read += (c as Buffer).length;
    expect(read).toBe(25_000);
    // A web stream body works too.
    const web = new Blob([new Uint8Array(10)]).stream();
    expect(await store.putStream("acct-a_pcap-1", web, { maxBytes: 100 })).toEqual({ size: 10 });
    expect((await store.stat("acct-a_pcap-1"))?.size).toBe(10);
    await store.delete("acct-a_pcap-1");
    expect(await store.stat("acct-a_pcap-1")).toBeNull();
    await expect(store.getPath("acct-a_pcap-1")).rejects.toBeInstanceOf(ObjectNotFoundError);
    await store.delete("acct-a_pcap-1"); // deleting twice is fine
  });

  it("refuses bodies over the limit, by declared length or while streaming, leaving nothing behind", async () => {
    const store = local();
    await expect(store.putStream("k-big", chunks(10), { maxBytes: 5, contentLength: 10 })).rejects.toBeInstanceOf(ObjectTooLargeError);
    await expect(store.putStream("k-big", chunks(50_000), { maxBytes: 20_000 })).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await store.stat("k-big")).toBeNull();
    expect(fs.readdirSync(path.join(dir, "objects")).filter((f) => f.includes("k-big"))).toEqual([]);
    expect(await store.putStream("k-big", chunks(20_000), { maxBytes: 20_000 })).toEqual({ size: 20_000 });
  });

  it("refuses keys that could leave its directory", async () => {
    const store = local();
    for (const key of ["../x", "a/../../x", "", "a//b", "/abs", "a b", "."]) {
      await expect(store.putStream(key, chunks(1), { maxBytes: 10 }), key).rejects.toThrow(/invalid object key/);
    }
  });

  it("signs upload URLs with an expiry and a size limit", async () => {
    const t0 = Date.UTC(2026, 10, 22, 12, 0, 0);
    const store = local(() => t0);
    const url = new URL(await store.presignPut("acct-a_pcap-2", { expiresIn: 900, maxBytes: 1234 }), "http://x");
    expect(url.pathname).toBe("/api/v1/upload-pcap/acct-a_pcap-2");
    expect(url.searchParams.get("expires")).toBe(String(t0 / 1000 + 900));
    expect(url.searchParams.get("max")).toBe("1234");
    const q = Object.fromEntries(url.searchParams);
    expect(store.verifySignedPut("acct-a_pcap-2", q)).toMatchObject({ ok: true, maxBytes: 1234 });
    expect(store.verifySignedPut("acct-a_pcap-3", q)).toEqual({ ok: false, reason: "invalid" });
    expect(store.verifySignedPut("acct-a_pcap-2", { ...q, max: "99999" })).toEqual({ ok: false, reason: "invalid" });
    expect(store.verifySignedPut("acct-a_pcap-2", { ...q, sig: undefined })).toEqual({ ok: false, reason: "missing" });
    expect(local(() => t0 + 901_000).verifySignedPut("acct-a_pcap-2", q)).toEqual({ ok: false, reason: "expired" });
    expect(local(() => t0 + 900_000).verifySignedPut("acct-a_pcap-2", q).ok).toBe(true);
    // Another secret does not accept it.
    const secret = loadOrCreateSecret(path.join(dir, "other-secret"));
    expect(verifyPut(secret, "acct-a_pcap-2", q, t0 / 1000).ok).toBe(false);
    expect(verifyPut(secret, "k", { expires: "100", max: "5", sig: signPut(secret, "k", 100, 5) }, 99).ok).toBe(true);
  });

  it("keeps its secret in a file made on first use", () => {
    const file = path.join(dir, "secret-test", "objects-secret");
    const a = loadOrCreateSecret(file);
    expect(a.length).toBe(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecret(file).equals(a)).toBe(true);
  });
});

describe("S3 object store", () => {
  const settings = {
    endpoint: "https://s3.example.test",
    bucket: "linkwise-pcaps",
    region: "eu-west-1",
    accessKeyId: "AKIAEXAMPLE",
    secretAccessKey: "secret-example",
    forcePathStyle: true,
  };

  it("reads its settings from S3_* variables", () => {
    expect(s3SettingsFromEnv({})).toBeNull();
    expect(
      s3SettingsFromEnv({
        S3_ENDPOINT: "http://minio:9000",
        S3_BUCKET: "b",
        S3_REGION: "us-west-2",
        S3_ACCESS_KEY_ID: "id",
        S3_SECRET_ACCESS_KEY: "sk",
      }),
    ).toEqual({ endpoint: "http://minio:9000", bucket: "b", region: "us-west-2", accessKeyId: "id", secretAccessKey: "sk", forcePathStyle: true });
    expect(s3SettingsFromEnv({ S3_BUCKET: "b" })).toMatchObject({ endpoint: undefined, region: "us-east-1", forcePathStyle: false });
  });

  it("presigns PutObject URLs with SigV4 query parameters", async () => {
    const store = new S3ObjectStore(settings, { tmpDir: dir });
    const before = new Date();
    const url = new URL(await store.presignPut("acct-a_pcap-0123456789abcdef", { expiresIn: 900, maxBytes: 10 }));
    expect(url.origin).toBe("https://s3.example.test");
    expect(url.pathname).toBe("/linkwise-pcaps/acct-a_pcap-0123456789abcdef");
    const q = url.searchParams;
    expect(q.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    const ymd = before.toISOString().slice(0, 10).replace(/-/g, "");
    expect(q.get("X-Amz-Credential")).toMatch(new RegExp(`^AKIAEXAMPLE/\\d{8}/eu-west-1/s3/aws4_request$`));
    expect(q.get("X-Amz-Credential")!.split("/")[1]! >= ymd).toBe(true);
    expect(q.get("X-Amz-Date")).toMatch(/^\d{8}T\d{6}Z$/);
    expect(q.get("X-Amz-Expires")).toBe("900");
    expect(q.get("X-Amz-SignedHeaders")).toBe("host");
    expect(q.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(q.get("X-Amz-Content-Sha256")).toBe("UNSIGNED-PAYLOAD");
    // No checksum of an empty body baked in (uploads of real files would fail it).
    for (const k of q.keys()) expect(k.toLowerCase()).not.toMatch(/checksum/);
  });

  it("uses virtual-hosted AWS URLs without an endpoint", async () => {
    const store = new S3ObjectStore({ ...settings, endpoint: undefined, forcePathStyle: false }, { tmpDir: dir });
    const url = new URL(await store.presignPut("k1", { expiresIn: 60, maxBytes: 10 }));
    expect(url.host).toBe("linkwise-pcaps.s3.eu-west-1.amazonaws.com");
    expect(url.pathname).toBe("/k1");
    expect(url.searchParams.get("X-Amz-Expires")).toBe("60");
  });

  /** The store with its S3 client answering from a script, recording each command. */
  function scripted(answer: (name: string, input: any) => unknown) {
    const store = new S3ObjectStore(settings, { tmpDir: path.join(dir, "tmp") });
    const sent: { name: string; input: any }[] = [];
    (store.client as unknown as { send: (cmd: any) => Promise<unknown> }).send = async (cmd) => {
      const name = cmd.constructor.name as string;
      sent.push({ name, input: cmd.input });
      return answer(name, cmd.input);
    };
    return { store, sent };
  }

  it("streams large bodies as a multipart upload, one part in memory at a time", async () => {
    const { store, sent } = scripted((name, input) =>
      name === "CreateMultipartUploadCommand" ? { UploadId: "up-1" } : name === "UploadPartCommand" ? { ETag: `"e${input.PartNumber}"` } : {},
    );
    const total = 40 * 1024 * 1024;
    expect(await store.putStream("k-multi", chunks(total, 64 * 1024), { maxBytes: total })).toEqual({ size: total });
    expect(sent.map((c) => c.name)).toEqual([
      "CreateMultipartUploadCommand",
      "UploadPartCommand",
      "UploadPartCommand",
      "UploadPartCommand",
      "CompleteMultipartUploadCommand",
    ]);
    const parts = sent.filter((c) => c.name === "UploadPartCommand").map((c) => c.input.ContentLength);
    expect(parts).toEqual([16 * 1024 * 1024, 16 * 1024 * 1024, 8 * 1024 * 1024]);
    expect(sent[4]!.input).toMatchObject({
      Bucket: "linkwise-pcaps",
      Key: "k-multi",
      UploadId: "up-1",
      MultipartUpload: { Parts: [{ ETag: '"e1"', PartNumber: 1 }, { ETag: '"e2"', PartNumber: 2 }, { ETag: '"e3"', PartNumber: 3 }] },
    });
  });

  it("sends small bodies in one PutObject and aborts a multipart upload that goes over the limit", async () => {
    const small = scripted(() => ({}));
    expect(await small.store.putStream("k-small", chunks(1000), { maxBytes: 5000 })).toEqual({ size: 1000 });
    expect(small.sent.map((c) => c.name)).toEqual(["PutObjectCommand"]);
    expect(small.sent[0]!.input.ContentLength).toBe(1000);

    const big = scripted((name) => (name === "CreateMultipartUploadCommand" ? { UploadId: "up-2" } : { ETag: '"e"' }));
    await expect(big.store.putStream("k-big", chunks(40 * 1024 * 1024, 64 * 1024), { maxBytes: 36 * 1024 * 1024 })).rejects.toBeInstanceOf(
      ObjectTooLargeError,
    );
    expect(big.sent.at(-1)).toMatchObject({ name: "AbortMultipartUploadCommand", input: { UploadId: "up-2", Key: "k-big" } });
    expect(big.sent.some((c) => c.name === "CompleteMultipartUploadCommand")).toBe(false);
  });

  it("downloads objects to a temporary file for analysis and maps missing objects", async () => {
    const { store } = scripted((name, input) => {
      if (input.Key === "missing") throw Object.assign(new Error("nope"), { name: name === "HeadObjectCommand" ? "NotFound" : "NoSuchKey" });
      if (name === "GetObjectCommand") return { Body: chunks(5000) };
      if (name === "HeadObjectCommand") return { ContentLength: 5000, ETag: '"abc"' };
      return {};
    });
    expect(await store.stat("k")).toEqual({ size: 5000, etag: '"abc"' });
    expect(await store.stat("missing")).toBeNull();
    await expect(store.getPath("missing")).rejects.toBeInstanceOf(ObjectNotFoundError);
    const copy = await store.getPath("k");
    expect(copy.size).toBe(5000);
    expect(fs.statSync(copy.path).size).toBe(5000);
    await copy.release();
    expect(fs.existsSync(copy.path)).toBe(false);
  });
});
