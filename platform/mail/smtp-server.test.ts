import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlatformApp } from "../app.ts";
import { testPlatform, type TestPlatform } from "../test/harness.ts";
import { freePort, startSmtpServer } from "../test/servers/smtp.ts";
import { createMailer, type Mailer } from "./mailer.ts";

/*
 * Issue 27 item 20: e-mail against a real SMTP server (smtp-server, started here): the MFA code and
 * an IAM user's set-up link arrive through SMTP; with the server down the call answers a clear
 * error, the message is kept (nothing lost) and sent again once the server is back.
 */

let p: TestPlatform;
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "linkwise-smtp-test-"));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  p = await testPlatform();
});
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The shared test platform's database and config, with this mailer. */
function platformWith(mailer: Mailer) {
  const app = createPlatformApp({ ...p.deps, mailer });
  return async (method: "GET" | "POST", call: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await app.request(`http://platform.test/api/v1/${call}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json().catch(() => null)) as any };
  };
}

const codeIn = (text: string) => /login code is (\d{6})/.exec(text)?.[1];

describe("e-mail through a real SMTP server", () => {
  it("the MFA code and the IAM set-up link arrive through SMTP", async () => {
    const smtp = await startSmtpServer();
    try {
      const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: tmp(), from: "Linkwise <no-reply@linkwise.example>", log: () => {} });
      const call = platformWith(mailer);
      const a = await p.newAccount();
      expect((await call("POST", "account-enable-mfa", { type: "email" }, a.token)).status).toBe(200);
      const first = await call("POST", "token", { username: a.username, password: a.password });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const [mail] = smtp.to(a.username);
      expect(mail?.text).toMatch(/Subject: Linkwise: your login code/);
      const code = codeIn(mail!.text)!;
      expect(code).toMatch(/^\d{6}$/);
      const ok = await call("POST", "token", { username: a.username, password: a.password, otp: code });
      expect(ok.status).toBe(200);
      expect(typeof ok.body.access_token).toBe("string");

      const entity = await call("POST", "create_entity", { entity_name: "HQ", description: "", parent_entity_name: "" }, a.token);
      expect(entity.status).toBe(200);
      const iam = `iam-${Date.now().toString(36)}@example.com`;
      expect((await call("POST", "create-iam-user", { username: iam, role: "readonly", entity_name: "HQ", name: "Ira" }, a.token)).status).toBe(200);
      expect(smtp.to(iam)).toHaveLength(1);
      expect(smtp.to(iam)[0]!.text).toMatch(/\/new-iam-user-setup-template\?/);
    } finally {
      await smtp.close();
    }
  });

  it("with the SMTP server down: a clear error, nothing lost, sent again once it is back", async () => {
    const port = await freePort();
    const spoolDir = tmp();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, outboxDir: tmp(), spoolDir, retryMs: 200, from: "Linkwise <no-reply@linkwise.example>", log: () => {} });
    const call = platformWith(mailer);
    const a = await p.newAccount();
    expect((await call("POST", "account-enable-mfa", { type: "email" }, a.token)).status).toBe(200);
    const refused = await call("POST", "token", { username: a.username, password: a.password });
    expect(refused.status).toBe(503);
    expect(refused.body.detail).toBe("The e-mail could not be sent. Please try again later.");
    // Kept: the message waits in the spool.
    expect(fs.readdirSync(spoolDir).length).toBe(1);
    // The server comes back on the same port: the message is sent again by itself.
    const smtp = await startSmtpServer(port);
    try {
      await expect.poll(() => smtp.to(a.username).length, { timeout: 10_000 }).toBe(1);
      expect(smtp.to(a.username)[0]!.text).toMatch(/login code is \d{6}/);
      await expect.poll(() => fs.readdirSync(spoolDir).length, { timeout: 5_000 }).toBe(0);
    } finally {
      mailer.stop?.();
      await smtp.close();
    }
  });
});
