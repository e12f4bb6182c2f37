import type { Page } from "@playwright/test";
import { expect, expectAccessible, jsDisabled, ready, test, type Api } from "./fixtures.ts";

/*
 * /main-dashboard tabs 4–6 (issue #26) for one device: Application Visibility (cards, two bar
 * charts, the Applications View table searched by the URL), Application Performance Insights (the
 * degraded-flow bar, the flows, a flow's report dialog and its PDF), DDoS Protection Suite (three
 * maps, the malicious-IP bars, the blocked traffic, the mitigation chart, the attack list).
 * Without JavaScript each chart and map is an SVG with its table; with it the canvases are drawn
 * and Leaflet shows the markers, whose popup opens from the keyboard. axe, 320 px.
 */

type Account = { username: string; password: string };
/** What sticks out sideways (nothing may at 320 px). */
const sideways = (page: Page) =>
  page.evaluate(() =>
    document.documentElement.scrollWidth <= window.innerWidth
      ? []
      : [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => `${e.tagName}.${e.className}`.slice(0, 80)).slice(0, 5),
  );
const SHOTS = process.env.E2E_SHOTS;

/** A CPE in Lisbon with blocking and mitigation on (the blocked map then has points). */
async function lisbonCpe(api: Api, account: Account) {
  const r = await api(account, "POST", "create_cpe", { cpe_name: "Lisbon shop", prod_code: "BN-CPE-IP", site_address: "Rua Augusta 1, Lisboa", latitude: 38.71, longitude: -9.14 });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const id: string = r.body.cpe_id;
  for (const call of ["toggle_cpe_malicious_ip_block", "toggle_cpe_denial_of_service"]) expect((await api(account, "POST", call, { cpe_id: id, enabled: true })).status).toBe(200);
  return id;
}

/** A new device's tab for a range, signed in, and the platform's answer of the tab's feed. */
async function openTab(page: Page, f: { api: Api; account: Account; signIn: (a: Account) => Promise<void> }, tab: string, call: string, range: string, device?: string) {
  const id = device ?? (await lisbonCpe(f.api, f.account));
  await f.signIn(f.account);
  const data = (await f.api(f.account, "GET", `${call}?node_id=${id}&range=${range}`)).body;
  await page.goto(`/main-dashboard?tab=${tab}&device=${id}&range=${range}`);
  await ready(page);
  return { noJs: jsDisabled(), id, data };
}

/** Every chart of the page: an SVG with its 'Show data' table without JavaScript, a drawn canvas with it. */
async function expectCharts(page: Page, titles: string[], noJs: boolean) {
  for (const title of titles) {
    const fig = page.locator("figure.chart").filter({ has: page.getByText(title, { exact: true }) });
    await expect(fig).toHaveCount(1);
    if (noJs) {
      await expect(fig.locator('svg[role="img"]').first()).toBeVisible();
      await fig.getByText("Show data").click();
      await expect(fig.getByRole("table")).toBeVisible();
    } else {
      // The canvas comes when its figure is first pointed at (the interactive layer): hover it.
      await fig.hover();
      const canvas = fig.locator("canvas");
      await expect(canvas).toBeVisible();
      // Drawn: some pixel is not transparent.
      await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 3 && v > 0))).toBe(true);
    }
  }
}

async function checkPhoneAndAxe(page: Page, name: string) {
  await expectAccessible(page);
  if (SHOTS) {
    test.setTimeout(240_000);
    // Looked at by hand (E2E_SHOTS=dir): desktop and phone, light and dark.
    for (const theme of ["light", "dark"]) {
      await page.context().addCookies([{ name: "theme", value: theme, url: page.url() }]);
      await page.reload();
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-${theme}-1280.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${SHOTS}/${name}-${theme}-390.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 320, height: 800 });
  // Canvases follow the new width on their resize observer: poll.
  await expect.poll(() => sideways(page)).toEqual([]);
}

test("Application Visibility: the cards, Top Apps by Hits and by Bytes, the Applications View searched by the URL", async ({ page, account, signIn, api }) => {
  const { noJs, id, data: v } = await openTab(page, { api, account, signIn }, "visibility", "dashboard_get_app_visibility", "1d");
  await expect(page.getByRole("link", { name: "Application Visibility", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("total-apps")).toContainText(String(v.total_apps));
  await expect(page.getByTestId("total-visits")).toContainText("Total Visits");
  await expect(page.getByTestId("total-bytes")).toContainText(/Total Bytes\s*[\d.,]+ (KB|MB|GB|TB)/);
  await expectCharts(page, ["Top Apps by Hits", "Top Apps by Bytes"], noJs);

  const view = page.getByRole("region", { name: `Applications View (${v.total_apps})` });
  await expect(view.getByRole("table").locator("tbody tr")).toHaveCount(Math.min(10, v.total_apps));
  // Search by the URL (GET form; with JS it submits as one types).
  const top = v.sessions[0].app_name as string;
  await view.getByRole("searchbox").fill(top);
  if (noJs) await view.getByRole("searchbox").press("Enter");
  await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(top).replace(/%20/g, "(\\+|%20)")}`));
  await expect(view.getByRole("table").locator("tbody tr").first()).toContainText(top);
  await expect(page).toHaveURL(/tab=visibility/);
  await expect(page).toHaveURL(new RegExp(`device=${id}`));
  await checkPhoneAndAxe(page, `visibility-${noJs ? "nojs" : "js"}`);
});

test("Application Performance Insights: the degraded share, the flows, a flow's report and its PDF", async ({ page, account, signIn, api }) => {
  const { noJs, id, data: f } = await openTab(page, { api, account, signIn }, "performance", "dashboard_get_app_flows", "3h");
  await expect(page.getByRole("heading", { name: "App Flows & Performance Analysis" })).toBeVisible();
  await expect(page.getByTestId("pcap-degraded")).toContainText("% degraded flows");
  await expect(page.getByTestId("pcap-degraded")).toContainText(/of [\d,]+ sessions not good/);
  const rows = page.getByRole("table", { name: "Sessions" }).locator("tbody tr");
  await expect(rows).toHaveCount(Math.min(50, f.summary.sessions));

  // The first row opens the PCAP analyzer's report dialog by URL.
  await rows.first().getByRole("link").first().click();
  await expect(page).toHaveURL(/dialog=report/);
  const dialog = page.getByRole("dialog", { name: "Flow Analysis Report" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Performance degradation")).toBeVisible();
  await expect(dialog.getByTestId("report-comment")).not.toBeEmpty();
  const download = dialog.getByRole("link", { name: /Download/ });
  const href = await download.getAttribute("href");
  expect(href).toMatch(/^\/main-dashboard\/flow-report\.pdf\?device=.+&range=3h&session=[0-9a-f]{16}&download=1$/);
  const pdf = await page.request.get(href!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
  await checkPhoneAndAxe(page, `performance-${noJs ? "nojs" : "js"}`);
  // An unknown flow: 'There is no test data.'
  await page.goto(`/main-dashboard?tab=performance&device=${id}&range=3h&session=0000000000000000&dialog=report`);
  await expect(page.getByRole("dialog", { name: "Flow Analysis Report" }).getByRole("alert")).toHaveText("There is no test data.");
});

test("DDoS Protection Suite: three maps with popups, the malicious-IP bars, blocked traffic, mitigation chart and attack list", async ({ page, account, signIn, api }) => {
  // The shortest range whose blocked map has points (a day has a few malicious sources, not always one).
  const id = await lisbonCpe(api, account);
  let range = "1d";
  for (const r of ["1d", "3d", "1w"]) {
    range = r;
    if ((await api(account, "GET", `dashboard_get_ddos?node_id=${id}&range=${r}`)).body.blocked.locations.length) break;
  }
  const { noJs, data: d } = await openTab(page, { api, account, signIn }, "ddos", "dashboard_get_ddos", range, id);
  const maps = [
    { id: "ddos-inbound", title: "Originating Traffic Geolocations", points: d.inbound.locations.length, node: d.inbound.node },
    { id: "ddos-outbound", title: "Destination Traffic Geolocations", points: d.outbound.locations.length, node: d.outbound.node },
    { id: "ddos-blocked", title: "Blocked Malicious IPs", points: d.blocked.locations.length, node: null },
  ];
  expect(maps[2]!.points).toBeGreaterThan(0);
  for (const m of maps) {
    const fig = page.locator("figure.map").filter({ has: page.getByText(m.title, { exact: true }) });
    await expect(fig.getByRole("table").locator("tbody tr")).toHaveCount(m.points);
    if (m.node) {
      const share = page.getByTestId(`${m.id}-share`);
      await expect(share).toContainText(`Total IPs: ${m.node.total_ips}`);
      await expect(share.getByRole("progressbar")).toBeVisible();
    }
    if (noJs) {
      await expect(fig.locator('svg[role="img"]')).toBeVisible();
      await expect(fig.locator('svg[role="img"] .map-marker')).toHaveCount(m.points);
      continue;
    }
    await fig.hover();
    const leaflet = fig.locator('[data-map="leaflet"]');
    await expect(leaflet).toHaveAttribute("data-map-ready", "true");
    await expect(leaflet.locator(".map-leaflet-marker")).toHaveCount(m.points);
  }
  if (!noJs) {
    // A popup from the keyboard: the table's 'Show on map' opens it, Escape closes it.
    const fig = page.locator("figure.map").first();
    const show = fig.getByRole("button", { name: /^Show on map: / }).first();
    await show.focus();
    await page.keyboard.press("Enter");
    const popup = fig.locator(".leaflet-popup");
    await expect(popup).toBeVisible();
    await expect(popup).toContainText(d.inbound.locations[0].city);
    await expect(popup).toContainText("IPs (score)");
    // Closed from the keyboard too.
    await popup.getByRole("button", { name: /close/i }).focus();
    await page.keyboard.press("Enter");
    await expect(popup).toHaveCount(0);
  }
  const blocked = page.getByRole("table", { name: "Blocked Malicious Traffic" });
  await expect(blocked.locator("tbody tr")).toHaveCount(d.blocked_history.length);
  await expect(blocked).toContainText(d.blocked_history[0].ip_address);
  const attacks = page.getByRole("table", { name: "DDoS Attack List" });
  await expect(attacks.locator("tbody tr")).toHaveCount(Math.max(1, d.dos_history.length));
  await expectCharts(page, ["DDoS Mitigation Traffic"], noJs);
  await checkPhoneAndAxe(page, `ddos-${noJs ? "nojs" : "js"}`);
});
