import AxeBuilder from "@axe-core/playwright";
import { expect, test as base, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { outboxDir } from "./env.ts";

export interface Account {
  username: string;
  password: string;
}

let counter = 0;
/** A unique e-mail address for this test. */
export function uniqueEmail(prefix = "user") {
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter++}@e2e.example`;
}

/** Every page a test visits is scanned: call this after each navigation that shows a new page. */
export async function expectAccessible(page: Page) {
  if (base.info().project.name === "no-js") {
    // With JavaScript disabled for the page, this Chromium never fires timers, and axe (which
    // yields with setTimeout) would hang: run its timers as microtasks. axe still reads the real DOM.
    await page.evaluate(() => {
      const w = window as unknown as { setTimeout: unknown; clearTimeout: unknown };
      w.setTimeout = (fn: unknown, _ms?: number, ...args: unknown[]) => {
        void Promise.resolve().then(() => (typeof fn === "function" ? fn(...args) : undefined));
        return 0;
      };
      w.clearTimeout = () => {};
    });
  }
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`);
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

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

type Fixtures = {
  /** A fresh account owner, registered through the platform API. */
  account: Account;
  /** Signs in through the login form (works with and without JavaScript). */
  signIn: (account: Account) => Promise<void>;
  /** Calls the platform API as an account (returns the parsed JSON body and status). */
  api: (account: Account, method: "GET" | "POST", call: string, body?: unknown) => Promise<{ status: number; body: any }>;
};

export const test = base.extend<Fixtures>({
  account: async ({ request }, use) => {
    const account = { username: uniqueEmail("owner"), password: "e2e password 123" };
    const res = await request.post("/api/v1/register", { data: { username: account.username, password: account.password, terms: true } });
    expect(res.status(), await res.text()).toBe(200);
    await use(account);
  },
  signIn: async ({ page }, use) => {
    await use(async (account) => {
      await page.goto("/login");
      await page.getByLabel("Email").fill(account.username);
      await page.getByLabel("Password", { exact: true }).fill(account.password);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/login"));
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

export type Api = (a: Account, m: "GET" | "POST", c: string, b?: unknown) => Promise<{ status: number; body: any }>;

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

export { expect };

/** True in the project that runs with JavaScript turned off. */
export function jsDisabled(testInfo: { project: { name: string } }) {
  return testInfo.project.name === "no-js";
}
