import { randomInt } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures.ts";

/*
 * The abuse limits as the browser meets them (docs/decisions/2026-12-03-abuse-limits.md), with
 * and without JavaScript: the platform's 429 reaches the form as its message, with Retry-After,
 * and only the address that made the failures waits. The test's addresses are X-Forwarded-For
 * from this machine, a hop the console trusts by default (TRUST_PROXY=loopback).
 */

const anAddress = () => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;

async function submitLogin(page: Page, username: string, password: string) {
  await page.getByLabel("Email").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  const answer = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "Login" }).click();
  return answer;
}

test("after 5 wrong passwords from one address the login form says to wait; the user signs in from another", async ({ page, account }) => {
  const attacker = anAddress();
  await page.context().setExtraHTTPHeaders({ "x-forwarded-for": attacker });
  for (let i = 0; i < 5; i++) {
    const res = await page.request.post("/api/v1/token", { data: { username: account.username, password: `wrong ${i}` } });
    expect(res.status()).toBe(401);
  }
  await page.goto("/login");
  const refused = await submitLogin(page, account.username, account.password);
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(/Too many failed login attempts\. Try again in \d+ minutes?\./);
  await expect(page).toHaveTitle(/^Error: Login/);
  await expectAccessible(page);

  await page.context().setExtraHTTPHeaders({ "x-forwarded-for": anAddress() });
  await page.goto("/login");
  await submitLogin(page, account.username, account.password);
  // Sign-in lands on /main-dashboard (both specs; issue 63 item 14).
  await page.waitForURL("**/main-dashboard");
});
