import { useEffect, useRef, useState, type DragEvent, type FormEvent } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { FILE_HINT, messages } from "../../lib/pcap.ts";
import { useHydrated } from "../../components/hooks.ts";
import { initial, usePcapUpload } from "./use-upload.ts";
import { DECODE_AS_ENCAPSULATION, DECODE_AS_PORT, DecodeAsFields, decodeAsFromFields } from "./mirror.tsx";

/*
 * Choose one capture and send it (spec 1 §2 'PCAP Analyzer dialog', §4 'PCAP flow', §5, §8).
 *
 * Without JavaScript: a multipart form (the CSRF field first, then the file) posted to
 * /pcap-analyzer/upload, which streams the file to the platform and opens the capture's page.
 * With JavaScript: a file picked or dropped is checked (over 10 GB: refused, no request), then
 * the console asks for an upload URL, the file is PUT there with XMLHttpRequest (a progress bar,
 * Cancel), and the analysis is asked for as a form submission to the page's action ('Analyzing…').
 * Either way the page then shows the analysis' progress (analysis-progress.tsx) until the sessions.
 * The optional decode-as fields (mirrored traffic on a non-standard UDP port) come before the file:
 * with JS, choosing the file starts the upload, so they are read (and checked) then.
 */

export function UploadForm({
  from,
  currentKey,
  serverError,
}: {
  /** The page the analyzer was opened from (kept through the upload). */
  from: string | null;
  /** The key of the capture shown below (the completed upload stays visible for it). */
  currentKey: string | null;
  /** Why the analysis failed: the page action's answer (JS) or the no-JS upload's `?upload_error=`. */
  serverError: string | null;
}) {
  const hydrated = useHydrated();
  const fromQuery = from ? `?from=${encodeURIComponent(from)}` : "";
  const upload = usePcapUpload(fromQuery);
  const { state, setState, announcement, analyzing, busy, start } = upload;
  const [dragging, setDragging] = useState(false);
  const [decodeAsError, setDecodeAsError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const refocus = useRef(false);

  function cancel() {
    refocus.current = true;
    upload.cancel();
  }

  useEffect(() => {
    // After Cancel the button is gone: focus goes back to the (enabled again) file input.
    if (!busy && refocus.current) {
      refocus.current = false;
      input.current?.focus();
    }
  });

  /** The JS upload of `file`, with the form's decode-as rule once it is checked. */
  function begin(file: File) {
    const form = input.current?.form;
    const fields = form ? new FormData(form) : null;
    const decodeAs = decodeAsFromFields(fields?.get(DECODE_AS_PORT), fields?.get(DECODE_AS_ENCAPSULATION));
    if (!decodeAs.ok) {
      setDecodeAsError(decodeAs.message);
      form?.querySelector<HTMLInputElement>(`[name="${DECODE_AS_PORT}"]`)?.focus();
      return;
    }
    setDecodeAsError(null);
    void start(file, decodeAs.rule);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Before hydration the form posts itself (the no-JS path); after, the upload runs here.
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (file) begin(file);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (busy) return;
    const files = event.dataTransfer?.files;
    if (!files || files.length === 0) return;
    if (files.length > 1) {
      setState({ ...initial, phase: "error", error: messages.oneFile });
      return;
    }
    if (input.current) {
      try {
        input.current.files = files;
      } catch {}
    }
    begin(files[0]!);
  }

  function onDragOver(event: DragEvent<HTMLDivElement>) {
    if (!event.dataTransfer?.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = busy ? "none" : "copy";
    if (!dragging) setDragging(true);
  }

  // serverError: the analysis refused the file, after the JS upload (phase "uploaded") or, without
  // JavaScript, from the page URL (phase "idle"): beside the field in both cases.
  const error = state.phase === "error" ? state.error : (state.phase === "uploaded" && !analyzing) || state.phase === "idle" ? serverError : null;
  const showProgress =
    state.phase === "preparing" || state.phase === "uploading" || (state.phase === "uploaded" && (analyzing || state.key === currentKey || !!serverError));
  const describedBy = ["pcap-file-hint", error ? "pcap-file-error" : null].filter(Boolean).join(" ");

  return (
    <form
      method="post"
      encType="multipart/form-data"
      action={`/pcap-analyzer/upload${fromQuery}`}
      onSubmit={hydrated ? onSubmit : undefined}
      aria-labelledby="pcap-upload-title"
      className="flex flex-col gap-3"
    >
      {/* First: the upload route checks it before it reads the file. */}
      <AuthenticityTokenInput name="csrf" />
      <h2 id="pcap-upload-title" className="text-base font-semibold">
        Upload a capture
      </h2>
      <DecodeAsFields error={decodeAsError} disabled={busy} />
      <div
        className={`rounded-box flex flex-col gap-2 border-2 border-dashed p-4 transition-colors sm:p-5 ${
          dragging ? "border-primary bg-primary/5" : "border-base-300 bg-base-200/40"
        }`}
        onDragEnter={onDragOver}
        onDragOver={onDragOver}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        data-testid="pcap-drop-zone"
      >
        <label htmlFor="pcap-file" className="font-semibold">
          PCAP file
        </label>
        {/* Painted from the server's HTML (the page's largest text: its LCP, issue 60), true with
            and without JavaScript: the field below picks the file in both. Dropping works only
            once hydrated, so the sentence inviting it is there from the start but invisible until
            then (it keeps its place: nothing moves at hydration, CLS 0) and takes none without
            JavaScript (`js-only`, app/root.tsx). aria-hidden: the label and the field say it. */}
        <p className="text-base-content/80 text-sm" aria-hidden="true">
          Choose one capture below.
          <span className={hydrated ? undefined : "invisible js-only"}> Or drag and drop it here.</span>
        </p>
        <input
          ref={input}
          id="pcap-file"
          type="file"
          name="file"
          required
          className={`file-input w-full max-w-xl ${error ? "file-input-error" : ""}`}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          disabled={busy}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file && hydrated) begin(file);
          }}
        />
        <p id="pcap-file-hint" className="text-base-content/80 text-sm">
          {FILE_HINT}
        </p>
      </div>

      {error ? (
        <div id="pcap-file-error" role="alert" className="alert alert-error alert-soft border-error text-base-content border">
          <span>{error}</span>
        </div>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? <span className="loading loading-spinner loading-sm" aria-hidden="true" /> : null}
          Upload and analyze
        </button>
        <p role="status" className="flex items-center gap-2 font-medium" data-testid="pcap-status">
          {analyzing ? (
            <>
              <span className="loading loading-dots loading-sm" aria-hidden="true" />
              Analyzing…
            </>
          ) : null}
        </p>
      </div>

      {showProgress ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="pcap-progress">
          <label htmlFor="pcap-progress" className="text-sm font-medium">
            Upload progress
            {state.fileName ? <span className="text-base-content/80 font-normal"> ({state.fileName})</span> : null}
          </label>
          <div className="flex min-w-48 flex-1 items-center gap-3">
            <progress
              id="pcap-progress"
              className="progress progress-primary h-3 flex-1"
              value={state.phase === "preparing" ? 0 : state.percent}
              max={100}
            />
            <span className="w-12 text-right text-sm tabular-nums">{state.phase === "preparing" ? 0 : state.percent}%</span>
          </div>
          {state.phase === "preparing" || state.phase === "uploading" ? (
            <button type="button" className="btn btn-sm" onClick={cancel}>
              Cancel
            </button>
          ) : null}
        </div>
      ) : null}
      {hydrated ? (
        <p className="sr-only" aria-live="polite" aria-atomic="true">
          {announcement}
        </p>
      ) : null}
    </form>
  );
}
