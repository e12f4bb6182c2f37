import fs from "node:fs";
import type { Page } from "@playwright/test";
import { createIamUser, expect, expectAccessible, test } from "./fixtures.ts";

/*
 * /histories, View Changes (spec 3 §2.13), with and without JavaScript: the ticket actions of the
 * account and of an IAM user, each under the right username with its command; the username,
 * command, time-range and search filters in the URL; the CSV export of what they select.
 */

const log = (page: Page) => page.getByRole("table", { name: "Change log" });
const bodyRows = (page: Page) => log(page).locator("tbody tr");

async function download(page: Page) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync((await file.path())!, "utf8") };
}

async function applyFilters(page: Page, fields: Record<string, string>) {
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole("button", { name: "Apply filters" }).click();
}

test.describe("histories", () => {
  test.describe.configure({ timeout: 120_000 });

  test("shows ticket actions with the right username; filters and exports", async ({ page, account, signIn, api }) => {
    const iam = await createIamUser(page, api, account, "admin");
    const created = await api(account, "POST", "create_ticket", { title: "Fibre cut", description: "Street works", priority: "Urgent", category: "Technical" });
    expect(created.status).toBe(200);
    const ticketId = created.body.ticket_id as string;
    expect((await api(iam, "POST", "add_correspondence", { ticket_id: ticketId, correspondence: "Crew on site" })).status).toBe(200);
    expect((await api(iam, "POST", "resolve_ticket", { ticket_id: ticketId })).status).toBe(200);
    expect((await api(account, "POST", "add_correspondence", { ticket_id: ticketId, correspondence: "Thanks" })).status).toBe(409);

    await signIn(account);
    await page.goto("/histories");
    await expect(page).toHaveTitle(/^View Changes \| /);
    for (const header of ["Time", "Username", "Command", "Status", "Body", "Params"]) {
      await expect(log(page).getByRole("columnheader", { name: new RegExp(`^${header}\\s*(,|$)`) })).toBeVisible();
    }
    await expect(log(page).getByRole("columnheader", { name: /Account ID/ })).toHaveCount(0);
    // Newest first: the refused reply, the IAM user's resolve and reply, the owner's ticket.
    const first = bodyRows(page);
    await expect(first.nth(0)).toContainText("/add_correspondence");
    await expect(first.nth(0)).toContainText(account.username);
    // Refused, and shown so: not a change (issue 27 item 4).
    await expect(first.nth(0)).toContainText("409 Refused");
    await expect(first.nth(1)).toContainText("200 Done");
    await expect(first.nth(1)).toContainText("/resolve_ticket");
    await expect(first.nth(1)).toContainText(iam.username);
    await expect(first.nth(2)).toContainText("/add_correspondence");
    await expect(first.nth(2)).toContainText(iam.username);
    await expect(first.nth(2)).toContainText('"correspondence":"Crew on site"');
    await expect(first.nth(3)).toContainText("/create_ticket");
    await expect(first.nth(3)).toContainText(account.username);
    await expect(log(page)).not.toContainText("/api/v1");
    await expectAccessible(page);

    // By username (the IAM user's actions only), then also by command.
    await applyFilters(page, { Username: iam.username });
    await expect(page).toHaveURL(/[?&]username=/);
    await expect(bodyRows(page)).toHaveCount(2);
    // Parts match (issue 27 item 4).
    await applyFilters(page, { Command: "resolve" });
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page).first()).toContainText(ticketId);
    await expectAccessible(page);

    // The export holds what the filters select.
    const csv = await download(page);
    expect(csv.name).toBe("change-log.csv");
    const lines = csv.text.split("\r\n").filter(Boolean);
    expect(lines[0]).toBe("\uFEFFTime,Username,Command,Status,Body,Params,Account ID,IAM user ID");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${iam.username},/resolve_ticket,200 Done,`);
    expect(lines[1]).toContain(ticketId);

    // Clear; a time range in the future selects nothing; the search finds the ticket's subject.
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(bodyRows(page).first()).toContainText("/add_correspondence");
    await applyFilters(page, { "From (UTC)": "2099-01-01T00:00" });
    await expect(log(page).getByRole("cell", { name: "No data found." })).toBeVisible();
    // A From after its To says so (issue 27 item 4).
    await applyFilters(page, { "From (UTC)": "2026-11-25T12:00", "To (UTC)": "2026-11-25T10:00" });
    await expect(page.getByRole("alert").filter({ hasText: "From must be before To." })).toBeVisible();
    await page.goto("/histories?q=fibre");
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(bodyRows(page).first()).toContainText("/create_ticket");
  });
});
