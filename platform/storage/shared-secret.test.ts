import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalObjectStore, uploadPcapPath } from "./index.ts";

/*
 * OBJECTS_SECRET: instances of one deployment sign upload URLs with the same secret, so a URL one
 * made is accepted by another; a rotation's list keeps the old URLs valid.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-objects-secret-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const oldSecret = "o".repeat(40);
const newSecret = "n".repeat(40);
/** One instance's store, with its own DATA_DIR. */
const instance = (name: string, secret?: string) =>
  new LocalObjectStore({ root: path.join(dir, name, "objects"), secretFile: path.join(dir, name, "objects-secret"), uploadUrl: uploadPcapPath, secret });

async function signedQuery(store: LocalObjectStore, key: string) {
  const url = new URL(await store.presignPut(key, { expiresIn: 900, maxBytes: 1000 }), "http://x");
  return { expires: url.searchParams.get("expires"), max: url.searchParams.get("max"), sig: url.searchParams.get("sig") };
}

describe("the upload URLs' signing secret", () => {
  it("is the same on every instance given OBJECTS_SECRET (each generates its own without it)", async () => {
    const q = await signedQuery(instance("a", oldSecret), "acct_pcap-1");
    expect(instance("b", oldSecret).verifySignedPut("acct_pcap-1", q)).toMatchObject({ ok: true });
    const own = await signedQuery(instance("c"), "acct_pcap-1");
    expect(instance("d").verifySignedPut("acct_pcap-1", own)).toEqual({ ok: false, reason: "invalid" });
    expect(fs.existsSync(path.join(dir, "a", "objects-secret"))).toBe(false);
  });

  it("rotates: new,old signs with the new one and accepts both", async () => {
    const before = await signedQuery(instance("e", oldSecret), "acct_pcap-2");
    const rotating = instance("f", `${newSecret},${oldSecret}`);
    expect(rotating.verifySignedPut("acct_pcap-2", before)).toMatchObject({ ok: true });
    const after = await signedQuery(rotating, "acct_pcap-2");
    expect(instance("g", newSecret).verifySignedPut("acct_pcap-2", after)).toMatchObject({ ok: true });
    expect(instance("h", oldSecret).verifySignedPut("acct_pcap-2", after)).toEqual({ ok: false, reason: "invalid" });
  });
});
