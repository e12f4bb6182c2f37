import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, STRIPE_PAGES } from "./csp.server.ts";

describe("the billing page's policy allows Stripe, and only it", () => {
  const env = { STRIPE_JS_URL: "http://127.0.0.1:4555/stripe.js", STRIPE_API_URL: "http://127.0.0.1:4555" } as NodeJS.ProcessEnv;

  it("other pages: no Stripe origin anywhere", () => {
    const csp = contentSecurityPolicy("n0nce", { dev: false, env });
    expect(csp).not.toMatch(/stripe|4555/);
    expect(csp).toContain("form-action 'self';");
  });

  it("/billing: Stripe.js and its frames, its API, Checkout as a form target; the tests' stand-in too", () => {
    expect(STRIPE_PAGES.has("/billing")).toBe(true);
    const csp = contentSecurityPolicy("n0nce", { dev: false, env, stripe: true });
    const directive = (name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";
    expect(directive("script-src")).toBe("script-src 'self' 'nonce-n0nce' https://js.stripe.com http://127.0.0.1:4555");
    expect(directive("frame-src")).toContain("https://js.stripe.com");
    expect(directive("connect-src")).toContain("https://api.stripe.com");
    expect(directive("form-action")).toBe("form-action 'self' https://checkout.stripe.com http://127.0.0.1:4555");
    expect(directive("script-src")).not.toContain("unsafe-inline");
  });
});
