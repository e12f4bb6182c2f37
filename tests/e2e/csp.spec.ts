import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { Page } from "@playwright/test";
import routes from "../../app/routes.ts";
import { expect, test } from "./fixtures.ts";

// The console's Content-Security-Policy is one its pages satisfy (issue 10 item 9;
// docs/decisions/2026-11-23-hardening.md): every page, with JavaScript on, raises no
// `securitypolicyviolation` and logs no CSP error, and still hydrates (client navigation works).
test.beforeEach(({}, testInfo) => test.skip(testInfo.project.name !== "js", "the policy matters where scripts run"));

/** The shell's pages, read from app/routes.ts so that a page added later is visited too. */
function shellPaths(): string[] {
  const out: string[] = [];
  const walk = (entries: RouteConfigEntry[], inShell: boolean) => {
    for (const e of entries) {
      const shell = inShell || e.file.endsWith("_shell.tsx");
      if (shell && e.path && !e.path.includes("*") && !e.path.includes(":")) out.push(`/${e.path.replace(/^\//, "")}`);
      if (e.children) walk(e.children, shell);
    }
  };
  walk(routes as RouteConfigEntry[], false);
  return out;
}

/** Records CSP violations (DOM events and console messages) on a page from its first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const seen: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(msg.text())) seen.push(`console: ${msg.text()}`);
    // A nonce rendered differently by the server and the browser breaks hydration's attributes.
    if (msg.type() === "error" && /hydrat/i.test(msg.text())) seen.push(`hydration: ${msg.text().slice(0, 300)}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      w.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  return async () => {
    const inPage = await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []).catch(() => []);
    return [...seen, ...inPage];
  };
}

async function visit(page: Page, path: string, violations: () => Promise<string[]>) {
  const response = await page.goto(path);
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
  expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  for (const directive of ["frame-ancestors 'none'", "base-uri 'self'", "form-action 'self'"]) expect(csp, path).toContain(directive);
  // Objects only: the flow report's PDF of this origin, the PCAP analyzer's and the dashboard's (issue 27 item 11).
  expect(csp, path).toMatch(/(^|; )object-src https?:\/\/[^ ;]+\/pcap-analyzer\/report\.pdf https?:\/\/[^ ;]+\/main-dashboard\/flow-report\.pdf(;|$)/);
  // Every inline script of the page carries the nonce of this response.
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  const inline = await page.evaluate(() => [...document.scripts].filter((s) => !s.src).map((s) => s.nonce));
  expect(inline.length, path).toBeGreaterThan(0);
  expect(inline.every((n) => n === nonce), path).toBe(true);
  // Hydrated: React Router's client is running.
  await page.waitForFunction(() => "__reactRouterRouteModules" in window || "__reactRouterContext" in window);
  await page.waitForLoadState("networkidle");
  expect(await violations(), path).toEqual([]);
}

test("the public pages satisfy the policy", async ({ page }) => {
  const violations = await watchViolations(page);
  for (const path of ["/login", "/register", "/forgot-password", "/forgot-password?sent=1", "/reset-password-template?access_token=x", "/new-iam-user-setup-template?iam_user_token=x", "/idp-login"]) {
    await visit(page, path, violations);
  }
  // A client-side navigation (JS on): the login page's link to the registration.
  await page.goto("/login");
  await page.getByRole("link", { name: /sign up|register|create/i }).first().click();
  await expect(page).toHaveURL(/\/register/);
  expect(await violations()).toEqual([]);
});

test.describe(() => {
  // Does not depend on what the account holds: the worker's signed-in account will do.
  test.use({ signedIn: true });

  test("every shell page, a dialog and the 404 page satisfy the policy", async ({ page }) => {
    test.setTimeout(120_000);
    const violations = await watchViolations(page);
    const paths = shellPaths();
    expect(paths).toEqual(expect.arrayContaining(["/contacts", "/entities", "/account", "/profile", "/pcap-analyzer", "/main-dashboard", "/billing"]));
    for (const path of paths) await visit(page, path, violations);
    await visit(page, "/contacts?dialog=create", violations);
    await expect(page.getByRole("dialog")).toBeVisible();
    await visit(page, "/no-such-page", violations);
    // Client-side navigation through the side menu, then a form submitted with JS.
    await page.goto("/main-dashboard");
    await page.getByRole("link", { name: "Contacts" }).first().click();
    await expect(page).toHaveURL(/\/contacts/);
    expect(await violations()).toEqual([]);
  });
});

test("answers that are not pages carry a policy that allows nothing, and the security headers", async ({ request }) => {
  for (const path of ["/api/v1/docs", "/api/v1/openapi.json", "/healthz"]) {
    const res = await request.get(path);
    const headers = res.headers();
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["referrer-policy"], path).toBeTruthy();
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"], path).not.toContain("script-src");
  }
});

test("the page's scripts start after its first paint: no modulepreload in the HTML, React Router's own after it", async ({ page, request }) => {
  // Issue 60 (app/scripts-after-paint.tsx): if a new React Router writes <Scripts> otherwise, the
  // rewrite falls back to its output unchanged — this notices.
  const html = await (await request.get("/login")).text();
  expect(html).not.toMatch(/<link[^>]*rel="modulepreload"/);
  expect(html).toContain('type="text/x-after-paint"');
  await page.goto("/login");
  await expect.poll(() => page.evaluate(() => document.querySelectorAll('link[rel="modulepreload"]').length)).toBeGreaterThan(0);
  await expect(page.locator('script[type="module"]')).not.toHaveCount(0);
});
