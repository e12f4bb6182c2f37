import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  checkPcapFile,
  cleanFileName,
  detailOf,
  FILE_TOO_LARGE_CODE,
  MAX_PCAP_BYTES,
  messages,
  parseZoom,
  PCAP_ANALYSIS_STOPPED,
  percentOf,
  progressStep,
  safeFrom,
  uploadDetails,
  uploadErrorMessage,
} from "./pcap.ts";

/* The PCAP analyzer's messages and limits (spec 1 §5, §8 'Upload', §9), and the no-JS upload path. */

describe("spec 1 §8 'Upload' messages", () => {
  it("413 is 'Error: Chosen file is too large to upload.', whatever the body says", () => {
    expect(uploadErrorMessage({ status: 413 })).toBe("Error: Chosen file is too large to upload.");
    expect(uploadErrorMessage({ status: 413, body: '{"detail":"Payload Too Large"}' })).toBe("Error: Chosen file is too large to upload.");
    expect(uploadErrorMessage({ status: 413, body: "<html>nginx</html>" })).toBe(messages.uploadTooLarge);
  });

  it("400 and 500 show the server detail", () => {
    expect(uploadErrorMessage({ status: 400, body: { detail: "Bad capture name." } })).toBe("Bad capture name.");
    expect(uploadErrorMessage({ status: 500, body: '{"detail":"Disk full."}' })).toBe("Disk full.");
    expect(uploadErrorMessage({ status: 400, body: { detail: [{ loc: ["query", "pcap_file_name"], msg: "Must be a file name" }] } })).toBe(
      "Must be a file name",
    );
  });

  it("400 and 500 without a detail fall back to 'Error {status}: {message}'", () => {
    expect(uploadErrorMessage({ status: 500, body: "", statusText: "Internal Server Error" })).toBe("Error 500: Internal Server Error");
  });

  it("other statuses show 'Error {status}: {message}'", () => {
    expect(uploadErrorMessage({ status: 403, body: '{"detail":"This upload URL has expired."}' })).toBe("Error 403: This upload URL has expired.");
    expect(uploadErrorMessage({ status: 404, body: "", statusText: "Not Found" })).toBe("Error 404: Not Found");
    expect(uploadErrorMessage({ status: 422, body: { detail: "Not a pcap or pcapng file" } })).toBe("Error 422: Not a pcap or pcapng file");
    expect(uploadErrorMessage({ status: 502 })).toBe("Error 502: Bad Gateway");
    // An S3 error document.
    expect(
      uploadErrorMessage({ status: 403, body: "<?xml version='1.0'?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>" }),
    ).toBe("Error 403: Request has expired");
  });

  it("cancellation is silent; anything else (no response) is 'Unknown error'", () => {
    expect(uploadErrorMessage({ status: 0, aborted: true })).toBeNull();
    expect(uploadErrorMessage({ status: 413, aborted: true })).toBeNull();
    expect(uploadErrorMessage({ status: 0 })).toBe("Unknown error");
    expect(uploadErrorMessage({ status: Number.NaN })).toBe("Unknown error");
  });

  it("success is no message", () => {
    expect(uploadErrorMessage({ status: 200, body: "{}" })).toBeNull();
    expect(uploadErrorMessage({ status: 204 })).toBeNull();
  });

  it("missing upload URL data is refused ('Failed to get upload details.')", () => {
    expect(messages.noUploadDetails).toBe("Failed to get upload details.");
    expect(uploadDetails(null)).toBeNull();
    expect(uploadDetails({})).toBeNull();
    expect(uploadDetails({ s3_url: "/api/v1/upload-pcap/k", pcap_file_key: "" , pcap_file_name: "a.pcap" })).toBeNull();
    expect(uploadDetails({ s3_url: "/api/v1/upload-pcap/k", pcap_file_key: "k" })).toBeNull();
    expect(uploadDetails({ s3_url: "/api/v1/upload-pcap/k", pcap_file_key: "k", pcap_file_name: "a.pcap", extra: 1 })).toEqual({
      s3_url: "/api/v1/upload-pcap/k",
      pcap_file_key: "k",
      pcap_file_name: "a.pcap",
    });
  });

  it("the other fixed texts", () => {
    expect(messages.noTestData).toBe("There is no test data.");
    expect(messages.analyzed).toBe("Successfully analyzed.");
  });

  it("detailOf reads strings, lists and JSON text", () => {
    expect(detailOf('{"detail":"x"}')).toBe("x");
    expect(detailOf({ detail: [{ msg: "a" }, { msg: "b" }] })).toBe("a b");
    expect(detailOf("plain words")).toBe("plain words");
    expect(detailOf("")).toBeNull();
    expect(detailOf({})).toBeNull();
  });
});

describe("spec 1 §5 'PCAP file': at most 10 GB, refused before the upload", () => {
  it("10737418240 bytes pass, one more is file-too-large with the exact message", () => {
    expect(MAX_PCAP_BYTES).toBe(10737418240);
    expect(checkPcapFile({ size: 10737418240 })).toBeNull();
    expect(checkPcapFile({ size: 0 })).toBeNull();
    expect(checkPcapFile({ size: 10737418241 })).toEqual({
      code: FILE_TOO_LARGE_CODE,
      message:
        "Sorry, we can only accept file size less than 10GB at this time. You may filter this pcap file with a wireshark to reduce its size and try again.",
    });
    expect(FILE_TOO_LARGE_CODE).toBe("file-too-large");
  });
});

describe("helpers", () => {
  it("progress is announced in 25% steps", () => {
    expect([0, 1, 24, 25, 49, 50, 74, 75, 99, 100, 120].map(progressStep)).toEqual([0, 0, 0, 25, 25, 50, 50, 75, 75, 100, 100]);
    expect(percentOf(0, 100)).toBe(0);
    expect(percentOf(50, 200)).toBe(25);
    expect(percentOf(200, 200)).toBe(100);
    expect(percentOf(5, 0)).toBe(100);
  });

  it("the Close link only goes to a same-site path", () => {
    expect(safeFrom("/contacts?page=2")).toBe("/contacts?page=2");
    expect(safeFrom(null)).toBe("/main-dashboard");
    expect(safeFrom("https://evil.example/")).toBe("/main-dashboard");
    expect(safeFrom("//evil.example/")).toBe("/main-dashboard");
    expect(safeFrom("/\\evil.example/")).toBe("/main-dashboard");
    expect(safeFrom("/pcap-analyzer?from=/x")).toBe("/main-dashboard");
    expect(safeFrom("/logout")).toBe("/main-dashboard");
  });

  it("zoom stays within 50–200% in steps of 25", () => {
    expect(parseZoom(null)).toBe(100);
    expect(parseZoom("125")).toBe(125);
    expect(parseZoom("130")).toBe(125);
    expect(parseZoom("25")).toBe(100);
    expect(parseZoom("250")).toBe(100);
    expect(parseZoom("abc")).toBe(100);
    expect(parseZoom("50")).toBe(50);
    expect(parseZoom("200")).toBe(200);
  });

  it("file names are made acceptable to the platform", () => {
    expect(cleanFileName("C:\\captures\\a.pcap")).toBe("a.pcap");
    expect(cleanFileName("dir/b.pcapng")).toBe("b.pcapng");
    expect(cleanFileName("bad\u0001name.pcap")).toBe("badname.pcap");
    expect(cleanFileName("")).toBe("capture.pcap");
    expect(cleanFileName("..")).toBe("capture.pcap");
    expect(cleanFileName("x".repeat(300))).toHaveLength(255);
  });
});

/* ------------------------------------------------------------------------------------------------
 * The no-JS upload (app/lib/pcap.server.ts): multipart → busboy → POST upload-pcap-stream, against
 * the in-process platform of the platform's test harness.
 * ---------------------------------------------------------------------------------------------- */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const capturePath = path.resolve(repoRoot, "tests/fixtures/pcaps/captures/tcpdump-ssh.pcap");

describe("the multipart upload (no JS)", () => {
  let server: typeof import("./pcap.server.ts");
  let csrfCookie: string;
  let csrfToken: string;
  let token: string;
  let limits: { maxBytes: number };

  beforeAll(async () => {
    process.env.SESSION_SECRET ??= "unit-test-secret";
    delete process.env.API_URL;
    const { testPlatform } = await import("../../platform/test/harness.ts");
    const domain = await import("../../platform/domain/pcap.ts");
    limits = domain.pcapLimits;
    const p = await testPlatform();
    token = (await p.newAccount()).token;
    // The console's in-process platform (platform/index.ts getPlatform) is the test harness's.
    (globalThis as Record<symbol, unknown>)[Symbol.for("linkwise.platform")] = Promise.resolve({ fetch: (r: Request) => p.app.fetch(r) });
    server = await import("./pcap.server.ts");
    const { csrf } = await import("./csrf.server.ts");
    const [t, setCookie] = await csrf.commitToken(new Headers());
    csrfToken = t;
    csrfCookie = String(setCookie).split(";")[0]!;
  });

  afterEach(() => {
    if (limits) limits.maxBytes = MAX_PCAP_BYTES;
  });

  function multipart(parts: [string, string | File][], cookie = csrfCookie) {
    const form = new FormData();
    for (const [k, v] of parts) form.append(k, v);
    return new Request("http://console.test/pcap-analyzer/upload", { method: "POST", body: form, headers: { cookie } });
  }
  const pcapFile = () => new File([fs.readFileSync(capturePath)], "tcpdump-ssh.pcap", { type: "application/vnd.tcpdump.pcap" });

  it("a failed analysis: a file that is not a capture is one plain sentence; an analysis stopped says why", () => {
    expect(server.analysisFailure(422, "not a pcap or pcapng file (magic 0x54686973 at byte 0)", "x")).toEqual({ code: "not-capture", message: messages.notCapture });
    for (const stopped of Object.values(PCAP_ANALYSIS_STOPPED)) expect(server.analysisFailure(422, stopped, "x")).toEqual({ code: null, message: stopped });
    expect(server.analysisFailure(404, "The PCAP file has not been uploaded.", "The PCAP file has not been uploaded.")).toEqual({ code: null, message: "The PCAP file has not been uploaded." });
  });

  it("streams the file to the platform and returns its key", async () => {
    const result = await server.receiveMultipartUpload(multipart([["csrf", csrfToken], ["file", pcapFile()]]), token);
    expect(result.ok, JSON.stringify(result)).toBe(true);
    if (!result.ok) return;
    expect(result.upload.pcap_file_name).toBe("tcpdump-ssh.pcap");
    expect(result.upload.size).toBe(fs.statSync(capturePath).size);
    expect(result.upload.pcap_file_key).toMatch(/_pcap-/);
  });

  it("the platform's 413 becomes 'Error: Chosen file is too large to upload.'", async () => {
    limits.maxBytes = 1000;
    const result = await server.receiveMultipartUpload(multipart([["csrf", csrfToken], ["file", pcapFile()]]), token);
    expect(result).toMatchObject({ ok: false, status: 413, message: "Error: Chosen file is too large to upload." });
  });

  it("refuses a missing or wrong CSRF token, and a token sent after the file, without calling the platform", async () => {
    for (const parts of [
      [["file", pcapFile()]],
      [["csrf", "forged"], ["file", pcapFile()]],
      [["file", pcapFile()], ["csrf", csrfToken]],
    ] as [string, string | File][][]) {
      const result = await server.receiveMultipartUpload(multipart(parts), token);
      expect(result).toMatchObject({ ok: false, status: 403, reason: "csrf" });
    }
    const noCookie = await server.receiveMultipartUpload(multipart([["csrf", csrfToken], ["file", pcapFile()]], ""), token);
    expect(noCookie).toMatchObject({ ok: false, status: 403, reason: "csrf" });
  });

  it("checks the form's other fields (sent before the file) before the file is stored, and answers them", async () => {
    const parts: [string, string | File][] = [["csrf", csrfToken], ["decode_as_port", "8472"], ["file", pcapFile()]];
    const refused = await server.receiveMultipartUpload(multipart(parts), token, (fields) => (fields.get("decode_as_encapsulation") ? null : "Choose the encapsulation."));
    expect(refused).toMatchObject({ ok: false, status: 400, reason: "fields", message: "Choose the encapsulation." });
    const fine = await server.receiveMultipartUpload(multipart(parts), token, () => null);
    expect(fine.ok, JSON.stringify(fine)).toBe(true);
    if (fine.ok) expect(fine.fields.get("decode_as_port")).toBe("8472");
  });

  it("a form without a file, or not multipart, is a 400", async () => {
    expect(await server.receiveMultipartUpload(multipart([["csrf", csrfToken]]), token)).toMatchObject({ ok: false, status: 400, reason: "no-file" });
    const empty = new File([], "");
    expect(await server.receiveMultipartUpload(multipart([["csrf", csrfToken], ["file", empty]]), token)).toMatchObject({ ok: false, reason: "no-file" });
    const json = new Request("http://console.test/x", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(await server.receiveMultipartUpload(json, token)).toMatchObject({ ok: false, status: 400 });
  });

  it("a form carrying two files is refused with a message, not analysed one of them silently (issue 63 item 33)", async () => {
    const result = await server.receiveMultipartUpload(multipart([["csrf", csrfToken], ["file", pcapFile()], ["file", pcapFile()]]), token);
    expect(result).toMatchObject({ ok: false, status: 400, reason: "too-many", message: "Please choose only one file." });
  });

  it("a rejected token (401) is reported as the end of the session", async () => {
    const result = await server.receiveMultipartUpload(multipart([["csrf", csrfToken], ["file", pcapFile()]]), "not-a-token");
    expect(result).toMatchObject({ ok: false, status: 401, reason: "session" });
  });

  it("fileBodyStream keeps back-pressure: nothing is read before the reader asks", async () => {
    let reads = 0;
    const source = new Readable({
      highWaterMark: 4,
      read() {
        reads++;
        this.push(reads <= 3 ? Buffer.from(`chunk${reads}`) : null);
      },
    });
    const { body } = server.fileBodyStream(source);
    await new Promise((r) => setTimeout(r, 20));
    const before = reads;
    expect(before).toBeLessThanOrEqual(1);
    const text = await new Response(body).text();
    expect(text).toBe("chunk1chunk2chunk3");
  });
});
