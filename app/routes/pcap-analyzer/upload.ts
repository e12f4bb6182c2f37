import { redirect } from "react-router";
import { safeFrom } from "../../lib/pcap.ts";
import { receiveMultipartUpload, sessionEnded } from "../../lib/pcap.server.ts";
import { requirePost } from "../../lib/csrf.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { requireWriter } from "../../lib/roles.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import type { Route } from "./+types/upload";
import { DECODE_AS_ENCAPSULATION, DECODE_AS_PORT, decodeAsFromFields } from "./mirror.tsx";

/*
 * POST /pcap-analyzer/upload: the PCAP Analyzer's upload without JavaScript (spec 1 §4 'PCAP
 * flow'; DESIGN.md 'Uploads'). The multipart form sends the CSRF token first, then the file; the
 * file part is streamed with busboy straight into the platform's POST upload-pcap-stream (never
 * buffered), then 303 to the capture's page (`analyzing=1`), whose loader asks for its analysis (a
 * job on the platform's queue) and says it is being analyzed, with a Refresh link, until it shows
 * the sessions with 'Successfully analyzed.' (or, for a file that is not a capture, the sentence
 * beside the file field). Failures of the upload go back to the form with an error toast (413:
 * 'Error: Chosen file is too large to upload.'). The optional decode-as fields (sent before the
 * file) are checked before the file is stored, and go to the capture's page as `decode_as`, which
 * its first analyse request sends to the platform (mirror.tsx).
 */

/** `?from=` of the form's action: where the analyzer's Close link goes. */
function pagePath(params: Record<string, string | null>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `/pcap-analyzer?${s}` : "/pcap-analyzer";
}

export async function loader() {
  return redirect("/pcap-analyzer");
}

export async function action({ request }: Route.ActionArgs) {
  requirePost(request);
  const user = await requireSession(request);
  await requireWriter(request);
  const rawFrom = new URL(request.url).searchParams.get("from");
  const from = rawFrom ? safeFrom(rawFrom) : null;
  const back = pagePath({ from });

  // The decode-as fields (before the file in the form) are checked before the file is stored.
  const decodeAsOf = (fields: FormData) => decodeAsFromFields(fields.get(DECODE_AS_PORT), fields.get(DECODE_AS_ENCAPSULATION));
  const result = await receiveMultipartUpload(request, user.access_token, (fields) => {
    const d = decodeAsOf(fields);
    return d.ok ? null : d.message;
  });
  if (!result.ok) {
    if (result.reason === "session") return sessionEnded(request, back);
    // Not a multipart form at all (JSON, text, no boundary): no browser's form sends that, so a
    // plain 400 page rather than a toast on the form (docs/decisions/2026-11-23-hardening.md).
    if (result.reason === "bad-request") throw new Response(result.message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    return redirectWithToast(request, back, { type: "error", message: result.message, persistent: true });
  }

  const { pcap_file_key: key, pcap_file_name: name } = result.upload;
  const decodeAs = decodeAsOf(result.fields);
  return redirect(pagePath({ key, name, from, analyzing: "1", decode_as: decodeAs.ok ? decodeAs.rule : null }), 303);
}
