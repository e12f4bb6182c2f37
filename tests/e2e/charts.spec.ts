import type { Locator, Page } from "@playwright/test";
import { createAppService, expect, expectAccessible, jsDisabled, ready, test, type Api } from "./fixtures.ts";

/*
 * Charts at 320 px and the names they show (issue 63 items 16 and 21): the x labels never overlap
 * (without JavaScript the SVG's text as the browser lays it out, with it the canvas's as chart.js
 * drew it), the y labels stand beside the bars, the peak hour of a 1h range is an hour of a whole
 * day, endpoints of one name are told apart (Top Talkers by name, the dashboard's legends), a
 * long unbroken device name wraps on /sla, and the device picker stays in its card. axe in both
 * themes and nothing sideways at 320 px.
 */

const demo = { username: "demo@linkwise.example", password: "demo-password-1" };
type Account = { username: string; password: string };
type Box = { text: string; left: number; right: number };

const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const figure = (page: Page, title: string) => page.locator("figure.chart").filter({ has: page.locator("figcaption", { hasText: title }) });

/** The x labels a chart shows, left to right, with their boxes in the page: the SVG's visible text, or the canvas's as drawn. */
async function xLabels(fig: Locator, noJs: boolean): Promise<Box[]> {
  if (noJs) {
    const boxes = await fig.locator(".chart-x-tick text").evaluateAll((texts) =>
      texts
        .filter((t) => t.parentElement && getComputedStyle(t.parentElement).display !== "none")
        .map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent ?? "", left: r.left, right: r.right };
        }),
    );
    return boxes.sort((a, b) => a.left - b.left);
  }
  // The canvas comes when its figure is first pointed at (the interactive layer, chart.tsx): hover it.
  await fig.hover();
  const canvas = fig.locator("canvas[data-x-labels]");
  await expect(canvas).toHaveCount(1);
  const [drawn, at] = await Promise.all([canvas.getAttribute("data-x-labels"), canvas.boundingBox()]);
  return (JSON.parse(drawn ?? "[]") as Box[]).map((b) => ({ text: b.text, left: b.left + at!.x, right: b.right + at!.x })).sort((a, b) => a.left - b.left);
}

/** Every drawn chart of the page: some x labels, none over the next, all inside the window. */
async function expectLabelsApart(page: Page, noJs: boolean) {
  const figures = page.locator('figure.chart[data-chart-state="ok"]');
  const count = await figures.count();
  expect(count).toBeGreaterThan(0);
  const width = page.viewportSize()!.width;
  for (let i = 0; i < count; i++) {
    const fig = figures.nth(i);
    const title = await fig.locator("figcaption").textContent();
    // With JavaScript the canvas is drawn once chart.js has loaded; its labels follow its width.
    if (!noJs) {
      await fig.hover();
      await expect(fig.locator("canvas[data-x-labels]")).toHaveCount(1);
    }
    await expect(async () => {
      const labels = await xLabels(fig, noJs);
      expect(labels.length, `${title}: no x label`).toBeGreaterThan(0);
      for (const [k, b] of labels.entries()) {
        expect(b.left, `${title}: '${b.text}' leaves the window`).toBeGreaterThanOrEqual(0);
        expect(b.right, `${title}: '${b.text}' leaves the window`).toBeLessThanOrEqual(width);
        if (k > 0) expect(b.left, `${title}: '${labels[k - 1]!.text}' and '${b.text}' overlap: ${JSON.stringify(labels)}`).toBeGreaterThanOrEqual(labels[k - 1]!.right);
      }
    }).toPass({ timeout: 10_000 });
  }
}

async function firstCpe(api: Api): Promise<string> {
  const names = (await api(demo, "GET", "dashboard_get_device_names")).body as { cpe: { id: string }[] };
  return names.cpe[0]!.id;
}

async function createCpe(api: Api, account: Account, cpe_name: string): Promise<string> {
  const r = await api(account, "POST", "create_cpe", { cpe_name, prod_code: "BN-CPE-IP", site_address: "Rua Augusta 1, Lisboa", latitude: 38.71, longitude: -9.14 });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.cpe_id as string;
}

test("x labels at 320 px: fewer, never over each other, on the dashboards' time and bar charts", async ({ page, signIn, api }) => {
  test.setTimeout(180_000);
  const noJs = jsDisabled();
  await signIn(demo);
  const cpe = await firstCpe(api);
  await page.setViewportSize({ width: 320, height: 800 });
  for (const path of [
    "/dashboard?range=1h",
    "/dashboard?range=1w",
    `/main-dashboard?tab=utilization&device=${cpe}&range=1h`,
    `/main-dashboard?tab=health&device=${cpe}&range=1d`,
    `/main-dashboard?tab=visibility&device=${cpe}&range=1d`,
  ]) {
    await page.goto(path);
    await ready(page);
    await expectLabelsApart(page, noJs);
    await expect.poll(() => noSideways(page), path).toBe(true);
    await expectAccessible(page);
  }
  // Wide, the same charts label more times.
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto("/dashboard?range=1h");
  await ready(page);
  await expectLabelsApart(page, noJs);
});

test("Application Visibility: the y labels stand left of the first bar, at 1366 and 320 px", async ({ page, signIn, api }) => {
  const noJs = jsDisabled();
  await signIn(demo);
  await page.goto(`/main-dashboard?tab=visibility&device=${await firstCpe(api)}&range=1d`);
  await ready(page);
  for (const width of [1366, 320]) {
    await page.setViewportSize({ width, height: 900 });
    for (const title of ["Top Apps by Hits", "Top Apps by Bytes"]) {
      const fig = figure(page, title);
      if (noJs) {
        const labels = await fig.locator(".chart-y-labels text").evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect()).filter((r) => r.width > 0).map((r) => ({ left: r.left, right: r.right })));
        expect(labels.length).toBeGreaterThan(2);
        const bar = await fig.locator(".chart-series rect").first().boundingBox();
        // Every y label ends before the first bar begins (the unit's title is above the plot).
        for (const l of labels.slice(1)) expect(l.right, `${title} at ${width} px`).toBeLessThanOrEqual(bar!.x);
      } else {
        // chart.js keeps its y axis outside the plot; its x labels are checked like the SVG's.
        await fig.hover();
        await expect(fig.locator("canvas[data-x-labels]")).toHaveCount(1);
      }
    }
  }
});

test("WAN Link Utilization at 1h: the peak hour on a whole day's axis, as a span of an hour", async ({ page, signIn, api }) => {
  const noJs = jsDisabled();
  await signIn(demo);
  const cpe = await firstCpe(api);
  const u = (await api(demo, "GET", `dashboard_get_wan_link_utilization?node_id=${cpe}&range=1h`)).body as { peak_hours: { peak_hour_scatter_plot: Record<string, { timestamp: string }[]> } };
  const hours = Object.keys(u.peak_hours.peak_hour_scatter_plot).map(Number);
  // The last hour is one day's, or two days' when it crosses midnight (each day has its peak hour).
  const days = new Set(Object.values(u.peak_hours.peak_hour_scatter_plot).flat().map((p) => p.timestamp.slice(0, 10)));
  expect(hours.length).toBe(days.size);
  expect(hours.length).toBeLessThanOrEqual(2);
  const oneDay = hours.length === 1;
  const hh = (h: number) => `${String(h % 24).padStart(2, "0")}:00`;
  await page.goto(`/main-dashboard?tab=utilization&device=${cpe}&range=1h`);
  await ready(page);
  const peak = figure(page, "Daily Site Traffic Peak Hour (Mbps)");
  // The axis is the day's hours, not a moment from 08:00 to 08:00.
  const labels = (await xLabels(peak, noJs)).map((b) => b.text);
  expect(labels[0]).toBe("00:00");
  expect(labels).toContain("12:00");
  expect(new Set(labels).size).toBe(labels.length);
  const sentence = noJs ? await peak.locator("svg desc").textContent() : await peak.locator("canvas").getAttribute("aria-label");
  // Across midnight the sentence names the first day's hour; the table below lists both.
  if (oneDay) expect(sentence).toContain(`from ${hh(hours[0]!)} to ${hh(hours[0]! + 1)}.`);
  // The trend's one day: labels that differ, the day among them.
  const trend = (await xLabels(figure(page, "Peak Hour Throughput Trend (Mbps)"), noJs)).map((b) => b.text);
  expect(new Set(trend).size).toBe(trend.length);
  expect(trend.length).toBeGreaterThan(1);
  // The table says the day and the hour's span.
  await peak.getByRole("link", { name: "Show data" }).click();
  const spans = hours.map((h) => `${u.peak_hours.peak_hour_scatter_plot[String(h)]![0]!.timestamp.slice(0, 10)} ${hh(h)} to ${hh(h + 1)}`);
  await expect(peak.getByRole("table").locator("tbody tr")).toHaveCount(spans.length);
  const firstCells = await peak.getByRole("table").locator("tbody tr").evaluateAll((trs) => trs.map((tr) => tr.querySelector("td")?.textContent ?? ""));
  expect(firstCells.map((t) => t.trim()).sort()).toEqual(expect.arrayContaining(spans.sort()));
  await expectAccessible(page);
});

test("endpoints of one name: Top Talkers by name with the id, the dashboard's legend and table tell them apart", async ({ page, account, signIn, api }) => {
  const noJs = jsDisabled();
  const as = await createAppService(api, account, { app_service_name: "Analytics", location: "aws", region: "us-east-1", cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718", port: 443 });
  const ids: string[] = [];
  for (const name of ["Analytics VPC", "Analytics VPC", "Laptops"]) {
    const ep = await api(account, "POST", "create-endpoint", { ep_name: name, app_service_id: as, deployment: "agent" });
    expect(ep.status, JSON.stringify(ep.body)).toBe(200);
    ids.push(ep.body.ep_id as string);
  }
  const [a, b, laptops] = ids as [string, string, string];
  await signIn(account);

  await page.goto(`/app-services?selected=${as}&tab=top-talkers&range=1d`);
  await ready(page);
  const talkers = page.getByRole("table", { name: "Top talkers over 1d" });
  for (const [id, name] of [[a, `Analytics VPC (${a})`], [b, `Analytics VPC (${b})`], [laptops, "Laptops"]]) {
    const row = talkers.getByRole("row").filter({ hasText: id! });
    await expect(row.getByRole("cell").first()).toHaveText(name!);
  }
  if (noJs) {
    // The chart's bars are named the same way (the SVG's labels; its 'Show data' table).
    const fig = page.locator("figure.chart");
    await fig.getByText("Show data").click();
    await expect(fig.getByRole("table").getByRole("cell", { name: `Analytics VPC (${a})` })).toBeVisible();
    await expect(fig.locator(".chart-x-tick text", { hasText: `Analytics VPC (${b})` })).toHaveCount(1);
  }
  await expectAccessible(page);

  await page.goto("/dashboard?range=1h&data=endpoints-tx");
  await ready(page);
  const chart = figure(page, "Endpoints: transmit bytes per second");
  const headers = await chart.getByRole("table").getByRole("columnheader").allTextContents();
  expect(headers).toEqual(expect.arrayContaining([`Analytics VPC (${a}) (bytes/s)`, `Analytics VPC (${b}) (bytes/s)`, "Laptops (bytes/s)"]));
  if (noJs) expect(await chart.locator(".chart-legend li").allTextContents()).toEqual(expect.arrayContaining([`Analytics VPC (${a})`, `Analytics VPC (${b})`, "Laptops"]));
  await expectAccessible(page);
});

test("a long unbroken device name: /sla wraps it and the dashboards' device picker stays in its card, at 320 and 1366 px", async ({ page, account, signIn, api }) => {
  const name = "Unbrokendevicename".repeat(8);
  const id = await createCpe(api, account, name);
  await signIn(account);
  for (const width of [320, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    const month = new Date().toISOString().slice(0, 7);
    await page.goto(`/sla?scope=node_id:${id}&month=${month}`);
    await ready(page);
    await expect(page.getByTestId("sla-report").getByRole("heading", { level: 2 })).toContainText(name);
    expect(await noSideways(page), `/sla at ${width} px`).toBe(true);
    await expectAccessible(page);

    await page.goto(`/main-dashboard?tab=utilization&device=${id}&range=1h`);
    await ready(page);
    const select = page.getByRole("combobox", { name: "Device" });
    await expect(select).toHaveValue(id);
    const card = page.locator(".rounded-box").filter({ has: select }).last();
    const [s, c] = [await select.boundingBox(), await card.boundingBox()];
    expect(s!.x + s!.width, `the picker at ${width} px`).toBeLessThanOrEqual(c!.x + c!.width);
    expect(await noSideways(page), `/main-dashboard at ${width} px`).toBe(true);
    await expectAccessible(page);
  }
});

test("tooltips by keyboard: on a chart's canvas the arrow keys show chart.js' tooltip at each point and say its text", async ({ page, signIn }) => {
  test.skip(jsDisabled(), "the canvas is JavaScript's; without it a chart's values are in its 'Show data' table");
  await signIn(demo);
  await page.goto("/dashboard?range=1d");
  await ready(page);
  for (const fig of [page.locator("figure.chart").first(), page.locator("figure.chart").last()]) {
    // The SVG's box is the tab stop where the canvas will be: focusing it brings the canvas, with the focus.
    await fig.locator(".chart-server").focus();
    const canvas = fig.locator("canvas[data-x-labels]");
    await expect(canvas).toBeFocused();
    const said = fig.locator("[data-chart-tooltip]");
    await page.keyboard.press("Home");
    // The tooltip's title and its lines, "<series>: <value> <unit>" as the pointer's tooltip shows them.
    await expect(said).toHaveText(/\S.*: -?[\d,.]+ \S/);
    const first = await said.textContent();
    await page.keyboard.press("ArrowRight");
    await expect(said).not.toHaveText(first ?? "");
    await page.keyboard.press("Escape");
    await expect(said).toHaveText("");
  }
});
