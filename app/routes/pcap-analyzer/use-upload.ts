import { useEffect, useRef, useState } from "react";
import { useNavigation, useSubmit } from "react-router";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { checkPcapFile, cleanFileName, messages, percentOf, progressStep, uploadDetails, uploadErrorMessage } from "../../lib/pcap.ts";

/*
 * The JavaScript upload of a capture (spec 1 §4 'PCAP flow'): check the file (over 10 GB: refused,
 * no request), ask the console for an upload URL, PUT the file there with XMLHttpRequest (progress,
 * announced every step; Cancel), then submit the analysis to the page's action ('Analyzing…'),
 * which opens the capture's page: its analysis' progress, then its sessions.
 */

export type Phase = "idle" | "preparing" | "uploading" | "uploaded" | "error";

export interface UploadState {
  phase: Phase;
  percent: number;
  fileName: string | null;
  key: string | null;
  error: string | null;
}

export const initial: UploadState = { phase: "idle", percent: 0, fileName: null, key: null, error: null };

/** `fromQuery`: `?from=…` of the page the analyzer was opened from (kept through the analysis). */
export function usePcapUpload(fromQuery: string) {
  const token = useAuthenticityToken();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [state, setState] = useState<UploadState>(initial);
  const [announcement, setAnnouncement] = useState("");
  const xhr = useRef<XMLHttpRequest | null>(null);
  const request = useRef<AbortController | null>(null);
  const lastStep = useRef(-1);

  useEffect(
    () => () => {
      xhr.current?.abort();
      request.current?.abort();
    },
    [],
  );

  const analyzing = navigation.state !== "idle" && navigation.formData?.get("intent") === "analyze";
  const busy = state.phase === "preparing" || state.phase === "uploading" || analyzing;

  function announce(percent: number) {
    const step = progressStep(percent);
    if (step === lastStep.current) return;
    lastStep.current = step;
    setAnnouncement(`Upload ${step}% complete`);
  }

  function fail(message: string | null) {
    xhr.current = null;
    request.current = null;
    if (message === null) {
      // A cancellation is silent (spec 1 §8).
      setState(initial);
      setAnnouncement("");
      return;
    }
    setState((s) => ({ ...s, phase: "error", error: message }));
  }

  /** `decodeAs`: the form's decode-as rule ("udp.port==8472,vxlan", already checked), sent with the analysis. */
  async function start(file: File, decodeAs: string | null = null) {
    if (busy) return;
    const refused = checkPcapFile(file);
    if (refused) {
      setState({ ...initial, phase: "error", fileName: file.name, error: refused.message });
      return;
    }
    lastStep.current = -1;
    setAnnouncement("");
    const name = cleanFileName(file.name);
    setState({ phase: "preparing", percent: 0, fileName: name, key: null, error: null });

    // 1. An upload URL, asked by the console with the session's token.
    const controller = new AbortController();
    request.current = controller;
    let details: ReturnType<typeof uploadDetails>;
    try {
      const res = await fetch("/pcap-analyzer/upload-url", {
        method: "POST",
        body: new URLSearchParams({ csrf: token, pcap_file_name: name }),
        headers: { accept: "application/json" },
        signal: controller.signal,
      });
      if (res.redirected && new URL(res.url).pathname.startsWith("/login")) {
        window.location.assign(res.url);
        return;
      }
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      if (!res.ok) return fail(uploadErrorMessage({ status: res.status, body, statusText: res.statusText }));
      details = uploadDetails(body);
    } catch {
      return fail(controller.signal.aborted ? null : messages.unknown);
    }
    request.current = null;
    if (!details) return fail(messages.noUploadDetails);

    // 2. The file, PUT to that URL with progress.
    const upload = new XMLHttpRequest();
    xhr.current = upload;
    const { pcap_file_key: key, pcap_file_name: storedName } = details;
    setState((s) => ({ ...s, phase: "uploading", key }));
    announce(0);
    upload.upload.onprogress = (event) => {
      if (!event.lengthComputable) return;
      const percent = percentOf(event.loaded, event.total);
      setState((s) => (s.phase === "uploading" ? { ...s, percent } : s));
      announce(percent);
    };
    upload.onload = () => {
      xhr.current = null;
      if (upload.status >= 200 && upload.status < 300) {
        setState((s) => ({ ...s, phase: "uploaded", percent: 100 }));
        announce(100);
        // 3. The analysis: the page's action opens the capture's page, which asks for it and shows its progress.
        submit(
          { csrf: token, intent: "analyze", key, name: storedName, ...(decodeAs ? { decode_as: decodeAs } : {}) },
          { method: "post", action: `/pcap-analyzer${fromQuery}` },
        );
        return;
      }
      fail(uploadErrorMessage({ status: upload.status, body: upload.responseText, statusText: upload.statusText }));
    };
    upload.onerror = () => fail(messages.unknown);
    upload.onabort = () => fail(null);
    upload.open("PUT", details.s3_url);
    upload.send(file);
  }

  function cancel() {
    request.current?.abort();
    xhr.current?.abort();
  }

  return { state, setState, announcement, analyzing, busy, start, cancel };

}
