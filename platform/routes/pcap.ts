import { z } from "@hono/zod-openapi";
import type { PlatformApp } from "../app.ts";
import {
  analyzePcap,
  createUploadUrl,
  flowAnalysis,
  MAX_PCAP_BYTES,
  NO_TEST_DATA_DETAIL,
  receiveSignedUpload,
  receiveStreamUpload,
  STILL_ANALYZING_DETAIL,
  TOO_LARGE_DETAIL,
} from "../domain/pcap.ts";
import { attachment } from "../lib/attachment.ts";
import { caller, type Ctx } from "../lib/context.ts";
import { ErrorSchema } from "../lib/errors.ts";
import { defineCall } from "../lib/openapi.ts";
import { renderPcapInsightsPdf } from "../reports/pcap-insights.ts";
import { parsePcapDecodeAs, PCAP_MAX_PAGE_SIZE, PCAP_MAX_QUERY, PCAP_MAX_VNI, PCAP_SESSION_SORTABLE, type PcapDecodeAs, type PcapSessionSort } from "../contract/pcap.ts";
import { PcapAnalysis, PcapAnalysisProgress, PcapFlowReport, PcapUploaded, PcapUploadUrl } from "../contract/pcap.shapes.ts";
import { PCAP_ANALYSIS_STOPPED } from "../contract/pcap.ts";

// The PCAP analyzer (spec 1 §2 'PCAP Analyzer dialog', §4 'PCAP flow', §7 'PCAP', §8 'Upload').
// A free tool: every signed-in caller may use it, readonly IAM users included (it changes nothing
// of the account's configuration). Keys belong to the caller's account; another account's key
// answers 404.

// ---------------------------------------------------------------------------------------------
// Fields

const controlChars = /[\u0000-\u001F\u007F]/;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const required = (what: string) =>
  z.string({ error: (iss) => (iss.input === undefined ? "Field required" : `${what} must be a string`) });

/** A file name: 1–255 characters, no path separators, no control characters, not `.` or `..`. */
const fileNameField = () =>
  required("pcap_file_name")
    .min(1, "pcap_file_name is required")
    .max(255, "Must be at most 255 characters")
    .refine((s) => !/[/\\]/.test(s), "Must be a file name, without / or \\")
    .refine((s) => !controlChars.test(s) && !loneSurrogate.test(s), "Must not contain control characters")
    .refine((s) => s !== "." && s !== "..", "Must be a file name")
    // The same rules for the document (issue 63 item 25); lone surrogates: see the document's description.
    .openapi({ example: "capture.pcapng", pattern: "^(?!\\.\\.?$)[^/\\\\\\u0000-\\u001F\\u007F]+$" });

const keyField = () =>
  required("pcap_file_key")
    .min(1, "pcap_file_key is required")
    .max(200, "Must be at most 200 characters")
    .openapi({ example: "acct-k3j9x0q1z7m2_pcap-0a1b2c3d4e5f6g7h" });

const sessionIdField = () =>
  z
    .union([z.string().min(1).max(50), z.number().int().nonnegative()], {
      error: (iss) => (iss.input === undefined ? "Field required" : "session_id must be a session id"),
    })
    .transform(String)
    .openapi({ type: "string", example: "3" });

// ---------------------------------------------------------------------------------------------
// Schemas

const UploadUrlQuery = z.object({ pcap_file_name: fileNameField() });

const SignedQuery = z.object({
  expires: z.string().optional().openapi({ description: "unix seconds" }),
  max: z.string().optional().openapi({ description: "largest accepted body, bytes" }),
  sig: z.string().optional().openapi({ description: "HMAC-SHA256 signature, base64url" }),
});

const AnalyzeQuery = z.object({
  pcap_file_key: keyField(),
  pcap_file_name: fileNameField(),
  q: z.string().max(PCAP_MAX_QUERY, `Must be at most ${PCAP_MAX_QUERY} characters`).optional().openapi({ description: "sessions whose app, server name, endpoints, protocol, performance or start time contain every word" }),
  sort: z
    .string()
    .regex(new RegExp(`^-?(${PCAP_SESSION_SORTABLE.join("|")})$`), `One of ${PCAP_SESSION_SORTABLE.join(", ")}, optionally with a leading '-' (descending)`)
    .optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().openapi({ description: "1-based; past the last page answers the last page" }),
  size: z.coerce.number().int().min(1).max(PCAP_MAX_PAGE_SIZE).optional().openapi({ description: `sessions per page, at most ${PCAP_MAX_PAGE_SIZE}; without it every matching session` }),
  vni: z.coerce
    .number()
    .int()
    .min(0)
    .max(PCAP_MAX_VNI)
    .optional()
    .openapi({ description: "mirrored traffic: only the sessions seen through a mirror session of this VNI (0–16777215)" }),
  decode_as: z
    .string()
    .max(200)
    .transform((text, ctx) => {
      const rules: PcapDecodeAs[] = [];
      for (const word of text.split(/\s+/).filter(Boolean)) {
        const rule = parsePcapDecodeAs(word);
        if (!rule) {
          ctx.addIssue({ code: "custom", message: "Each rule must be udp.port==N,vxlan or udp.port==N,geneve with N from 1 to 65535" });
          return z.NEVER;
        }
        rules.push(rule);
      }
      return rules;
    })
    .optional()
    .openapi({
      type: "string",
      example: "udp.port==8472,vxlan",
      description:
        "mirrored traffic on non-standard ports, as tshark's `-d`: UDP destination ports that carry VXLAN or GENEVE besides 4789 and 6081 (rules separated by spaces). Read when this call queues the analysis (its first call); the answer's `decode_as` says what the analysis used",
    }),
});

const FlowAnalysisBody = z
  .object({ pcap_file_key: keyField(), session_id: sessionIdField() })
  .openapi("PerformFlowAnalysis", {
    description: "The session object of analyze-s3-pcap (only its session_id is read) plus the capture's key.",
  });

const ReportPdfQuery = z.object({ pcap_file_key: keyField(), session_id: sessionIdField() });

// ---------------------------------------------------------------------------------------------
// Calls

const tags = ["PCAP"];
const tooLarge413 = {
  413: { description: `Over ${MAX_PCAP_BYTES} bytes: '${TOO_LARGE_DETAIL}'`, content: { "application/json": { schema: ErrorSchema } } },
};

export const getUploadUrlRoute = defineCall({
  method: "get",
  path: "/get-s3-upload-url",
  tags,
  summary: "A key and a URL to PUT a capture to",
  description:
    "Then PUT the file (raw body) to `s3_url` within 15 minutes, and call analyze-s3-pcap with the key. The embedded store's URL is single-use and refuses bodies over 10737418240 bytes with 413.",
  only: "writer",
  query: UploadUrlQuery,
  response: PcapUploadUrl,
});

export const signedUploadRoute = defineCall({
  method: "put",
  path: "/upload-pcap/{key}",
  tags,
  summary: "Upload a capture to a signed URL (embedded store)",
  description:
    "The target of get-s3-upload-url's `s3_url` when no S3 is configured. No bearer token: the signature is the authorization. The body (the capture, any content type) is streamed to the store. 403 for a missing, tampered, expired or already used signature; 413 for a body over the signed limit (Content-Length, or while streaming).",
  public: true,
  params: z.object({ key: z.string().max(200) }),
  query: SignedQuery,
  rawBody: "the capture file",
  response: PcapUploaded,
  errors: [403, 404],
  responses: tooLarge413,
});

export const streamUploadRoute = defineCall({
  method: "post",
  path: "/upload-pcap-stream",
  tags,
  summary: "Upload a capture through the platform (the console's no-JS path)",
  description:
    "The raw body (application/octet-stream) is streamed into the object store under a new key. Same 10 GB limit as the signed URL (413). Then call analyze-s3-pcap with the key.",
  only: "writer",
  query: UploadUrlQuery,
  rawBody: "the capture file",
  response: PcapUploaded,
  responses: tooLarge413,
});

/** How soon a client asks again while the analysis is queued or running (202's Retry-After, seconds). */
const RETRY_AFTER_SECONDS = 1;

export const analyzeRoute = defineCall({
  method: "get",
  path: "/analyze-s3-pcap",
  tags,
  summary: "Analyse an uploaded capture: its sessions",
  description:
    `The first call queues the capture's analysis (a job on the platform's queue, taken by any instance, one capture once) and answers 202 with its state (\`queued\`, then \`analyzing\`) and a Retry-After; ask again until it answers 200 with the sessions (\`state: done\`), read from the stored result from then on. 404 'PCAP file not found.' for a key of another account or an unknown key, 404 'The PCAP file has not been uploaded.' before the upload; 422 with the parser's message (what and where) for a file that is not a readable pcap/pcapng capture, or '${PCAP_ANALYSIS_STOPPED.timedOut}' / '${PCAP_ANALYSIS_STOPPED.gaveUp}'.`,
  query: AnalyzeQuery,
  response: PcapAnalysis,
  errors: [404],
  responses: {
    202: { description: "Queued or running: ask again after Retry-After seconds", content: { "application/json": { schema: PcapAnalysisProgress } } },
    ...tooLarge413,
  },
});

export const flowAnalysisRoute = defineCall({
  method: "post",
  path: "/perform-flow-analysis",
  tags,
  summary: "The flow analysis report of one session",
  description: `Send the session (its session_id is read) and the capture's key. 404 '${NO_TEST_DATA_DETAIL}' for an unknown session; 409 '${STILL_ANALYZING_DETAIL}' before the capture's analysis is done (it is queued then).`,
  body: FlowAnalysisBody,
  reads: true,
  response: PcapFlowReport,
  errors: [404, 409],
});

export const reportPdfRoute = defineCall({
  method: "get",
  media: "application/pdf",
  path: "/pcap-report-pdf",
  tags,
  summary: "The performance insights report of one session, as a PDF",
  description:
    "A4: Summary, General Info, Network Data, Flow Quality Assessment, then the cross-client and cross-site similarity placeholders. Sent as an attachment named '{product}-performance-insights-report.pdf'. 409 while the capture's analysis is not done.",
  query: ReportPdfQuery,
  errors: [404, 409],
  responseDescription: "The PDF",
});

function contentLength(c: Ctx): number | null {
  const v = c.req.header("content-length");
  return v && /^\d{1,20}$/.test(v) ? Number(v) : null;
}

/** Only the console's own origin may PUT cross-origin (normally the PUT is same-origin). */
function corsHeaders(c: Ctx): Record<string, string> {
  const origin = c.req.header("origin");
  if (!origin) return {};
  let consoleOrigin: string | null = null;
  try {
    consoleOrigin = new URL(c.get("deps").config.consoleUrl).origin;
  } catch {}
  if (origin !== consoleOrigin) return {};
  return { "access-control-allow-origin": origin, vary: "Origin" };
}

export function registerPcapCalls(app: PlatformApp) {
  app.openapi(getUploadUrlRoute, async (c) => {
    const who = caller(c);
    const { pcap_file_name } = c.req.valid("query");
    return c.json(await createUploadUrl(c.get("deps"), who, pcap_file_name), 200);
  });

  app.options("/upload-pcap/:key", (c) => {
    const cors = corsHeaders(c);
    if (!cors["access-control-allow-origin"]) return c.body(null, 204);
    return c.body(null, 204, {
      ...cors,
      "access-control-allow-methods": "PUT, OPTIONS",
      "access-control-allow-headers": "content-type",
      "access-control-max-age": "600",
    });
  });

  app.openapi(signedUploadRoute, async (c) => {
    const { key } = c.req.valid("param");
    const query = c.req.valid("query");
    for (const [k, v] of Object.entries(corsHeaders(c))) c.header(k, v);
    const done = await receiveSignedUpload(c.get("deps"), key, query, c.req.raw.body, contentLength(c));
    return c.json(done, 200);
  });

  app.openapi(streamUploadRoute, async (c) => {
    const who = caller(c);
    const { pcap_file_name } = c.req.valid("query");
    return c.json(await receiveStreamUpload(c.get("deps"), who, pcap_file_name, c.req.raw.body, contentLength(c)), 200);
  });

  app.openapi(analyzeRoute, async (c) => {
    const who = caller(c);
    const q = c.req.valid("query");
    const sort = q.sort ? { id: q.sort.replace(/^-/, "") as PcapSessionSort, desc: q.sort.startsWith("-") } : null;
    const answer = await analyzePcap(c.get("deps"), who, q.pcap_file_key, q.pcap_file_name, { q: q.q, sort, page: q.page, size: q.size, vni: q.vni }, q.decode_as ?? []);
    if (answer.state === "done") return c.json(answer, 200);
    c.header("Retry-After", String(RETRY_AFTER_SECONDS));
    return c.json(answer, 202);
  });

  app.openapi(flowAnalysisRoute, async (c) => {
    const who = caller(c);
    const body = c.req.valid("json");
    const { report } = await flowAnalysis(c.get("deps"), who, body.pcap_file_key, body.session_id);
    return c.json({ pcap_file_key: body.pcap_file_key, session_id: body.session_id, ...report }, 200);
  });

  app.openapi(reportPdfRoute, async (c) => {
    const who = caller(c);
    const q = c.req.valid("query");
    const deps = c.get("deps");
    const found = await flowAnalysis(deps, who, q.pcap_file_key, q.session_id);
    const pdf = await renderPcapInsightsPdf({
      productName: deps.config.productName,
      fileName: found.pcap_file_name,
      session: found.session,
      report: found.report,
      generatedAt: new Date(),
    });
    return attachment(c, pdf, `${deps.config.productName}-performance-insights-report.pdf`);
  });
}
