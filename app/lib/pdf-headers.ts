/* A served PDF's headers (no server-only imports: route modules re-export it). */

/**
 * The PDF's headers. Inline (a dialog's preview, an <object> of the page: issue 27 item 11) it may
 * be embedded by its own origin only (frame-ancestors 'self', X-Frame-Options SAMEORIGIN); the
 * page's CSP allows exactly these paths as objects (app/lib/csp.server.ts). It runs nothing.
 */
export function reportPdfHeaders(download: boolean, fileName: string): Headers {
  const asciiName = fileName.replace(/[^\x20-\x7E]|["\\]/g, "_");
  return new Headers({
    "Content-Type": "application/pdf",
    "Content-Disposition": `${download ? "attachment" : "inline"}; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": download ? "DENY" : "SAMEORIGIN",
    "Content-Security-Policy": `default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${download ? "'none'" : "'self'"}`,
  });
}
