import { expect, test as base, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { e2eRunId, outboxDir } from "./env.ts";
import { jsDisabled, type Api } from "./helpers.ts";

export * from "./helpers.ts";

export interface Account {
  username: string;
  password: string;
}

let counter = 0;
/** A unique e-mail address for this test. */
export function uniqueEmail(prefix = "user") {
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter++}@e2e.example`;
}

/* ------------------------------------------------------------------------------------------------
 * Accessibility: axe-core with the WCAG 2.2 AA rules, in the dark and the light colour scheme.
 * ---------------------------------------------------------------------------------------------- */

export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The states already found clean in this run, shared by the workers (a file per state, written
 * only after a clean scan, so a failed or retried test scans again). A state is the path, the
 * viewport width and the page's markup structure (see `fingerprint`): the same dialog, table or
 * form seen by another test, in either project, is not scanned again; a different one (an error
 * shown, a menu open, <noscript> content parsed as markup without JavaScript) is.
 */
const passedDir = path.join(process.cwd(), "test-results", ".axe-passed", e2eRunId);

/**
 * The shell's regions (the top bar with its menus, the side navigation): the same markup on most
 * states of a project. Each shell state (its markup structure, the attributes of its ancestors —
 * `inert` behind a no-JS dialog, the theme on <html> — and the viewport width) is scanned with the
 * page around it once; later states whose shell was found clean, on a page kind (path, width)
 * already scanned whole, are scanned with the shell excluded (docs/decisions/2026-12-03-suite-time.md).
 */
const SHELL_REGIONS = [".shell > header", '.shell [data-testid="sidenav"]'];

/**
 * The markup's structure: every element with its attribute names, the values of the attributes
 * that change what axe sees (class, role, type, state), and whether each text is empty. Texts,
 * ids, links and tokens vary between tests and are left out. `whole` is the page's; `shell` the
 * shell regions' (with their ancestors' attributes and which regions there are), or null on a
 * page without a shell.
 */
function fingerprints(shellRegions: string[]) {
  const keep = new Set(["class", "role", "type", "open", "hidden", "disabled", "checked", "readonly", "required", "tabindex", "style", "lang", "dir", "data-theme"]);
  // Free-text ARIA attributes vary with the data ("Actions for Data Center"); axe asks only
  // whether they are there and non-empty. The id references are blanked for the same reason.
  const presence = new Set(["aria-label", "aria-valuetext", "aria-roledescription", "aria-placeholder", "aria-description", "aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "aria-activedescendant"]);
  const attribute = (a: Attr) => (presence.has(a.name) ? `${a.name}=${a.value.trim() ? "x" : ""}` : keep.has(a.name) || a.name.startsWith("aria-") ? `${a.name}=${a.value}` : a.name);
  const element = (el: Element) => `<${el.tagName.toLowerCase()} ${Array.from(el.attributes).map(attribute).sort().join(" ")}`;
  // Siblings of the same structure (table rows, list items, options, toasts) count once: axe
  // finds in the third row what it finds in the second, so a table of 3 rows and one of 30 are
  // one state. Style sheets and preloads (the same everywhere, in varying order) are left out.
  const walk = (node: Node, depth: number): string => {
    const parts = new Set<string>();
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 1) {
        const el = child as Element;
        const tag = el.tagName.toLowerCase();
        if (tag === "script" || tag === "link") continue;
        parts.add(`${depth}${element(el)}\n${walk(el, depth + 1)}`);
      } else if (child.nodeType === 3 && child.textContent?.trim()) {
        parts.add(`${depth}#\n`);
      }
    }
    return [...parts].join("");
  };
  const whole = walk(document.documentElement, 0);
  const regions: string[] = [];
  for (const selector of shellRegions) {
    const el = document.querySelector(selector);
    if (!el) continue;
    const ancestors: string[] = [];
    for (let a = el.parentElement; a; a = a.parentElement) ancestors.push(element(a));
    regions.push(`${selector}\n${ancestors.join("\n")}\n${element(el)}\n${walk(el, 1)}`);
  }
  return { whole, shell: regions.length ? regions.join("\n") : null, regions: shellRegions.filter((s) => document.querySelector(s)) };
}

type Violation = { id: string; impact: string | null; help: string; targets: string[] };

/**
 * The rules whose outcome depends on colours: the only ones run again in the second colour
 * scheme (a theme changes colours, not markup, so the other rules would find the same).
 */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * Runs axe in `page` (injecting it once per document): every rule in light, the colour rules in
 * dark; the violations, each marked with its scheme. `exclude`: selectors of regions left out
 * (axe then also skips its page-level rule, `bypass`).
 */
async function axeBothSchemes(page: Page, exclude: string[] = []): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const found: string[] = [];
  // The themes' colours change with a transition (daisyUI buttons, links): without this, a scan
  // right after the colour scheme flips would read colours half-way between the two themes. A
  // constructed style sheet, which the page's CSP does not govern, stops them while axe runs.
  await page.evaluate(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync("*, *::before, *::after { transition: none !important; animation: none !important; }");
    (window as unknown as { __axeNoMotion?: CSSStyleSheet }).__axeNoMotion = sheet;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  });
  for (const scheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => {
      for (const a of document.getAnimations()) a.finish();
    });
    const runOnly = scheme === "light" ? { type: "tag", values: AXE_TAGS } : { type: "rule", values: COLOUR_RULES };
    const violations: Violation[] = await page.evaluate(
      async ({ runOnly, exclude }) => {
        const axe = (window as unknown as { axe: any }).axe;
        const context = exclude.length ? { exclude: exclude.map((s) => [s]) } : document;
        const r = await axe.run(context, { runOnly, resultTypes: ["violations"] });
        return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n: any) => n.target.join(" ")) }));
      },
      { runOnly, exclude },
    );
    for (const v of violations) found.push(`${v.id} (${v.impact}, ${scheme}): ${v.help}\n  ${v.targets.join("\n  ")}`);
  }
  await page.evaluate(() => {
    const w = window as unknown as { __axeNoMotion?: CSSStyleSheet };
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((x) => x !== w.__axeNoMotion);
  });
  return found;
}

/**
 * A page of the JavaScript-enabled context of this worker, where copies of the no-JS pages are
 * scanned. Chromium runs no timers in a page without JavaScript, and axe needs them (its preload
 * and result steps wait on setTimeout), so the copy is scanned instead: the page's serialised DOM,
 * scripts removed, <noscript> content kept as markup (it is what a visitor without JavaScript
 * sees), loaded with setContent under a <base> of the page's URL so the same CSS applies.
 */
let copyBrowser: Browser | undefined;
let copyPage: Page | undefined;
async function scanCopyOf(page: Page, exclude: string[]): Promise<string[]> {
  const browser = page.context().browser();
  if (!browser) throw new Error("no browser to open a copy in");
  if (!copyPage || copyPage.isClosed() || copyBrowser !== browser) {
    copyBrowser = browser;
    const context = await browser.newContext({ javaScriptEnabled: true });
    copyPage = await context.newPage();
  }
  const viewport = page.viewportSize();
  if (viewport) await copyPage.setViewportSize(viewport);
  const base = page.url().replace(/"/g, "%22");
  const html = (await page.content())
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, "")
    .replace(/<\/?noscript\b[^>]*>/gi, "")
    .replace(/<head(\s[^>]*)?>/i, (m) => `${m}<base href="${base}">`);
  await copyPage.setContent(html, { waitUntil: "load" });
  return axeBothSchemes(copyPage, exclude);
}

/**
 * axe (WCAG 2.2 A and AA) on the page's current state, in the dark and the light colour scheme.
 * Call it after each navigation or change that shows a new state; a state already found clean
 * in this run (by any test, any worker) is not scanned again, and a shell already found clean is
 * left out of the scan (`SHELL_REGIONS`). Without JavaScript the page is scanned through a copy
 * (see `scanCopyOf`). `E2E_AXE_WHOLE=1` scans every new state whole (to compare).
 */
export async function expectAccessible(page: Page) {
  const info = base.info();
  const noJs = jsDisabled(info);
  const { whole, shell, regions } = await page.evaluate(fingerprints, SHELL_REGIONS);
  const url = new URL(page.url());
  const width = page.viewportSize()?.width ?? 0;
  const hash = (text: string) => createHash("sha256").update(text).digest("hex");
  const marker = path.join(passedDir, hash(`${url.pathname}\n${width}\n${whole}`));
  if (fs.existsSync(marker)) return;
  // The page kind's whole scan (the page-level rules: landmarks, `region`, headings, `bypass`)
  // and the shell's own come first; a state after them is scanned without the shell.
  const pageKind = path.join(passedDir, `page-${hash(`${url.pathname}\n${width}`)}`);
  const shellMarker = shell === null ? null : path.join(passedDir, `shell-${hash(`${width}\n${shell}`)}`);
  const byRegion = !process.env.E2E_AXE_WHOLE && shellMarker !== null && fs.existsSync(shellMarker) && fs.existsSync(pageKind);
  const exclude = byRegion ? regions : [];
  const t0 = Date.now();
  const violations = noJs ? await scanCopyOf(page, exclude) : await axeBothSchemes(page, exclude).finally(() => page.emulateMedia({ colorScheme: "light" }));
  if (process.env.E2E_AXE_TIMING) console.log(`axe ${info.project.name} ${url.pathname}${url.search}${byRegion ? " (shell excluded)" : ""}: ${Date.now() - t0} ms`);
  expect(violations, `axe violations on ${page.url()}`).toEqual([]);
  fs.mkdirSync(passedDir, { recursive: true });
  fs.writeFileSync(marker, `${info.project.name} ${url.pathname}${url.search}\n`);
  if (!byRegion) {
    fs.writeFileSync(pageKind, `${info.project.name} ${url.pathname}\n`);
    if (shellMarker) fs.writeFileSync(shellMarker, `${info.project.name} ${url.pathname}${url.search}\n`);
  }
}

/* ------------------------------------------------------------------------------------------------
 * Mail, accounts and sessions.
 * ---------------------------------------------------------------------------------------------- */

/** The newest e-mail sent to an address, from the embedded platform's outbox (as text). */
export async function readMail(to: string, opts: { after?: number; timeoutMs?: number } = {}): Promise<string> {
  const safeTo = to.replace(/[^a-zA-Z0-9@._-]/g, "_");
  const deadline = Date.now() + (opts.timeoutMs ?? 5000);
  while (Date.now() < deadline) {
    if (fs.existsSync(outboxDir)) {
      const files = fs
        .readdirSync(outboxDir)
        .filter((f) => f.endsWith(`-${safeTo}.eml`))
        .filter((f) => !opts.after || Number(f.split("-")[0]) >= opts.after)
        .sort();
      const last = files.at(-1);
      if (last) return decodeMail(fs.readFileSync(path.join(outboxDir, last), "utf8"));
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no e-mail to ${to}`);
}

/** Undoes quoted-printable soft breaks and escapes so links and codes can be matched. */
function decodeMail(raw: string) {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

/** Registers a new account owner through the platform API. */
async function registerAccount(request: APIRequestContext, prefix = "owner"): Promise<Account> {
  const account = { username: uniqueEmail(prefix), password: "e2e password 123" };
  const res = await request.post("/api/v1/register", { data: { username: account.username, password: account.password, terms: true } });
  expect(res.status(), await res.text()).toBe(200);
  return account;
}

/**
 * Signs in over HTTP exactly as the login form does without JavaScript (GET /login for the CSRF
 * token, POST the form), in `request`'s cookie jar. The redirect is not followed: its page would
 * only consume the "You successfully logged in" flash, a cookie (`__toast`) the caller drops
 * instead, so the test's first page shows no stale toast. Rendering the landing dashboard for
 * every test cost a page load each; landing there is auth.spec's own check.
 */
async function signInOverHttp(request: APIRequestContext, account: Account): Promise<void> {
  const form = await request.get("/login");
  const input = (await form.text()).match(/<input\b[^>]*\bname="csrf"[^>]*>/)?.[0];
  const csrf = input?.match(/\bvalue="([^"]*)"/)?.[1];
  if (!csrf) throw new Error(`no CSRF token on /login (status ${form.status()}); already signed in?`);
  const res = await request.post("/login", { form: { csrf, username: account.username, password: account.password, redirectTo: "" }, maxRedirects: 0 });
  const location = res.headers()["location"];
  if (![302, 303].includes(res.status()) || !location || /^\/login/.test(location)) {
    throw new Error(`sign-in of ${account.username} failed: ${res.status()} ${location ?? (await res.text()).slice(0, 300)}`);
  }
}

/** The sign-in's flash cookie, dropped instead of rendering the page that would consume it (`signInOverHttp`). */
const FLASH_COOKIE = "__toast";

/** This worker's stored session (its cookies), by the worker account's username: `signIn` reuses it. */
const workerCookies = new Map<string, Awaited<ReturnType<APIRequestContext["storageState"]>>["cookies"]>();

type Fixtures = {
  /** A fresh account owner of this test alone, registered through the platform API. */
  account: Account;
  /**
   * Signs the page's browser context in as `account`. By default over HTTP (the login form's own
   * POST, no page rendered): the page stays where it was, so go to the page under test next.
   * `{ via: "form" }` fills in and submits the login form and waits to leave /login, when the
   * form itself is part of what is tested. The worker's account (`workerAccount`) is signed in
   * with the worker's stored session, as `signedIn` does: no sign-in request at all.
   */
  signIn: (account: Account, opts?: { via?: "http" | "form" }) => Promise<void>;
  /** Calls the platform API as an account (returns the parsed JSON body and status). */
  api: Api;
  /**
   * Opt in with `test.use({ signedIn: true })`: the page starts signed in as `workerAccount`,
   * the worker's stored session, with no sign-in per test. For tests whose checks do not depend
   * on what other tests of the worker left in the account; tests that need an account of their
   * own use `account` + `signIn`.
   */
  signedIn: boolean;
  /**
   * The account owner of this worker's stored session (registered once per worker, on first use).
   * A test may take it (`{ workerAccount: account }`, then `signIn(account)` costs no request)
   * when it counts no rows of a list, finds its own data by id or by a name only it uses, and
   * changes nothing account-wide (docs/decisions/2026-12-03-suite-time.md, 4 December).
   */
  workerAccount: Account;
};

type WorkerSession = { account: Account; storageState: string };
type WorkerFixtures = {
  /** Makes (once per worker, on first call) an account owner and its signed-in storage state file. */
  workerSession: () => Promise<WorkerSession>;
};

export const test = base.extend<Fixtures & { contextReset: void }, WorkerFixtures>({
  // With `E2E_REUSE=1` (playwright.config.ts's `reuseContext`, an experiment: not the default) a
  // worker's tests share one browser context, which Playwright resets between them (cookies,
  // cache, storage, pages, routes, viewport, emulation) but for what a test may change at run
  // time: extra HTTP headers (abuse-limits' and auth.spec's x-forwarded-for) and granted
  // permissions (the clipboard). Those are reset here.
  contextReset: [
    async ({ context }, use) => {
      await use();
      if (process.env.E2E_REUSE !== "1") return;
      await context.setExtraHTTPHeaders({});
      await context.clearPermissions();
    },
    { auto: true },
  ],
  workerSession: [
    async ({ playwright }, use, workerInfo) => {
      // A function, so that a worker whose tests never opt in registers no account.
      let made: Promise<WorkerSession> | undefined;
      const make = async (): Promise<WorkerSession> => {
        const storageState = path.join(workerInfo.project.outputDir, ".auth", `worker-${workerInfo.workerIndex}-${e2eRunId}.json`);
        const request = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
        try {
          const account = await registerAccount(request, `worker${workerInfo.workerIndex}`);
          await signInOverHttp(request, account);
          const state = await request.storageState();
          const cookies = state.cookies.filter((c) => c.name !== FLASH_COOKIE);
          fs.mkdirSync(path.dirname(storageState), { recursive: true });
          fs.writeFileSync(storageState, JSON.stringify({ ...state, cookies }));
          workerCookies.set(account.username, cookies);
          return { account, storageState };
        } finally {
          await request.dispose();
        }
      };
      await use(() => (made ??= make()));
    },
    { scope: "worker" },
  ],
  signedIn: [false, { option: true }],
  storageState: async ({ storageState, signedIn, workerSession }, use) => {
    await use(signedIn ? (await workerSession()).storageState : storageState);
  },
  workerAccount: async ({ workerSession }, use) => {
    await use((await workerSession()).account);
  },
  account: async ({ request }, use) => {
    await use(await registerAccount(request));
  },
  signIn: async ({ page }, use) => {
    await use(async (account, opts = {}) => {
      if (opts.via === "form") {
        await page.goto("/login");
        await page.getByLabel("Email").fill(account.username);
        await page.getByLabel("Password", { exact: true }).fill(account.password);
        await page.getByRole("button", { name: "Login" }).click();
        await page.waitForURL((url) => !url.pathname.startsWith("/login"));
        return;
      }
      const stored = workerCookies.get(account.username);
      if (stored) {
        await page.context().addCookies(stored);
        return;
      }
      await signInOverHttp(page.context().request, account);
      await page.context().clearCookies({ name: FLASH_COOKIE });
    });
  },
  api: async ({ request }, use) => {
    const tokens = new Map<string, string>();
    await use(async (account, method, call, body) => {
      let token = tokens.get(account.username);
      if (!token) {
        const res = await request.post("/api/v1/token", { data: { username: account.username, password: account.password } });
        const json = await res.json();
        if (!json.access_token) throw new Error(`could not get a token: ${JSON.stringify(json)}`);
        token = json.access_token as string;
        tokens.set(account.username, token);
      }
      const res =
        method === "GET"
          ? await request.get(`/api/v1/${call}`, { headers: { authorization: `Bearer ${token}` } })
          : await request.post(`/api/v1/${call}`, { headers: { authorization: `Bearer ${token}` }, data: body ?? {} });
      const text = await res.text();
      let parsed: any = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: res.status(), body: parsed };
    });
  },
});

/** The path and query of the first link in a mail that points at `route`. */
export function linkIn(mail: string, route: string): string {
  const match = mail.match(new RegExp(`https?://[^\\s"<>]*${route}\\?[^\\s"<>]+`));
  if (!match) throw new Error(`no ${route} link in:\n${mail}`);
  const url = new URL(match[0]);
  return url.pathname + url.search;
}

/** A new IAM user of `owner`'s account, with its first password set through the e-mailed link. */
export async function createIamUser(page: Page, api: Api, owner: Account, role: "admin" | "readonly" = "admin") {
  const entity_name = `HQ ${Date.now().toString(36)}`;
  const entity = await api(owner, "POST", "create_entity", { entity_name, description: "", parent_entity_name: "" });
  expect(entity.status, JSON.stringify(entity.body)).toBe(200);
  const iam: Account = { username: uniqueEmail("iam"), password: "iam password 123" };
  const after = Date.now();
  const created = await api(owner, "POST", "create-iam-user", { username: iam.username, role, entity_name, name: "Ira Iam" });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await page.goto(linkIn(await readMail(iam.username, { after }), "/new-iam-user-setup-template"));
  await page.getByLabel("Password", { exact: true }).fill(iam.password);
  await page.getByLabel("Confirm Password").fill(iam.password);
  await page.getByRole("button", { name: "Set password" }).click();
  await page.waitForURL("**/login");
  return iam;
}

export { expect, type Api };
