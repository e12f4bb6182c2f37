import type { Page } from "@playwright/test";
import { createIamUser, expect, expectAccessible, holdHydration, jsDisabled, ready, test, toast } from "./fixtures.ts";

/*
 * The shell of every protected page (spec 1 §2 Top bar and Breadcrumbs, §6; spec 3 §2.2, §2.3;
 * spec 2 §2): side navigation, top bar, profile and notifications menus, breadcrumbs, the 404
 * page inside the shell, and the narrow-screen navigation. With and without JavaScript.
 */

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main navigation" });
const breadcrumb = (page: Page) => page.getByRole("navigation", { name: "Breadcrumb" });
const profileMenu = (page: Page) => page.getByTestId("profile-menu");
const notificationsMenu = (page: Page) => page.getByTestId("notifications-menu");
/** The rendered width of a nav item's name: 1px or less when only assistive technology gets it. */
const labelWidth = async (page: Page, name: string) => (await mainNav(page).getByText(name, { exact: true }).boundingBox())?.width ?? 0;

const groups: [string, [string, string][]][] = [
  [
    "Intelligent Edge",
    [
      ["Dashboards", "/main-dashboard"],
      ["Internet NIDs", "/routers"],
      ["Metro Ethernet NIDs", "/ethernet-devices"],
    ],
  ],
  [
    "Private Access",
    [
      ["Dashboard", "/dashboard"],
      ["App Services", "/app-services"],
      ["Endpoints", "/endpoints"],
      ["Service Nodes", "/service-nodes"],
      ["Endpoint Nodes", "/endpoint-nodes"],
      ["User Agents", "/user-agents"],
    ],
  ],
  [
    "Systems",
    [
      ["Entities", "/entities"],
      ["IAM", "/iam"],
      ["Contacts", "/contacts"],
      ["Operations", "/operations"],
      ["Change Logs", "/histories"],
      ["Support", "/support"],
      ["Billing", "/billing"],
    ],
  ],
];


test.describe("shell", () => {
  // These checks do not depend on what the account holds: the worker's stored session will do.
  test.use({ signedIn: true });
  // Many pages and axe scans per test.
  test.describe.configure({ timeout: 120_000 });

  test("side navigation: groups, links, current page, Billing for an account", async ({ page }, testInfo) => {
    await page.goto("/main-dashboard");
    await ready(page);
    const nav = mainNav(page);
    for (const [title, items] of groups) {
      const group = nav.getByRole("list", { name: title });
      await expect(nav.getByRole("heading", { name: title })).toBeAttached();
      for (const [label, href] of items) {
        await expect(group.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
      }
    }
    await expect(nav.getByRole("link", { name: "Dashboards", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.locator("[aria-current=page]")).toHaveCount(1);
    await expectAccessible(page);

    // Landmarks and the skip link.
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("main")).toHaveAttribute("id", "main");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    await expect(skip).toHaveAttribute("href", "#main");
    await page.keyboard.press("Tab");
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();

    // Following a link moves the current page. With JavaScript the router follows it in the same
    // document (the links are plain anchors, query-link.tsx ScreenLink), and following the link of
    // the page it is on again replaces the history entry, as <Link> does.
    const noJs = jsDisabled(testInfo);
    if (!noJs) await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const entries = noJs ? 0 : await page.evaluate(() => history.length);
    await nav.getByRole("link", { name: "App Services" }).click();
    await page.waitForURL("**/app-services");
    await expect(nav.getByRole("link", { name: "App Services" })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Dashboards", exact: true })).not.toHaveAttribute("aria-current", "page");
    if (!noJs) {
      expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
      expect(await page.evaluate(() => history.length)).toBe(entries + 1);
      await nav.getByRole("link", { name: "App Services" }).click();
      await expect(page.getByRole("heading", { name: "App Services", level: 1 })).toBeVisible();
      expect(await page.evaluate(() => ["sameDocument" in window, history.length])).toEqual([true, entries + 1]);
    }
    await expectAccessible(page);
  });

  test("breadcrumbs: Dashboard, Dashboards for the NID pages, the node pages for their groups", async ({ page }) => {
    const cases: [string, [string, string | null][]][] = [
      ["/main-dashboard", [["Dashboard", null]]],
      ["/app-services", [["Dashboard", "/main-dashboard"], ["App Services", null]]],
      ["/routers", [["Dashboards", "/main-dashboard"], ["Internet NIDs", null]]],
      ["/ethernet-devices", [["Dashboards", "/main-dashboard"], ["Metro Ethernet NIDs", null]]],
      ["/endpoint-node-groups", [["Dashboard", "/main-dashboard"], ["Endpoint Nodes", "/endpoint-nodes"], ["Manage Endpoint Node Groups", null]]],
      ["/service-node-groups", [["Dashboard", "/main-dashboard"], ["Service Nodes", "/service-nodes"], ["Manage Service Node Groups", null]]],
      ["/account", [["Dashboard", "/main-dashboard"], ["Settings", null]]],
      ["/profile", [["Dashboard", "/main-dashboard"], ["My Profile", null]]],
    ];
    for (const [path, crumbs] of cases) {
      await page.goto(path);
      const items = breadcrumb(page).getByRole("listitem");
      await expect(items).toHaveText(crumbs.map(([label]) => label));
      for (const [i, [label, href]] of crumbs.entries()) {
        if (href) await expect(items.nth(i).getByRole("link", { name: label })).toHaveAttribute("href", href);
        else await expect(items.nth(i).getByText(label)).toHaveAttribute("aria-current", "page");
      }
    }
    await expectAccessible(page);
    // The breadcrumb leads back: the groups page to its nodes page.
    await page.goto("/endpoint-node-groups");
    await ready(page);
    await breadcrumb(page).getByRole("link", { name: "Endpoint Nodes" }).click();
    await page.waitForURL("**/endpoint-nodes");
    await expectAccessible(page);
  });

  test("top bar: logo, PCAP Analyzer, FAQ and the notifications menu", async ({ page }) => {
    await page.goto("/app-services?page=2");
    await ready(page);
    const banner = page.getByRole("banner");
    await expect(banner.getByTestId("home-link")).toHaveAttribute("href", "/main-dashboard");
    await expect(banner.getByTestId("home-link")).toContainText("Linkwise");
    // No custom logo: no 'powered by' caption.
    await expect(banner.getByText(/powered by/)).toHaveCount(0);
    await expect(banner.getByRole("link", { name: "PCAP Analyzer" })).toHaveAttribute("href", "/pcap-analyzer?from=%2Fapp-services%3Fpage%3D2");
    await expect(banner.getByRole("link", { name: "FAQ" })).toHaveAttribute("href", "/support#faq");

    const menu = notificationsMenu(page);
    await expect(menu.getByText("No notifications.")).toBeHidden();
    await menu.locator("summary").click();
    await expect(menu.getByText("No notifications.")).toBeVisible();
    await expectAccessible(page);
    if (!jsDisabled(test.info())) {
      // Escape closes it and gives focus back to its button.
      await page.keyboard.press("Escape");
      await expect(menu.getByText("No notifications.")).toBeHidden();
      await expect(menu.locator("summary")).toBeFocused();
    }
  });
});

test.describe("shell, with an account of its own", () => {
  test("profile menu: Copy Account ID, Settings, My Profile, Billing, Logout", async ({ page, context, account, signIn, api }) => {
    const accountId = (await api(account, "GET", "list-account")).body.account_id as string;
    expect(accountId).toBeTruthy();
    await signIn(account);
    await page.goto("/main-dashboard");
    await ready(page);
    const menu = profileMenu(page);
    const summary = menu.locator("summary");
    await expect(summary).toContainText("Profile menu");
    await summary.click();
    await expect(menu.getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/account");
    await expect(menu.getByRole("link", { name: "My Profile" })).toHaveAttribute("href", "/profile");
    await expect(menu.getByRole("link", { name: "Billing" })).toHaveAttribute("href", "/billing");
    await expect(menu.getByRole("button", { name: "Logout" })).toBeVisible();
    await expectAccessible(page);

    if (jsDisabled(test.info())) {
      // Without JavaScript the id is shown as text to select and copy.
      await expect(menu.getByTestId("account-id")).toContainText(accountId);
    } else {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await menu.getByRole("button", { name: /Copy Account ID/ }).click();
      // One toast system (the toaster), and the menu closes so the toast does not cover it.
      await expect(page.getByTestId("toaster").getByText("Copied to clipboard!")).toBeVisible();
      await expect(menu.getByRole("link", { name: "Settings" })).toBeHidden();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(accountId);
      await expectAccessible(page);
      // A click outside closes the menu; Escape too.
      await page.getByRole("heading", { level: 1 }).click();
      await expect(menu.getByRole("link", { name: "Settings" })).toBeHidden();
      await summary.focus();
      await page.keyboard.press("Enter");
      await expect(menu.getByRole("link", { name: "Settings" })).toBeVisible();
      // Arrow keys move between the items, as in the row menus.
      await page.keyboard.press("ArrowDown");
      await expect(menu.getByRole("button", { name: /Copy Account ID/ })).toBeFocused();
      await page.keyboard.press("ArrowDown");
      await expect(menu.getByRole("link", { name: "Settings" })).toBeFocused();
      await page.keyboard.press("End");
      await expect(menu.getByRole("button", { name: "Logout" })).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(menu.getByRole("link", { name: "Settings" })).toBeHidden();
      await summary.click();
    }

    await menu.getByRole("link", { name: "Settings" }).click();
    await page.waitForURL("**/account");
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();

    await profileMenu(page).locator("summary").click();
    await profileMenu(page).getByRole("link", { name: "My Profile" }).click();
    await page.waitForURL("**/profile");
    await expect(page.getByRole("heading", { name: "My Profile", level: 1 })).toBeVisible();

    await profileMenu(page).locator("summary").click();
    await profileMenu(page).getByRole("button", { name: "Logout" }).click();
    await page.waitForURL("**/login");
    await expect(toast(page, "Logout successful!")).toBeVisible();
    await page.goto("/main-dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmain-dashboard$/);
  });

  test.describe(() => {
    // Does not depend on what the account holds: the worker's signed-in account will do.
    test.use({ signedIn: true });

    test("a menu opened before the page hydrates stays open once it has (JS)", async ({ page }) => {
      test.skip(jsDisabled(), "about hydration");
      // Open the menu (a <details>: no JavaScript needed) before the client entry runs, then let it run.
      const release = await holdHydration(page);
      await page.goto("/main-dashboard", { waitUntil: "domcontentloaded" });
      const menu = profileMenu(page);
      await menu.locator("summary").click();
      await expect(menu.getByRole("link", { name: "Settings" })).toBeVisible();
      release();
      await ready(page);
      await expect(menu.getByRole("link", { name: "Settings" })).toBeVisible();
      // A navigation still closes it.
      await menu.getByRole("link", { name: "My Profile" }).click();
      await expect(page).toHaveURL(/\/profile$/);
      await expect(menu.getByRole("link", { name: "Settings" })).toBeHidden();
    });
  });

  test("an IAM user sees no Billing", async ({ page, account, signIn, api }) => {
    const iam = await createIamUser(page, api, account);
    await signIn(iam);
    await page.goto("/main-dashboard");
    await ready(page);
    await expect(mainNav(page).getByRole("link", { name: "Entities" })).toBeAttached();
    await expect(mainNav(page).getByRole("link", { name: "Billing" })).toHaveCount(0);
    const menu = profileMenu(page);
    await expect(menu.locator("summary")).toContainText(iam.username);
    await menu.locator("summary").click();
    await expect(menu.getByRole("link", { name: "Settings" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Billing" })).toHaveCount(0);
    await expectAccessible(page);
  });

  test("an unknown page: Error 404 inside the shell, and back to the dashboard", async ({ page, account, signIn }) => {
    // Signed out, an unknown page is spec 1's 404 page too (issue 63 item 33); a known one asks to sign in.
    const signedOut = await page.goto("/no-such-page");
    expect(signedOut?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Error 404" })).toBeVisible();
    await expect(page.getByText("Page Not Found", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Dashboard" })).toHaveAttribute("href", "/main-dashboard");
    await expectAccessible(page);
    await page.goto("/endpoints");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fendpoints$/);

    await signIn(account);
    const response = await page.goto("/no-such-page/deeper?x=1");
    await ready(page);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Error 404" })).toBeVisible();
    await expect(page.getByText("Page Not Found", { exact: true }).last()).toBeVisible();
    await expect(page).toHaveTitle(/Page Not Found/);
    // The navigation stays.
    await expect(mainNav(page).getByRole("link", { name: "App Services" })).toBeAttached();
    await expectAccessible(page);
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL("**/main-dashboard");
    await expect(page.getByRole("heading", { name: "Dashboards", level: 1 })).toBeVisible();

    // From the navigation of the 404 page, client-side or not.
    await page.goto("/nothing-here");
    await ready(page);
    await mainNav(page).getByRole("link", { name: "Endpoints" }).click();
    await page.waitForURL("**/endpoints");
    await expect(page.getByRole("heading", { name: "Endpoints", level: 1 })).toBeVisible();
  });

  test("the navigation collapses to icons on wide screens", async ({ page, account, signIn }) => {
    await signIn(account);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/main-dashboard");
    await ready(page);
    const sidenav = page.getByTestId("sidenav");
    expect((await sidenav.boundingBox())?.width).toBe(260);
    expect(await labelWidth(page, "App Services")).toBeGreaterThan(40);
    // A real button with its state (a form posting to /preferences without JavaScript).
    await expect(page.getByTestId("nav-collapse")).toHaveAttribute("aria-expanded", "true");
    await page.getByTestId("nav-collapse").click();
    await expect.poll(async () => (await sidenav.boundingBox())?.width).toBeLessThanOrEqual(80);
    expect((await sidenav.boundingBox())?.width).toBeGreaterThanOrEqual(70);
    // Icons only, the names stay for assistive technology.
    await expect.poll(() => labelWidth(page, "App Services")).toBeLessThanOrEqual(1);
    await expect(mainNav(page).getByRole("link", { name: "App Services" })).toBeVisible();
    await expectAccessible(page);
    await mainNav(page).getByRole("link", { name: "Contacts" }).click();
    await page.waitForURL("**/contacts");
    await expect(mainNav(page).getByRole("link", { name: "Contacts" })).toHaveAttribute("aria-current", "page");
    // Remembered (a cookie the server renders with), with and without JavaScript.
    await page.reload();
    await ready(page);
    await expect.poll(async () => (await sidenav.boundingBox())?.width).toBeLessThanOrEqual(80);
  });

  test.describe(() => {
    // Does not depend on what the account holds: the worker's signed-in account will do.
    test.use({ signedIn: true });

    test("on a phone the navigation is a menu button, without horizontal scroll", async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of ["/main-dashboard", "/account", "/profile", "/endpoint-node-groups", "/no-such-page"]) {
        await page.goto(path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `horizontal scroll on ${path}`).toBeLessThanOrEqual(0);
      }
      await page.goto("/main-dashboard");
      await ready(page);
      // No permanent rail: the links are behind the top bar's Menu button.
      await expect(page.getByTestId("sidenav")).toBeHidden();
      await expect(mainNav(page)).toBeHidden();
      await expect(page.getByRole("link", { name: "PCAP Analyzer" })).toBeVisible();
      await expectAccessible(page);

      const menu = page.getByTestId("nav-menu").locator("summary");
      await menu.click();
      await expect.poll(() => labelWidth(page, "Metro Ethernet NIDs")).toBeGreaterThan(40);
      await expectAccessible(page);
      if (!jsDisabled(test.info())) {
        await page.keyboard.press("Escape");
        await expect(mainNav(page)).toBeHidden();
        await menu.click();
      }
      await mainNav(page).getByRole("link", { name: "User Agents" }).click();
      await page.waitForURL("**/user-agents");
      // Closed again after the navigation.
      await expect(mainNav(page)).toBeHidden();
      await menu.click();
      await expect(mainNav(page).getByRole("link", { name: "User Agents" })).toHaveAttribute("aria-current", "page");
    });
  });
});

// Issue 63 item 22: the help page and the post-mortem page (without JavaScript too) have their own
// breadcrumb under Dashboards, not "Page Not Found".
test("#63.22 the breadcrumbs of Dashboards help and of a post-mortem", async ({ page, signIn, api }) => {
  const demo = { username: "demo@linkwise.example", password: "demo-password-1" };
  await signIn(demo);
  await page.goto("/main-dashboard/help");
  await expect(breadcrumb(page)).toContainText("Dashboards help");
  await expect(breadcrumb(page)).not.toContainText("Page Not Found");
  const names = (await api(demo, "GET", "dashboard_get_device_names")).body as { cpe: { id: string }[]; metro: { id: string }[] };
  let target: string | null = null;
  for (const d of [...names.cpe, ...names.metro]) {
    const health = (await api(demo, "GET", `dashboard_get_wan_link_health?node_id=${d.id}&range=1w`)).body as { outage_history: { status: string; outage_id: string }[] };
    const down = health.outage_history.find((r) => r.status === "down");
    if (down) {
      target = `/main-dashboard/post-mortem/${down.outage_id}?device=${d.id}`;
      break;
    }
  }
  expect(target, "a demo device with an outage in the last week").not.toBeNull();
  await page.goto(target!);
  await expect(breadcrumb(page)).toContainText("Post-mortem Analysis");
  await expect(breadcrumb(page)).not.toContainText("Page Not Found");
  await expectAccessible(page);
});
