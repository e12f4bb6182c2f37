import { randomBytes } from "node:crypto";
import { isProduction } from "./env.server.ts";

/*
 * The console's Content-Security-Policy (docs/decisions/2026-11-23-hardening.md). Every page gets
 * a fresh nonce (app/entry.server.tsx): React Router's inline scripts (the hydration context, the
 * module loader, scroll restoration) carry it through <ServerRouter nonce>; no other inline script
 * may run. Styles: the stylesheet and React's `style` attributes (the data table's cells), so
 * 'unsafe-inline' for style-src only.
 */

/** A new nonce for one response: 128 random bits. */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/** Origins the browser PUTs PCAP files to when they go to S3 (presigned URLs), besides 'self'. */
function uploadOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  const out: string[] = [];
  const endpoint = env.S3_ENDPOINT?.trim();
  if (endpoint) {
    try {
      const url = new URL(endpoint);
      out.push(url.origin);
      // Virtual-hosted URLs put the bucket in front of the endpoint's host.
      if (env.S3_FORCE_PATH_STYLE === "false") out.push(`${url.protocol}//*.${url.host}`);
    } catch {
      // Not a URL: the platform refuses it too.
    }
  } else if (env.S3_BUCKET?.trim()) {
    out.push("https://*.amazonaws.com");
  }
  // The embedded store's upload URL is built from CONSOLE_URL (platform/routes/pcap.ts).
  if (env.CONSOLE_URL) {
    try {
      out.push(new URL(env.CONSOLE_URL).origin);
    } catch {}
  }
  return out;
}

/**
 * What the billing page (/billing only) adds for Stripe: Stripe.js and its frames (js.stripe.com,
 * or STRIPE_JS_URL's origin: the tests' double), its API calls, and Stripe Checkout as the target
 * of the card form's redirect without JavaScript (checkout.stripe.com, or STRIPE_API_URL's origin:
 * the tests' stand-in serves Checkout too).
 */
export function stripeSources(env: NodeJS.ProcessEnv = process.env) {
  const originOf = (url: string | undefined) => {
    try {
      return url?.trim() ? [new URL(url).origin] : [];
    } catch {
      return [];
    }
  };
  const js = ["https://js.stripe.com", ...originOf(env.STRIPE_JS_URL)];
  return {
    script: js,
    frame: [...js, "https://hooks.stripe.com"],
    connect: ["https://api.stripe.com", ...originOf(env.STRIPE_JS_URL)],
    formAction: ["https://checkout.stripe.com", ...originOf(env.STRIPE_API_URL)],
  };
}

/** Paths whose page may load Stripe (see stripeSources). */
export const STRIPE_PAGES = new Set(["/billing"]);

/**
 * The policy of one HTML page. `dev`: `react-router dev` (Vite) also needs its HMR websocket.
 * form-action 'self': note that Chrome applies it to the redirect that answers a form POST too,
 * so a form whose action redirects off-site (Stripe Checkout) needs that origin added here.
 */
/** What a page may embed as an object: the flow report's PDF preview, of the page's own origin (issue 27 item 11): the PCAP analyzer's and the dashboard's (Application Performance Insights). */
export const REPORT_PDF_PATH = "/pcap-analyzer/report.pdf";
export const REPORT_PDF_PATHS = [REPORT_PDF_PATH, "/main-dashboard/flow-report.pdf"];

export function contentSecurityPolicy(nonce: string, opts: { dev?: boolean; env?: NodeJS.ProcessEnv; stripe?: boolean; origin?: string } = {}): string {
  const dev = opts.dev ?? !isProduction;
  const connect = ["'self'", ...uploadOrigins(opts.env)];
  if (dev) connect.push("ws:", "wss:");
  const stripe = opts.stripe ? stripeSources(opts.env) : null;
  if (stripe) connect.push(...stripe.connect);
  const list = (xs: string[]) => [...new Set(xs)].join(" ");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${stripe ? ` ${list(stripe.script)}` : ""}`,
    ...(stripe ? [`frame-src ${list(stripe.frame)}`] : []),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(" ")}`,
    // Every page (a client-side navigation keeps the first document's policy): the report PDFs of
    // this origin, by their paths (query strings are not part of a source's match), nothing else.
    opts.origin && /^https?:\/\/[^/\s;,']+$/.test(opts.origin) ? `object-src ${REPORT_PDF_PATHS.map((p) => `${opts.origin}${p}`).join(" ")}` : "object-src 'none'",
    "base-uri 'self'",
    stripe ? `form-action 'self' ${list(stripe.formAction)}` : "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The headers every HTML page of the console carries, with its policy. */
export function setPageSecurityHeaders(headers: Headers, nonce: string, pathname?: string, origin?: string): void {
  headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, { stripe: pathname !== undefined && STRIPE_PAGES.has(pathname), origin }));
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "same-origin");
  headers.set("X-Frame-Options", "DENY");
}
