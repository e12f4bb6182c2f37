import net from "node:net";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import fs from "node:fs";
import path from "node:path";
import routes from "../../app/routes.ts";
import { e2ePort } from "./env.ts";
import { expect, test } from "./fixtures.ts";

// Reliability and security of the console against requests no browser form sends
// (issue 10; docs/decisions/2026-11-23-hardening.md). Requests only: run once, with JavaScript on.
test.beforeEach(({}, testInfo) => test.skip(testInfo.project.name !== "js", "requests only"));

/** Every URL of app/routes.ts whose module has an action, so a route added later is covered too. */
function actionUrls(): string[] {
  const urls: string[] = [];
  const walk = (entries: RouteConfigEntry[], prefix: string) => {
    for (const entry of entries) {
      const full = entry.path ? `${prefix.replace(/\/$/, "")}/${entry.path}` : prefix || "/";
      const source = fs.readFileSync(path.resolve("app", entry.file), "utf8");
      const hasAction = /export\s+(async\s+)?(function|const|let)\s+action\b|export\s*\{[^}]*\baction\b/.test(source);
      // The platform's own API (api/v1/*) answers JSON and is tested in platform/; "*" is the 404 page.
      if (hasAction && !full.includes("*")) urls.push((full.replace(/:[^/]+/g, "x") || "/") + (entry.index ? "?index" : ""));
      if (entry.children) walk(entry.children, full);
    }
  };
  walk(routes as RouteConfigEntry[], "");
  return [...new Set(urls)];
}

test("every console action answers 400/405 to bodies and methods no form sends, never 500", async ({ page, account, signIn }) => {
  await signIn(account);
  const urls = actionUrls();
  // The list is read from routes.ts: make sure it found the known ones.
  expect(urls).toEqual(expect.arrayContaining(["/login", "/register", "/logout", "/account", "/contacts", "/pcap-analyzer/upload"]));
  const bodies: { name: string; method: string; headers: Record<string, string>; data?: string; expected: number }[] = [
    { name: "JSON", method: "POST", headers: { "content-type": "application/json" }, data: '{"name":"x"}', expected: 400 },
    { name: "text/plain", method: "POST", headers: { "content-type": "text/plain" }, data: "name=x", expected: 400 },
    { name: "broken multipart", method: "POST", headers: { "content-type": "multipart/form-data; boundary=zzz" }, data: "--zzz\r\nnot a part", expected: 400 },
    { name: "multipart without boundary", method: "POST", headers: { "content-type": "multipart/form-data" }, data: "x", expected: 400 },
    { name: "empty POST", method: "POST", headers: {}, expected: 400 },
    { name: "PUT", method: "PUT", headers: { "content-type": "application/x-www-form-urlencoded" }, data: "name=x", expected: 405 },
    { name: "DELETE", method: "DELETE", headers: { "content-type": "application/x-www-form-urlencoded" }, data: "name=x", expected: 405 },
    { name: "PATCH", method: "PATCH", headers: { "content-type": "application/x-www-form-urlencoded" }, data: "name=x", expected: 405 },
  ];
  const wrong: string[] = [];
  for (const url of urls) {
    for (const body of bodies) {
      const res = await page.request.fetch(url, { method: body.method, headers: body.headers, data: body.data, maxRedirects: 0 });
      if (res.status() !== body.expected) wrong.push(`${body.method} ${url} (${body.name}): ${res.status()}`);
      if (res.status() >= 400 && res.status() < 500 && res.headers()["content-type"]?.includes("text/html")) {
        // A clear page, not a stack trace.
        expect(await res.text()).not.toContain("at async");
      }
    }
  }
  expect(wrong).toEqual([]);
  // Still signed in and serving.
  expect((await page.request.get("/healthz")).status()).toBe(200);
});

/** Sends raw bytes on one socket; resolves with what came back once `until` matches or time is up. */
function rawExchange(writes: (string | Buffer)[], until: RegExp, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(e2ePort, "127.0.0.1");
    let got = "";
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(got);
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on("data", (d) => {
      got += d.toString("latin1");
      if (until.test(got)) done();
    });
    socket.on("error", done);
    socket.on("connect", () => writes.forEach((w) => socket.write(w)));
  });
}

test("a signed-in upload without a multipart boundary does not stop the server", async ({ page, account, signIn }) => {
  await signIn(account);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  for (const type of ["multipart/form-data", "multipart/form-data; boundary="]) {
    const head = `POST /pcap-analyzer/upload HTTP/1.1\r\nHost: localhost:${e2ePort}\r\nCookie: ${cookie}\r\nContent-Type: ${type}\r\nContent-Length: 1000000\r\n\r\n`;
    const next = `GET /healthz HTTP/1.1\r\nHost: localhost:${e2ePort}\r\n\r\n`;
    const got = await rawExchange([head, Buffer.alloc(1_000_000, 7), next], /"platform":"ok"/);
    expect(got).toMatch(/^HTTP\/1\.1 400/);
    // The same keep-alive connection answers its next request, and so does the server.
    expect(got).toContain('"console":"ok"');
  }
  expect((await page.request.get("/healthz")).status()).toBe(200);
});

test("an early answer to an unread body keeps the keep-alive connection usable", async () => {
  // Not signed in: the upload answers a redirect to /login before reading the 1 MB.
  const head = `POST /pcap-analyzer/upload HTTP/1.1\r\nHost: localhost:${e2ePort}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n`;
  const next = `GET /healthz HTTP/1.1\r\nHost: localhost:${e2ePort}\r\n\r\n`;
  const got = await rawExchange([head, Buffer.alloc(1_000_000, 8), next], /"platform":"ok"/);
  expect(got).toMatch(/^HTTP\/1\.1 30[23]/);
  expect(got).toContain('"console":"ok"');
});

test("signing in never redirects off-site, whatever redirectTo holds", async ({ page, account }) => {
  for (const target of ["/\t/evil.example/", "//evil.example/", "/\\evil.example", "/%2F%2Fevil.example", "/x\r\nSet-Cookie: a=1", "https://evil.example/"]) {
    await page.context().clearCookies();
    const login = await page.request.get(`/login?redirectTo=${encodeURIComponent(target)}`);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1];
    expect(csrf).toBeTruthy();
    const res = await page.request.post(`/login?redirectTo=${encodeURIComponent(target)}`, {
      form: { csrf: csrf!, username: account.username, password: account.password, redirectTo: target },
      maxRedirects: 0,
    });
    expect(res.status(), target).toBe(303);
    expect(res.headers().location, target).toBe("/main-dashboard");
  }
  // A same-site target is kept.
  await page.context().clearCookies();
  const login = await page.request.get("/login");
  const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? "";
  const res = await page.request.post("/login", { form: { csrf, username: account.username, password: account.password, redirectTo: "/contacts?page=2" }, maxRedirects: 0 });
  expect(res.headers().location).toBe("/contacts?page=2");
});
