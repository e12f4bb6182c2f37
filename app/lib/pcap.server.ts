import busboy from "busboy";
import { Readable } from "node:stream";
import { callPlatformRaw, parseBody } from "./api.server.ts";
import { csrf, FORM_EXPIRED } from "./csrf.server.ts";
import { cleanFileName, MAX_PCAP_BYTES, messages, PCAP_ANALYSIS_STOPPED, uploadErrorMessage } from "./pcap.ts";
import { observe } from "../../server/observe.mjs";
import { SESSION_ENDED } from "./messages.ts";

/*
 * The server side of the PCAP analyzer's no-JS upload: the multipart form streamed into the
 * platform with callPlatformRaw (app/lib/api.server.ts), with the session's bearer token (which
 * never reaches the browser).
 */

// Calling, the 503 answer and the end of a session are api.server.ts's (one module for platform
// calls and their errors); re-exported for the PCAP routes.
export { callPlatformRaw, sessionEnded, unavailableResponse as platformUnavailable } from "./api.server.ts";

/* ------------------------------------------------------------------------------------------------
 * The no-JS upload: multipart/form-data → busboy → POST upload-pcap-stream (raw body)
 * ---------------------------------------------------------------------------------------------- */

export interface Uploaded {
  pcap_file_key: string;
  pcap_file_name: string;
  size: number;
}

export type UploadResult =
  | { ok: true; upload: Uploaded; fields: FormData }
  | { ok: false; status: number; message: string; reason?: "csrf" | "no-file" | "too-many" | "session" | "bad-request" | "platform" | "fields" };

/** Checks the form's other fields (sent before the file) before the file is stored: an error sentence, or null. */
export type UploadFieldsCheck = (fields: FormData) => string | null;

/** The CSRF field name of the forms (app/lib/csrf.server.ts). */
const CSRF_FIELD = "csrf";
/** The file field of the upload form. */
export const FILE_FIELD = "file";

const CSRF_MESSAGE = FORM_EXPIRED;

/**
 * A busboy file stream as a pull-based web ReadableStream: a chunk is read only when the
 * platform asks for one, so the whole path (browser → console → store) keeps its back-pressure
 * and the file is never held in memory. `drain()` discards whatever the reader did not take
 * (the platform answered early: 413, 401…), so the browser's request can finish.
 */
export function fileBodyStream(file: Readable): { body: ReadableStream<Uint8Array>; drain: () => void; ended: () => boolean } {
  let ended = false;
  let draining = false;
  let failure: Error | null = null;
  let waiter: (() => void) | null = null;
  const wake = () => {
    const w = waiter;
    waiter = null;
    w?.();
  };
  const onReadable = () => wake();
  file.on("readable", onReadable);
  file.once("end", () => {
    ended = true;
    wake();
  });
  file.once("error", (err) => {
    failure = err;
    wake();
  });
  const drain = () => {
    if (draining) return;
    draining = true;
    file.off("readable", onReadable);
    file.resume();
    wake();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          if (failure) return controller.error(failure);
          if (draining) return controller.error(new Error("upload abandoned"));
          const chunk = file.read() as Buffer | null;
          if (chunk !== null) {
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            return;
          }
          if (ended || file.readableEnded) return controller.close();
          await new Promise<void>((resolve) => (waiter = resolve));
        }
      },
      cancel() {
        drain();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, drain, ended: () => ended || file.readableEnded };
}

/** Checks the form's CSRF token (read from the fields sent before the file) against the cookie. */
async function csrfValid(fields: FormData, headers: Headers): Promise<boolean> {
  try {
    await csrf.validate(fields, headers);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a multipart upload (the CSRF field first, then the file) and streams the file part
 * straight into POST upload-pcap-stream. The request body is read to its end in every case, so
 * the browser always gets the answer (a server that answers mid-upload gets a connection reset).
 */
export function receiveMultipartUpload(request: Request, token: string, checkFields?: UploadFieldsCheck): Promise<UploadResult> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType) || !request.body) {
    return Promise.resolve({ ok: false, status: 400, message: "The upload must be sent as multipart/form-data.", reason: "bad-request" });
  }
  const requestBody = request.body;
  return new Promise<UploadResult>((resolve) => {
    let settled = false;
    const finish = (result: UploadResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        defParamCharset: "utf8",
        limits: { files: 1, fields: 20, parts: 25, fieldSize: 8 * 1024, fileSize: MAX_PCAP_BYTES + 1 },
      });
      // Past `files: 1` busboy drops further files without a "file" event: that is a second file too.
      parser.on("filesLimit", () => (extraFile = true));
    } catch {
      finish({ ok: false, status: 400, message: "The upload could not be read.", reason: "bad-request" });
      requestBody.cancel().catch(() => {});
      return;
    }

    const fields = new FormData();
    let sawFile = false;
    /** A second file in the form (spec 1: at most 1 file): refused, not silently dropped (issue 63 item 33). */
    let extraFile = false;
    let upload: Promise<UploadResult> | null = null;

    parser.on("field", (name, value) => {
      if (!sawFile) fields.append(name, value);
    });

    parser.on("file", (name, file, info) => {
      if (sawFile || name !== FILE_FIELD) {
        if (sawFile && name === FILE_FIELD && info.filename) extraFile = true;
        file.resume();
        return;
      }
      sawFile = true;
      upload = (async (): Promise<UploadResult> => {
        if (!fields.get(CSRF_FIELD) || !(await csrfValid(fields, request.headers))) {
          file.resume();
          return { ok: false, status: 403, message: CSRF_MESSAGE, reason: "csrf" };
        }
        if (!info.filename) {
          file.resume();
          return { ok: false, status: 400, message: messages.noFile, reason: "no-file" };
        }
        const refused = checkFields?.(fields) ?? null;
        if (refused) {
          file.resume();
          return { ok: false, status: 400, message: refused, reason: "fields" };
        }
        const stream = fileBodyStream(file);
        let response: Response;
        try {
          response = await callPlatformRaw(token, "POST", "upload-pcap-stream", {
            query: { pcap_file_name: cleanFileName(info.filename) },
            body: stream.body,
            headers: { "content-type": "application/octet-stream", accept: "application/json" },
          });
        } catch (err) {
          stream.drain();
          if (request.signal.aborted) return { ok: false, status: 499, message: messages.unknown, reason: "platform" };
          observe().logger.error({ err }, "PCAP stream upload failed");
          return { ok: false, status: 503, message: "The service is unavailable right now. Please try again.", reason: "platform" };
        }
        if (!stream.ended()) stream.drain();
        const parsed = parseBody(await response.text().catch(() => ""));
        if (response.status === 401) return { ok: false, status: 401, message: SESSION_ENDED, reason: "session" };
        if (response.ok && parsed && typeof parsed === "object" && "pcap_file_key" in parsed) {
          return { ok: true, upload: parsed as Uploaded, fields };
        }
        return {
          ok: false,
          status: response.status,
          message: uploadErrorMessage({ status: response.status, body: parsed, statusText: response.statusText }) ?? messages.unknown,
          reason: "platform",
        };
      })();
    });

    parser.on("close", () => {
      // The first file is stored by then (multipart is sequential), but not analysed: the retention
      // sweep removes it with the account's other unused uploads.
      if (extraFile) finish({ ok: false, status: 400, message: messages.oneFile, reason: "too-many" });
      else if (upload) upload.then(finish);
      else finish({ ok: false, status: 400, message: sawFile ? messages.unknown : messages.noFile, reason: "no-file" });
    });
    parser.on("error", (err) => {
      // A broken body (the browser went away, a malformed part): the file stream errors too.
      if (upload) upload.then(finish);
      else finish({ ok: false, status: 400, message: `The upload could not be read: ${(err as Error).message}`, reason: "bad-request" });
    });

    const source = Readable.fromWeb(requestBody as import("node:stream/web").ReadableStream<Uint8Array>);
    source.on("error", (err) => parser.destroy(err));
    source.pipe(parser);
  });
}

const stopped: readonly unknown[] = Object.values(PCAP_ANALYSIS_STOPPED);

/**
 * The sentence for a failed analyze-s3-pcap. A file that is not a capture (422) gets one plain
 * sentence; the parser's technical detail (magic number, offset) is logged, never shown. An
 * analysis that stopped for another reason (its time limit, given up) says so as the platform does.
 */
export function analysisFailure(status: number, detail: unknown, fallback: string): { code: "not-capture" | null; message: string } {
  if (status === 422 && stopped.includes(detail)) return { code: null, message: detail as string };
  if (status === 422) {
    observe().logger.warn({ detail }, "PCAP analysis refused the file");
    return { code: "not-capture", message: messages.notCapture };
  }
  return { code: null, message: fallback };
}
