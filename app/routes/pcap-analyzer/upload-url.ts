import { data } from "react-router";
import { apiGet } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { cleanFileName } from "../../lib/pcap.ts";
import { requireWriter } from "../../lib/roles.server.ts";
import type { Route } from "./+types/upload-url";

/*
 * POST /pcap-analyzer/upload-url {csrf, pcap_file_name}: the JS upload's first step (spec 1 §7
 * 'PCAP': GET get-s3-upload-url). The browser has no bearer token, so the console asks the
 * platform with the session's and hands back only what the PUT needs: {s3_url, pcap_file_key,
 * pcap_file_name}, or the platform's status and detail (mapped by the browser, spec 1 §8).
 */

export async function loader() {
  return data({ detail: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request }: Route.ActionArgs) {
  await requireWriter(request);
  const form = await readForm(request);
  const name = form.get("pcap_file_name");
  if (typeof name !== "string" || !name.trim()) {
    return data({ detail: "pcap_file_name is required" }, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  const res = await apiGet(request, "get-s3-upload-url", {
    pcap_file_name: cleanFileName(name),
  });
  if (!res.ok) return data({ detail: res.detail }, { status: res.status, headers: { "Cache-Control": "no-store" } });
  const { s3_url, pcap_file_key, pcap_file_name } = res.data ?? {};
  return data({ s3_url, pcap_file_key, pcap_file_name }, { headers: { "Cache-Control": "no-store" } });
}
