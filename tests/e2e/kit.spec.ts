import type { Page } from "@playwright/test";
import { expect, expectAccessible, jsDisabled, seedContacts, test, type Account, type Api } from "./fixtures.ts";

/*
 * The UI kit's shared behaviour (issue 10): dialogs opened by URL without JavaScript, the one
 * validation rule, the themes, the navigation's collapse button and menu button.
 */

async function ready(page: Page) {
  if (!jsDisabled(test.info())) await page.locator(".shell[data-hydrated]").waitFor();
}

async function createEntity(api: Api, account: Account, entity_name: string) {
  const res = await api(account, "POST", "create_entity", { entity_name, description: "", parent_entity_name: "" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * axe with WCAG 2.2 AA in the light and the dark theme: the fixtures' scan, which stops the
 * themes' colour transitions while it runs (a scan right after the scheme flipped once read a
 * button half-way between its two colours).
 */
const expectAccessibleBothThemes = expectAccessible;

test.describe("kit", () => {
  test.describe.configure({ timeout: 120_000 });

  test("the rows stay where they are when the page hydrates: a row's link is where it was without JavaScript", async ({ page, browser, account, api, signIn }) => {
    test.skip(jsDisabled(test.info()), "compares the page with JavaScript to its twin without");
    // The no-JS 'Select' button above the table once went at hydration and moved every row up
    // ~50 px: a click aimed at a row's link just then landed on the table body.
    await seedContacts(api, account, [{ first_name: "Grace", last_name: "Hopper", email: "grace@example.com" }]);
    await signIn(account);
    await page.goto("/contacts");
    await ready(page);
    const top = (p: Page) => p.locator("a.kit-select").first().evaluate((a) => Math.round(a.getBoundingClientRect().top));
    const withoutJs = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize(), storageState: await page.context().storageState() });
    try {
      const twin = await withoutJs.newPage();
      await twin.goto(page.url());
      await expect(twin.getByRole("button", { name: "Select", exact: true })).toBeVisible();
      expect(await top(page)).toBe(await top(twin));
    } finally {
      await withoutJs.close();
    }
  });

  test("nothing moves when a list or the map hydrates (320 and 768 px): the no-JS buttons, the map's box", async ({ page, account, api, signIn }) => {
    test.skip(jsDisabled(test.info()), "compares the page before hydration with the page after");
    // Buttons for browsers without JavaScript went at hydration and moved what was under them: the
    // entity filter's Apply wrapped onto a line of its own at 320 px (rows up 40 px), the page size's
    // Apply and the checkboxes' Select made the footer taller (the details under it up 44 px at
    // 768). The map's SVG was 125 px high at 320 px and Leaflet's map 256 (the table under it down
    // 131 px). The page before hydration is the page with its scripts refused.
    await createEntity(api, account, "Harbour");
    await seedContacts(api, account, [{ first_name: "Grace", last_name: "Hopper", email: "grace@example.com" }]);
    let cpeId = "";
    for (const [call, body] of [
      ["create_cpe", { cpe_name: "Lisbon pier", prod_code: "BN-CPE-500", site_address: "1 Cais, Lisboa", latitude: 38.72, longitude: -9.14, entity_name: "Harbour" }],
      ["create_metro", { metro_name: "Hamburg quay", prod_code: "BN-METRO-100", site_address: "1 Kai, Hamburg", latitude: 53.55, longitude: 9.99 }],
    ] as const) {
      const res = await api(account, "POST", call, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      cpeId ||= res.body.cpe_id;
    }
    await signIn(account);
    /** The first row's top and the bottom of the table's footer (rows, page size, pages), px from the page's top. */
    const where = () =>
      page.evaluate(() => {
        const top = (el: Element | null | undefined, edge: "top" | "bottom") => (el ? Math.round(el.getBoundingClientRect()[edge] + window.scrollY) : null);
        return { row: top(document.querySelector("main table tbody tr"), "top"), footer: top(document.querySelector("main [aria-live=polite][id$='-status']")?.parentElement, "bottom") };
      });
    const scripts = /\.js(\?|$)/;
    for (const width of [320, 768]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of [`/routers?selected=${cpeId}`, "/ethernet-devices", "/contacts", "/main-dashboard?tab=map"]) {
        await page.route(scripts, (route) => route.abort());
        await page.goto(path);
        const before = await where();
        expect(before.row, `${path}: a row to measure`).not.toBeNull();
        if (!path.includes("map")) expect(before.footer, `${path}: a table footer to measure`).not.toBeNull();
        await page.unroute(scripts);
        await page.goto(path);
        await ready(page);
        if (path.includes("map")) {
          // Leaflet comes when the map is first pointed at (the interactive layer): hover it.
          await page.locator("figure[data-map-layer]").first().hover();
          await page.locator(".map-leaflet").first().waitFor();
        }
        // Within 2 px: a live figure may redraw a row a pixel taller between the two loads; the
        // shifts this guards against were 12–131 px.
        const after = await where();
        for (const key of ["row", "footer"] as const) {
          expect(after[key] === null, `${path} at ${width} px: ${key} on both loads or neither`).toBe(before[key] === null);
          expect(Math.abs((after[key] ?? 0) - (before[key] ?? 0)), `${path} at ${width} px: the ${key} after hydration (${after[key]}, before ${before[key]})`).toBeLessThanOrEqual(2);
        }
      }
    }
  });

  test("the error summary: a bordered box of the fields' own messages, 24px links, WCAG 2.2 AA in both themes", async ({ page }) => {
    await page.goto("/register");
    await page.getByRole("button", { name: "Register" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await expect(summary).toBeVisible();
    for (const link of await summary.getByRole("link").all()) {
      expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(24);
    }
    expect(await summary.evaluate((el) => getComputedStyle(el).borderTopWidth)).toBe("4px");
    await expectAccessibleBothThemes(page);
  });

  test("a dialog opened by URL holds the keyboard: the first Tab lands in it, the page behind is inert", async ({ page, workerAccount: account, api, signIn }) => {
    await createEntity(api, account, `Dlg ${Date.now().toString(36)}`);
    await signIn(account);
    await page.goto("/contacts?dialog=create");
    await ready(page);
    const dialog = page.getByRole("dialog", { name: "Add Contact" });
    await expect(dialog).toBeVisible();
    // From the top of the document: a Tab lands in the dialog, not on the skip link or the navigation.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("dialog[data-url-dialog]")))).toBe(true);
    if (jsDisabled(test.info())) {
      await expect(page.locator("header")).toHaveAttribute("inert", "");
      // Ten more Tabs never leave it.
      for (let i = 0; i < 10; i++) {
        await page.keyboard.press("Tab");
        const inside = await page.evaluate(() => !document.activeElement || document.activeElement === document.body || Boolean(document.activeElement.closest("dialog[data-url-dialog]")));
        expect(inside).toBe(true);
      }
    }
    await expectAccessible(page);
  });

  test("after a failed submit, typing sends no request and the summary stays until the next submit", async ({ page, workerAccount: account, api, signIn }) => {
    test.skip(jsDisabled(test.info()), "the rule's JavaScript part");
    const entity = `Val ${Date.now().toString(36)}`;
    await createEntity(api, account, entity);
    await signIn(account);
    await page.goto("/contacts?dialog=create");
    await ready(page);
    const dialog = page.getByRole("dialog", { name: "Add Contact" });
    await dialog.getByRole("button", { name: "Add Contact" }).click();
    const summary = dialog.getByRole("alert");
    await expect(summary).toContainText("There is a problem");
    const before = await summary.innerText();
    // The message is the field's own, not prefixed with its label again.
    expect(before).not.toMatch(/Email: /);

    const requests: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "fetch" || r.resourceType() === "document" || r.method() === "POST") requests.push(`${r.method()} ${r.url()}`);
    });
    const email = dialog.getByLabel("Email");
    await email.click();
    await email.pressSequentially("ada@example.com", { delay: 20 });
    await page.waitForTimeout(500);
    expect(requests, "requests while typing").toEqual([]);
    expect(await summary.innerText()).toBe(before);

    // Leaving the field sends nothing either: the errors stay as the last submit left them.
    await email.press("Tab");
    await page.waitForTimeout(500);
    expect(requests, "requests after leaving the field").toEqual([]);
    expect(await summary.innerText()).toBe(before);

    // The next submit updates it.
    await dialog.getByRole("button", { name: "Add Contact" }).click();
    await expect.poll(async () => (await summary.innerText()) !== before).toBe(true);
    await expect(summary).not.toContainText("mail");
  });

  test("at 320px no page scrolls sideways", async ({ page, account, api, signIn }) => {
    await createEntity(api, account, `Narrow entity with a long name ${Date.now().toString(36)}`);
    await page.setViewportSize({ width: 320, height: 700 });
    for (const path of ["/login", "/register"]) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
      expect(overflow, `sideways scroll on ${path}`).toBeLessThanOrEqual(0);
    }
    await signIn(account);
    for (const path of ["/contacts", "/entities", "/account", "/profile", "/pcap-analyzer", "/iam", "/contacts?dialog=create", "/entities?dialog=create"]) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth);
      expect(overflow, `sideways scroll on ${path}`).toBeLessThanOrEqual(0);
    }
  });

  test("at 390px tables are stacked lists, each row a card with its name and its menu", async ({ page, account, api, signIn }) => {
    const name = `Card ${Date.now().toString(36)}`;
    await createEntity(api, account, name);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(account);
    await page.goto("/entities");
    await ready(page);
    const row = page.getByRole("table", { name: "Entities" }).locator("tbody tr").first();
    expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe("grid");
    const link = row.getByRole("link", { name, exact: true });
    const menu = row.getByLabel(`Actions for ${name}`, { exact: true });
    await expect(link).toBeVisible();
    await expect(menu).toBeVisible();
    const a = (await link.boundingBox())!;
    const m = (await menu.boundingBox())!;
    // The menu sits on the name's line, inside the card, without scrolling.
    expect(Math.abs(a.y + a.height / 2 - (m.y + m.height / 2))).toBeLessThan(24);
    expect(m.x + m.width).toBeLessThanOrEqual(390);
    // No scrolling region: the table does not scroll sideways.
    expect(await page.locator(".kit-table-wrap").first().evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expectAccessibleBothThemes(page);
    // The selected entity's Contacts tab: a stacked list too, no scrolling region (axe's scrollable-region-focusable).
    await link.click();
    await page.waitForURL(/selected=/);
    await page.goto(page.url() + "&tab=contacts");
    await ready(page);
    await expectAccessibleBothThemes(page);
    await page.goto("/account");
    await ready(page);
    await expectAccessibleBothThemes(page);
    await page.goto("/entities");
    await ready(page);
    // The navigation is a menu button, not a rail.
    await expect(page.getByTestId("sidenav")).toBeHidden();
    const menuButton = page.getByTestId("nav-menu").locator("summary");
    await expect(menuButton).toBeVisible();
    await menuButton.click();
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link", { name: "Contacts", exact: true })).toBeVisible();
    await expectAccessible(page);
    await nav.getByRole("link", { name: "Contacts", exact: true }).click();
    await page.waitForURL("**/contacts");
    await expect(page.getByRole("navigation", { name: "Main navigation" })).toBeHidden();
  });

  test("at 1280px a table wider than its card keeps the row menus in view, pinned at the right edge", async ({ page, account, api, signIn }) => {
    const names = ["Pinned A", "Pinned B", "Pinned C"].map((n) => `${n} ${Date.now().toString(36)}`);
    for (const cpe_name of names) {
      const r = await api(account, "POST", "create_cpe", { cpe_name, prod_code: "BN-CPE-500", site_address: "Rua Augusta 1, Lisbon, a long site address" });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(account);
    await page.goto("/routers");
    await ready(page);
    const wrap = page.locator(".kit-table-wrap").first();
    // The Internet NIDs table is wider than its card at this width: it scrolls inside it.
    expect(await wrap.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    const box = (await wrap.boundingBox())!;
    /** Whether the row's menu button is inside the card and is what a click at its centre reaches. */
    const reachable = (name: string) =>
      page.getByLabel(`Actions for ${name}`, { exact: true }).evaluate((summary, right) => {
        const r = summary.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return r.right <= right + 0.5 && r.left >= 0 && Boolean(hit && summary.contains(hit));
      }, box.x + box.width);
    for (const name of names) expect(await reachable(name), `the menu of ${name} without scrolling`).toBe(true);
    // Scrolled to either end, the menu stays where it was and nothing covers it.
    await wrap.evaluate((el) => (el.scrollLeft = el.scrollWidth));
    for (const name of names) expect(await reachable(name), `the menu of ${name} scrolled to the end`).toBe(true);
    await wrap.evaluate((el) => (el.scrollLeft = 0));
    // An open menu is above the next rows' pinned cells: its first items, drawn over the next two
    // rows' menu buttons, are what a click there reaches.
    await page.getByLabel(`Actions for ${names[0]}`, { exact: true }).click();
    const open = page.locator("details[data-menu][open]");
    for (const label of ["Edit CPE Info", "Edit Network Info", "Assign Entity"]) {
      const item = open.getByRole("link", { name: label, exact: true });
      await expect(item).toBeVisible();
      const onTop = await item.evaluate((a) => {
        const r = a.getBoundingClientRect();
        // The item's right end: where the next rows' pinned cells are.
        const hit = document.elementFromPoint(r.right - 8, r.y + r.height / 2);
        return Boolean(hit && a.contains(hit));
      });
      expect(onTop, `${label} is above the pinned cells`).toBe(true);
    }
    await expectAccessibleBothThemes(page);
  });

  test("the navigation's collapse button is a button with its state, remembered by the server", async ({ page, account, signIn }) => {
    await signIn(account);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/main-dashboard");
    await ready(page);
    const button = page.getByTestId("nav-collapse");
    await expect(button).toHaveAttribute("aria-expanded", "true");
    // With JavaScript a fetcher posts the choice while the navigation narrows at once: leaving
    // before its answer could cancel the post (waiting for "networkidle" did not wait: the page had
    // reached it before the click). Without JavaScript the form posts and redirects.
    const posted = jsDisabled(test.info()) ? undefined : page.waitForResponse((r) => r.request().method() === "POST" && /^\/preferences(\.data)?$/.test(new URL(r.url()).pathname));
    await button.click();
    const sidenav = page.getByTestId("sidenav");
    await expect.poll(async () => (await sidenav.boundingBox())?.width).toBeLessThanOrEqual(80);
    await expect(page.getByTestId("nav-collapse")).toHaveAttribute("aria-expanded", "false");
    expect((await posted)?.ok() ?? true).toBe(true);
    await page.goto("/contacts");
    await ready(page);
    await expect.poll(async () => (await sidenav.boundingBox())?.width).toBeLessThanOrEqual(80);
    await expect(page.getByTestId("nav-collapse")).toHaveAttribute("aria-expanded", "false");
    await page.getByTestId("nav-collapse").click();
    await expect.poll(async () => (await sidenav.boundingBox())?.width).toBe(260);
  });

  test("the theme follows the system, and the switch is remembered by the server", async ({ page, account, signIn }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await signIn(account);
    await page.goto("/contacts");
    await ready(page);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const html = page.locator("html");
    await expect(html).not.toHaveAttribute("data-theme", /.+/);
    const darkBg = await bg();
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: "light" });
    const lightBg = await bg();
    expect(darkBg).not.toBe(lightBg);

    // The switch (in the profile menu): Dark, remembered in a cookie and rendered by the server.
    await page.getByTestId("profile-menu").locator("summary").click();
    await page.getByRole("button", { name: "Dark" }).click();
    await expect(html).toHaveAttribute("data-theme", "linkwise-dark");
    // Left at once (the post's answer may not be in: with JavaScript the switch writes its cookie itself).
    await page.goto("/entities");
    await expect(html).toHaveAttribute("data-theme", "linkwise-dark");
    expect(await bg()).toBe(darkBg);
    await expectAccessible(page);
    await page.goto("/entities?dialog=create");
    await ready(page);
    await expectAccessible(page);
    // Back to the system's choice: no data-theme.
    await page.goto("/entities");
    await ready(page);
    await page.getByTestId("profile-menu").locator("summary").click();
    await page.getByRole("button", { name: "System" }).click();
    await expect(html).not.toHaveAttribute("data-theme", /.+/);
  });

  test("a theme chosen and the page left before the post is answered is kept (JS)", async ({ page, account, signIn }) => {
    test.skip(jsDisabled(test.info()), "about the switch's own cookie");
    await signIn(account);
    await page.goto("/contacts");
    await ready(page);
    // The post never answers: its Set-Cookie cannot be what keeps the choice.
    await page.route(/\/preferences(\.data)?(\?.*)?$/, (route) => route.abort());
    await page.getByTestId("profile-menu").locator("summary").click();
    await page.getByRole("button", { name: "Dark" }).click();
    await page.goto("/entities");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "linkwise-dark");
  });
});
