import type { Page } from "@playwright/test";
import { expect, expectAccessible, jsDisabled, test, toast } from "./fixtures.ts";

/*
 * /support, the Support Center (spec 3 §2.12, §5, §8), with and without JavaScript: Create Ticket
 * (a refused submit first), the selected ticket's Correspondence tab (General, the text as typed),
 * Reply ('Reply sent successfully.'), Resolve ticket with its confirm dialog, and no reply once
 * closed. The platform's tests cover every rule; this walks the flow.
 */

const tickets = (page: Page) => page.getByRole("table", { name: "Tickets" });

test.describe("support", () => {
  test.describe.configure({ timeout: 120_000 });

  test("create a ticket, reply, resolve; no reply after resolving", async ({ page, account, signIn, api }) => {
    await signIn(account);
    await page.goto("/support");
    await expect(page).toHaveTitle(/^Support Center \| /);
    for (const header of ["Ticket ID", "Subject", "Priority", "Category", "Status", "Created"]) {
      await expect(tickets(page).getByRole("columnheader", { name: new RegExp(`^${header}\\s*(,|$)`) })).toBeVisible();
    }
    await expect(tickets(page).getByRole("cell", { name: "No data" })).toBeVisible();
    await expectAccessible(page);

    // Create Ticket: a blank subject is refused, the input kept.
    await page.getByRole("link", { name: "Create Ticket" }).click();
    const create = page.getByRole("dialog", { name: "Create Ticket" });
    await expect(create).toBeVisible();
    await create.getByLabel("Description").fill("Line one\n<b>not bold</b>\n  indented");
    await create.getByLabel("Priority").selectOption("High");
    await create.getByLabel("Category").selectOption("Technical");
    await create.getByRole("button", { name: "Create Ticket" }).click();
    await expect(create.getByRole("alert")).toContainText("Subject is required.");
    await expect(create.getByLabel("Description")).toHaveValue("Line one\n<b>not bold</b>\n  indented");
    await expectAccessible(page);
    await create.getByLabel("Subject").fill("VPN drops every hour");
    await create.getByRole("button", { name: "Create Ticket" }).click();
    await expect(toast(page, "Ticket created successfully.")).toBeVisible();
    await expect(create).toBeHidden();

    // The new ticket is selected: its Correspondence tab, General first, the description as typed.
    const row = tickets(page).getByRole("row").filter({ hasText: "VPN drops every hour" });
    await expect(row).toContainText("Open");
    const ticketId = (await row.getByRole("link").first().textContent())!.trim();
    expect(ticketId).toMatch(/^tkt-/);
    await expect(page).toHaveURL(new RegExp(`selected=${ticketId}`));
    await expect(page.getByRole("link", { name: "Correspondence" })).toBeVisible();
    const general = page.locator("dl");
    for (const label of ["Title", "Category", "Priority", "Status", "Ticket ID", "Account ID", "Device ID", "Entity ID", "Created by", "Created at", "Updated at"]) {
      await expect(general.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(general).toContainText(account.username);
    const texts = page.getByTestId("correspondence-text");
    await expect(texts).toHaveCount(1);
    expect(await texts.first().evaluate((el) => [el.textContent, getComputedStyle(el).whiteSpace, el.querySelector("b")])).toEqual([
      "Line one\n<b>not bold</b>\n  indented",
      "pre-wrap",
      null,
    ]);
    await expectAccessible(page);

    // Reply: blank refused, then sent; the newest is first.
    await page.getByRole("link", { name: "Reply", exact: true }).click();
    const reply = page.getByRole("dialog", { name: "Reply" });
    await reply.getByRole("button", { name: "Send Reply" }).click();
    await expect(reply.getByRole("alert")).toContainText("Reply is required.");
    await reply.getByLabel("Reply").fill("Restarted the router.\nStill dropping.");
    await reply.getByRole("button", { name: "Send Reply" }).click();
    await expect(toast(page, "Reply sent successfully.")).toBeVisible();
    await expect(texts).toHaveCount(2);
    await expect(texts.first()).toHaveText("Restarted the router.\nStill dropping.");

    // Resolve ticket: the confirm dialog with the spec's words.
    await page.getByLabel(`Actions for ${ticketId}`, { exact: true }).click();
    await page.getByRole("link", { name: "Resolve ticket" }).click();
    const close = page.getByRole("dialog", { name: "Close the ticket" });
    await expect(close).toContainText(`Are you certain you wish to proceed with closing ${ticketId}? Please note that this action is irreversible.`);
    await expectAccessible(page);
    await close.getByRole("button", { name: "Close the ticket" }).click();
    await expect(toast(page, "Ticket closed.")).toBeVisible();
    await expect(row).toContainText("Closed");
    // Closed: no Reply, no Resolve; the platform refuses a reply too.
    await expect(page.getByRole("link", { name: "Reply", exact: true })).toHaveCount(0);
    await expect(page.getByLabel(`Actions for ${ticketId}`, { exact: true })).toHaveCount(0);
    const refused = await api(account, "POST", "add_correspondence", { ticket_id: ticketId, correspondence: "one more thing" });
    expect(refused.status).toBe(409);
    // A stale reply dialog says so instead of offering the form.
    await page.goto(`/support?selected=${ticketId}&dialog=reply&id=${ticketId}`);
    await expect(page.getByRole("dialog", { name: "Reply" })).toContainText("This ticket is closed");

    // Refresh (a form: works without JavaScript) keeps the page as it was.
    await page.goto(`/support?selected=${ticketId}`);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(toast(page, "Refreshed tickets.")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`selected=${ticketId}`));
    if (!jsDisabled()) await expect(texts).toHaveCount(2);
  });

  test.describe(() => {
    // Does not depend on what the account holds: the worker's signed-in account will do.
    test.use({ signedIn: true });

    test("the top bar's FAQ link opens the questions on /support, each opening without JavaScript", async ({ page }) => {
      await page.goto("/contacts");
      await page.getByRole("banner").getByRole("link", { name: "FAQ" }).click();
      await expect(page).toHaveURL(/\/support#faq$/);
      const faq = page.getByRole("region", { name: "Frequently asked questions" });
      await expect(faq.getByRole("heading", { name: "Frequently asked questions" })).toBeInViewport();
      const question = faq.getByText("Can a ticket be reopened after it is resolved?");
      const answer = faq.getByText(/Resolving closes the ticket for good/);
      await expect(answer).toBeHidden();
      await question.click();
      await expect(answer).toBeVisible();
      await faq.getByText("Where can I see who changed what?").click();
      await faq.getByRole("link", { name: "Change Logs" }).click();
      await expect(page).toHaveURL(/\/histories$/);
      await page.goBack();
      await expectAccessible(page);
    });
  });
});
