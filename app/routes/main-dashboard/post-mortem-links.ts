import { DEVICE_PARAM } from "./model.ts";

/** The post-mortem's URLs (published in coord.md): the page (the whole text), its PDF, its stream. */
const base = (outageId: string) => `/main-dashboard/post-mortem/${encodeURIComponent(outageId)}`;
const q = (deviceId: string) => `?${DEVICE_PARAM}=${encodeURIComponent(deviceId)}`;
export const postMortemPageHref = (deviceId: string, outageId: string) => `${base(outageId)}${q(deviceId)}`;
export const postMortemPdfHref = (deviceId: string, outageId: string) => `${base(outageId)}/analysis.pdf${q(deviceId)}`;
export const postMortemStreamHref = (deviceId: string, outageId: string) => `${base(outageId)}/stream${q(deviceId)}`;
export const POST_MORTEM_TITLE = "Post-mortem Analysis";

/** The classes that lay the rendered markdown out (headings, lists, the path table wrapping at 320 px). */
export const MARKDOWN_CLASSES =
  "min-w-0 break-words [&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:text-lg [&_h3]:font-semibold [&_h4]:mt-3 [&_h4]:font-semibold " +
  "[&_p]:my-2 [&_ul]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:pl-6 " +
  "[&_table]:my-2 [&_table]:w-full [&_table]:table-fixed [&_table]:text-sm [&_th]:border [&_th]:border-base-300 [&_th]:bg-base-200 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left " +
  "[&_td]:border [&_td]:border-base-300 [&_td]:px-2 [&_td]:py-1 [&_td]:break-all";
