import zlib from "node:zlib";

/** The encoding to answer with: br, else gzip, when the client accepts it (q=0 refuses). */
export function pickEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  return ok("br") ? "br" : ok("gzip") ? "gzip" : null;
}

/**
 * A fixed text answer (the OpenAPI document): built on first use, then compressed at most once
 * per encoding (brotli at its best, it is paid once), and sent as the client accepts it.
 */
export function compressedOnce(build: () => string) {
  let plain: Buffer | undefined;
  const encoded: Partial<Record<"br" | "gzip", Buffer>> = {};
  return (acceptEncoding: string | undefined, contentType: string): Response => {
    plain ??= Buffer.from(build());
    const encoding = pickEncoding(acceptEncoding);
    const headers: Record<string, string> = { "content-type": contentType, vary: "Accept-Encoding" };
    let body = plain;
    if (encoding) {
      body = encoded[encoding] ??=
        encoding === "br"
          ? zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length } })
          : zlib.gzipSync(plain, { level: 9 });
      headers["content-encoding"] = encoding;
    }
    headers["content-length"] = String(body.length);
    return new Response(new Uint8Array(body), { status: 200, headers });
  };
}
