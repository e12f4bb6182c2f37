import type { Page } from "@playwright/test";
import type { Cpe, Metro } from "../../platform/contract/devices.ts";
import { applyWithoutJs, expect, expectAccessible, jsDisabled, ready, test, type Api } from "./fixtures.ts";

/*
 * /main-dashboard (issue #26) and the map kit: the six tabs in the URL, Map View's entity filter
 * (a GET form), the world map of the account's CPE and metro devices — without JavaScript the
 * server's SVG with its table, with JavaScript Leaflet (no tile server) whose popups open from the
 * keyboard —, devices without coordinates counted, axe in both themes, 320 px.
 */

const demo = { username: "demo@linkwise.example", password: "demo-password-1" };
const TABS = ["Map View", "WAN Link Health", "WAN Link Utilization", "Application Visibility", "Application Performance Insights", "DDoS Protection Suite"];
const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

interface Device {
  id: string;
  name: string;
  prod: string;
  address: string;
  lat: number | null;
  lon: number | null;
  up: "up" | "down" | null;
  href: string;
}

async function devices(api: Api, account: { username: string; password: string }, entity?: string): Promise<Device[]> {
  const q = entity ? `?entity_name=${encodeURIComponent(entity)}` : "";
  const cpes: Cpe[] = (await api(account, "GET", `get_cpe${q}`)).body;
  const metros: Metro[] = (await api(account, "GET", `get_metro${q}`)).body;
  return [
    ...cpes.map((c) => ({
      id: c.cpe_id,
      name: c.cpe_name,
      prod: c.prod_code,
      address: c.site_address,
      lat: c.latitude,
      lon: c.longitude,
      up: c.op_state,
      href: `/routers?selected=${c.cpe_id}`,
    })),
    ...metros.map((m) => ({
      id: m.metro_id,
      name: m.metro_name,
      prod: m.prod_code,
      address: m.site_address,
      lat: m.latitude,
      lon: m.longitude,
      up: m.op_state,
      href: `/ethernet-devices?selected=${m.metro_id}`,
    })),
  ];
}
const located = (ds: Device[]) => ds.filter((d) => d.lat !== null && d.lon !== null);

const mapFigure = (page: Page) => page.locator("figure.map");

test("the demo estate: the SVG and its table without JavaScript, Leaflet markers and a keyboard popup with it", async ({ page, signIn, api }) => {
  const noJs = jsDisabled();
  await signIn(demo);
  const all = await devices(api, demo);
  expect(all.length).toBeGreaterThan(5);
  const down = all.filter((d) => d.up === "down").length;
  await page.goto("/main-dashboard");
  await ready(page);
  await expect(page.getByRole("heading", { level: 1, name: "Dashboards" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Dashboards" });
  await expect(tabs.getByRole("link")).toHaveText(TABS);
  await expect(tabs.getByRole("link", { name: "Map View" })).toHaveAttribute("aria-current", "page");
  const fig = mapFigure(page);
  await expect(page.getByTestId("map-description")).toHaveText(new RegExp(`^${all.length} devices, ${down} down`));

  // The table of the same points, reached by the skip link.
  const table = fig.getByRole("table");
  await expect(table.locator("tbody tr")).toHaveCount(all.length);
  for (const header of ["Name", "Product", "Id", "Address", "Latitude", "Longitude", "Status"])
    await expect(table.getByRole("columnheader", { name: header, exact: true })).toBeVisible();
  const first = all[0]!;
  const row = table.locator("tbody tr").filter({ hasText: first.id });
  await expect(row.getByRole("link", { name: first.name })).toHaveAttribute("href", first.href);
  await expect(row).toContainText(first.prod);
  await expect(row).toContainText(first.address);
  await expect(fig.getByRole("link", { name: /^Skip the map/ })).toHaveAttribute("href", "#devices-map-table");

  if (noJs) {
    const svg = fig.locator('svg[role="img"]');
    await expect(svg).toBeVisible();
    await expect(svg.locator("desc")).toHaveText(new RegExp(`^${all.length} devices, ${down} down`));
    await expect(svg.locator(".map-marker")).toHaveCount(located(all).length);
    await expect(svg.locator(".map-marker-down")).toHaveCount(located(all).filter((d) => d.up === "down").length);
    await expect(svg.locator(".map-marker title").first()).toHaveText(/\((BN-[A-Z0-9-]+)\): (Up|Down|N\/A)$/);
    // The countries: one SVG document of our own origin, shown with <use> (the browser caches it).
    const world = await svg.locator("use").getAttribute("href");
    expect(world).toMatch(/^\/map\/world\.svg\?v=[^#]+#world$/);
    const doc = await (await page.request.get(world!.split("#")[0]!)).text();
    expect(doc.match(/<path d=/g)?.length).toBeGreaterThan(170);
    return;
  }
  // With JavaScript: Leaflet, the countries from our own origin, no tile layer.
  // Leaflet comes when the map is first pointed at (the interactive layer): hover it.
  await fig.hover();
  const leaflet = fig.locator('[data-map="leaflet"]');
  await expect(leaflet).toHaveAttribute("data-map-ready", "true");
  await expect(leaflet.locator(".leaflet-tile-pane img")).toHaveCount(0);
  expect(await leaflet.locator(".leaflet-overlay-pane path").count()).toBeGreaterThan(170); // 177 countries, Antarctica left out
  const markers = leaflet.locator(".map-leaflet-marker");
  await expect(markers).toHaveCount(located(all).length);
  await expect(leaflet.locator(".map-leaflet-marker.map-marker-down")).toHaveCount(located(all).filter((d) => d.up === "down").length);
  // Keyboard: the table's 'Show on map' opens the marker's popup (its link takes the focus), Escape closes it.
  const target = located(all)[0]!;
  const show = table.getByRole("button", {
    name: `Show on map: ${target.name}`,
  });
  await show.focus();
  await page.keyboard.press("Enter");
  const popup = leaflet.locator(".leaflet-popup");
  await expect(popup).toBeVisible();
  await expect(popup).toContainText(target.name);
  await expect(popup).toContainText(target.prod);
  await expect(popup).toContainText(target.id);
  await expect(popup).toContainText(target.address);
  const link = popup.getByRole("link", { name: `Open ${target.name}` });
  await expect(link).toHaveAttribute("href", target.href);
  await expect(link).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(popup).toHaveCount(0);
  await expect(show).toBeFocused();
  // A click on a marker opens its popup too.
  const label = target.up === "up" ? "Up" : target.up === "down" ? "Down" : "N/A";
  await leaflet.locator(`.map-leaflet-marker[title="${target.name}: ${label}"]`).click({ force: true });
  await expect(popup).toBeVisible();
  await popup.getByRole("button", { name: /close/i }).click();
  await expect(popup).toHaveCount(0);
  // Zoom by keyboard too (Leaflet's +/-): the zoom-in control works.
  await leaflet.getByRole("button", { name: "Zoom in" }).click();
});

test("the entity filter (None plus the entity names) filters the devices, in the URL", async ({ page, signIn, api }) => {
  await signIn(demo);
  await page.goto("/main-dashboard?tab=map");
  await ready(page);
  const select = page.getByRole("combobox", { name: "Entity" });
  const names = (await api(demo, "GET", "get_entity_names")).body as string[];
  await expect(select.locator("option")).toHaveText(["None", ...names]);
  await expect(select).toHaveValue("");
  const entity = "EMEA Operations";
  const emea = await devices(api, demo, entity);
  expect(emea.length).toBeGreaterThan(0);
  await select.selectOption(entity);
  await applyWithoutJs(page, jsDisabled(), "Apply");
  await expect(page).toHaveURL(/\/main-dashboard\?entity=EMEA\+Operations$/);
  await expect(select).toHaveValue(entity);
  const table = mapFigure(page).getByRole("table");
  await expect(table.locator("tbody tr")).toHaveCount(emea.length);
  for (const d of emea) await expect(table).toContainText(d.id);
  await expect(page.getByTestId("map-description")).toHaveText(new RegExp(`^${emea.length} devices?, `));
  // None: every device again.
  await select.selectOption("");
  await applyWithoutJs(page, jsDisabled(), "Apply");
  await expect(table.locator("tbody tr")).toHaveCount((await devices(api, demo)).length);
});

test("devices without coordinates are counted and listed, not drawn; the other tabs say they are coming", async ({ page, account, signIn, api }) => {
  const make = async (body: Record<string, unknown>) => {
    const r = await api(account, "POST", "create_cpe", {
      prod_code: "BN-CPE-IP",
      site_address: "1 Test Street",
      ...body,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  await make({ cpe_name: "Lisbon", latitude: 38.72, longitude: -9.14 });
  await make({ cpe_name: "Nowhere" });
  await signIn(account);
  await page.goto("/main-dashboard");
  await ready(page);
  await expect(page.getByTestId("map-description")).toHaveText(/^2 devices, 0 down.*; 1 not on the map \(missing or invalid coordinates\)\.$/);
  const table = mapFigure(page).getByRole("table");
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table.locator("tbody tr").filter({ hasText: "Nowhere" })).toContainText("Missing");
  if (jsDisabled()) await expect(mapFigure(page).locator(".map-marker")).toHaveCount(1);
  else {
    await mapFigure(page).hover();
    await expect(mapFigure(page).locator(".map-leaflet-marker")).toHaveCount(1);
  }
  await expectAccessible(page);

  // Tabs 2–6 share the header: a device picker (this account's two devices), Info, Refresh, the range.
  for (const label of TABS.slice(1)) {
    await page.getByRole("navigation", { name: "Dashboards" }).getByRole("link", { name: label }).click();
    await expect(page).toHaveURL(/\?tab=(health|utilization|visibility|performance|ddos)$/);
    await expect(page.getByRole("combobox", { name: "Device" }).locator("option")).toHaveText([/^Lisbon \(cpe-/, /^Nowhere \(cpe-/]);
    await expect(page.getByRole("link", { name: `Info about ${label}` })).toBeVisible();
    await expect(page.getByRole("button", { name: "Refresh" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: "1h" })).toHaveAttribute("aria-current", "true");
  }
  await expectAccessible(page);
});

test("axe in both themes on the demo estate, and no sideways scroll at 320 px", async ({ page, signIn }) => {
  await signIn(demo);
  await page.goto("/main-dashboard?tab=map");
  await ready(page);
  // Leaflet comes when the map is first pointed at (the interactive layer): hover it.
  if (!jsDisabled()) await mapFigure(page).hover();
  if (!jsDisabled()) await expect(page.locator('[data-map="leaflet"]')).toHaveAttribute("data-map-ready", "true");
  await expectAccessible(page);
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto("/main-dashboard?tab=map&entity=APAC+Operations");
  await ready(page);
  await expect(mapFigure(page)).toBeVisible();
  expect(await noSideways(page)).toBe(true);
  await page.goto("/main-dashboard?tab=map");
  await ready(page);
  // Leaflet comes when the map is first pointed at (the interactive layer): hover it.
  if (!jsDisabled()) await mapFigure(page).hover();
  if (!jsDisabled()) await expect(page.locator('[data-map="leaflet"]')).toHaveAttribute("data-map-ready", "true");
  expect(await noSideways(page)).toBe(true);
  await expectAccessible(page);
});

test("the world is served from our own origin with a long cache", async ({ request }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "no page: one project is enough");
  const res = await request.get("/map/countries-110m.json?v=2.0.2");
  expect(res.status()).toBe(200);
  expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  const topo = await res.json();
  expect(topo.type).toBe("Topology");
  expect(topo.objects.countries.geometries.length).toBeGreaterThan(170);
});

test("screenshots at 1280 and 390 px in both themes", async ({ page, signIn }) => {
  test.skip(!process.env.MAP_SHOTS, "MAP_SHOTS=dir to take them");
  const dir = process.env.MAP_SHOTS!;
  await signIn(demo);
  const project = test.info().project.name;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/main-dashboard?tab=map");
      await ready(page);
      // Leaflet comes when the map is first pointed at (the interactive layer): hover it.
      if (!jsDisabled()) await mapFigure(page).hover();
      if (!jsDisabled()) await expect(page.locator('[data-map="leaflet"]')).toHaveAttribute("data-map-ready", "true");
      await page.screenshot({
        path: `${dir}/main-dashboard-${project}-${scheme}-${width}.png`,
        fullPage: true,
      });
      const box = (await mapFigure(page).boundingBox())!;
      await page.screenshot({
        path: `${dir}/main-dashboard-${project}-${scheme}-${width}-map.png`,
        fullPage: true,
        clip: {
          x: box.x,
          y: box.y,
          width: box.width,
          height: Math.min(box.height, 640),
        },
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Tabs 2–3: WAN Link Health and WAN Link Utilization (health helper, issue #26)

const RANGES = ["1h", "3h", "12h", "1d", "3d", "1w"];
interface Health {
  uptime_percent: number;
  health: unknown[];
  performance_tests: unknown[];
  outage_history: {
    timestamp: string;
    status: "up" | "down";
    self_diagnosis: string;
    outage_id: string;
  }[];
}

/** A demo device whose last week holds an outage (the fleet gives each ~3 a month), with its health over 1w. */
async function deviceWithOutage(api: Api): Promise<{ id: string; name: string; health: Health }> {
  const names = (await api(demo, "GET", "dashboard_get_device_names")).body as {
    cpe: { id: string; name: string }[];
    metro: { id: string; name: string }[];
  };
  for (const d of [...names.cpe, ...names.metro]) {
    const health: Health = (await api(demo, "GET", `dashboard_get_wan_link_health?node_id=${d.id}&range=1w`)).body;
    if (health.outage_history.some((r) => r.status === "down")) return { ...d, health };
  }
  throw new Error("no demo device had an outage in the last week");
}

const figure = (page: Page, title: string) => page.locator("figure.chart").filter({ has: page.locator("figcaption", { hasText: title }) });

/** Without JavaScript a chart is the server's SVG with its 'Show data' link (the table by URL); with it, chart.js draws a canvas. */
async function expectChart(page: Page, title: string) {
  const fig = figure(page, title);
  await expect(fig).toHaveCount(1);
  const state = await fig.getAttribute("data-chart-state");
  if (state !== "ok") return state;
  if (jsDisabled()) await expect(fig.locator('svg[role="img"]').first()).toBeVisible();
  else {
    // The canvas comes when its figure is first pointed at (the interactive layer): hover it.
    await fig.hover();
    await expect(fig.locator("canvas")).toBeVisible();
  }
  await expect(fig.getByRole("link", { name: "Show data" })).toBeVisible();
  return state;
}

/** Opens a chart's 'Show data' (by URL) and answers its table's rows. */
async function chartRows(page: Page, title: string) {
  await figure(page, title).getByRole("link", { name: "Show data" }).click();
  const region = page.getByRole("region", { name: `${title}: the data` });
  await expect(region).toBeVisible();
  return region.locator("tbody tr");
}

const n3 = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 3 });

test("WAN Link Health for a chosen device, every range: uptime, charts, path, traceroute dialog, outage history", async ({ page, signIn, api }) => {
  const noJs = jsDisabled();
  await signIn(demo);
  const device = await deviceWithOutage(api);
  await page.goto(`/main-dashboard?tab=health&device=${device.id}`);
  await ready(page);
  await expect(page.getByRole("combobox", { name: "Device" })).toHaveValue(device.id);
  for (const range of RANGES) {
    const uptime = async () => ((await api(demo, "GET", `get_availability?node_id=${device.id}&range=${range}`)).body as { uptime_percent: number }).uptime_percent;
    const before = await uptime();
    await page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: range, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`range=${range}`));
    await expect(page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: range, exact: true })).toHaveAttribute("aria-current", "true");
    const h: Health = (await api(demo, "GET", `dashboard_get_wan_link_health?node_id=${device.id}&range=${range}`)).body;
    // While the device is down, its uptime falls by the second (CI, 2026-11-29: the page said 44.687 %,
    // the platform 44.667 % a moment later): the page's figure lies between a read before it and one after.
    const shown = Number((await page.getByTestId("uptime-percent").textContent())!.replace(/[^0-9.]/g, ""));
    const after = await uptime();
    expect(shown).toBeGreaterThanOrEqual(Number(n3(Math.min(before, after)).replace(/,/g, "")) - 0.001);
    expect(shown).toBeLessThanOrEqual(Number(n3(Math.max(before, after)).replace(/,/g, "")) + 0.001);
    for (const title of ["WAN Link Health (%)", "WAN Link RTT (ms)", "WAN Link Packet Loss Rate (%)"]) expect(await expectChart(page, title)).toBe("ok");
    expect(await expectChart(page, "Daily Performance Assurance Test (Mbps)")).toBe("ok");
    const rows = page.getByRole("table", { name: "Outage History" }).locator("tbody tr");
    if (h.outage_history.length) await expect(rows).toHaveCount(h.outage_history.length);
    else await expect(page.getByText("No outage in this time range.")).toBeVisible();
  }
  // The week: each row links to its outage record; down rows have View Analysis.
  const table = page.getByRole("table", { name: "Outage History" });
  for (const header of ["Timestamp", "Status", "Self Diagnosis", "Post-mortem Analysis"]) await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
  const down = device.health.outage_history.find((r) => r.status === "down")!;
  const row = table.locator("tbody tr").filter({ hasText: down.self_diagnosis }).first();
  await expect(row.getByRole("link", { name: /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/ })).toHaveAttribute("href", `/outages/${down.outage_id}`);
  await expect(row.getByRole("link", { name: /^View Analysis/ })).toBeVisible();
  await expect(
    table
      .locator("tbody tr")
      .filter({ hasText: "Link restored" })
      .first()
      .getByRole("link", { name: /^View Analysis/ }),
  ).toHaveCount(0);

  // Path Visualization: the SVG (Current, Last outage) and Show → Traceroute Result.
  const route = (await api(demo, "GET", `dashboard_get_route?node_id=${device.id}`)).body as {
    up_hops: { hop: number; hostname: string | null; ip: string | null }[];
    down_hops: unknown[];
  };
  const path = page.getByRole("region", { name: "Path Visualization" });
  await expect(path.locator('svg[role="img"] desc')).toHaveText(new RegExp(`${route.up_hops.length} hops`));
  if (route.down_hops.length === 0) await expect(path.getByTestId("gateway-unreachable")).toHaveText("Last outage: The default gateway was unreachable.");
  await path.getByRole("link", { name: "Show the traceroute result" }).click();
  const dialog = page.getByRole("dialog", { name: "Traceroute Result" });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/dialog=traceroute/);
  const current = dialog.getByRole("region", { name: "Current" }).locator("li");
  await expect(current).toHaveCount(route.up_hops.length);
  // While the device is down (in its outages, ~3 a month: at random times in a run) its current path
  // stops where the outage's did, which may be before the first hop: then no hop is listed.
  const first = route.up_hops[0];
  if (first) {
    await expect(current.first()).toContainText(`Hop ${first.hop}`);
    await expect(current.first()).toContainText(first.hostname ?? "Unknown Host");
    await expect(current.first()).toContainText(first.ip ?? "No IP");
  }
  const lastOutage = dialog.getByRole("region", { name: "Last outage" });
  if (route.down_hops.length) await expect(lastOutage.locator("li")).toHaveCount(route.down_hops.length);
  else await expect(lastOutage).toContainText("Last outage: The default gateway was unreachable.");
  await expectAccessible(page);
  await dialog.getByRole("link", { name: "Close" }).last().click();
  await expect(dialog).toHaveCount(0);
  if (!noJs) expect(await noSideways(page)).toBe(true);
});

test("the post-mortem: streamed to the end with JavaScript, a page without; Download is a multi-page A4 analysis.pdf", async ({ page, signIn, api }, info) => {
  const noJs = jsDisabled();
  await signIn(demo);
  const device = await deviceWithOutage(api);
  const down = device.health.outage_history.find((r) => r.status === "down")!;
  const pm = (await api(demo, "GET", `dashboard_get_post_mortem?node_id=${device.id}&outage_id=${down.outage_id}`)).body as { markdown: string };
  const headings = [...pm.markdown.matchAll(/^#{1,3} (.+)$/gm)].map((m) => m[1]!);
  await page.goto(`/main-dashboard?tab=health&device=${device.id}&range=1w`);
  await ready(page);
  const viewAnalysis = page
    .getByRole("table", { name: "Outage History" })
    .locator("tbody tr")
    .filter({ hasText: down.self_diagnosis })
    .first()
    .getByRole("link", { name: /^View Analysis/ });
  // With JS the link opens the dialog once its part of the page has hydrated (before, it is the
  // no-JS page's link): a click under load could come first and land on the page instead.
  if (!noJs) await expect(viewAnalysis).toHaveAttribute("href", /dialog=post-mortem/);
  await viewAnalysis.click();
  let text;
  if (noJs) {
    await expect(page).toHaveURL(new RegExp(`/main-dashboard/post-mortem/${down.outage_id}\\?device=${device.id}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Post-mortem Analysis" })).toBeVisible();
    text = page.getByTestId("post-mortem-text");
  } else {
    const dialog = page.getByRole("dialog", { name: "Post-mortem Analysis" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`dialog=post-mortem&id=${down.outage_id}`));
    text = dialog.getByTestId("post-mortem-text");
    await expect(text).toHaveAttribute("data-done", "true", {
      timeout: 20_000,
    });
    await expect(dialog.getByTestId("post-mortem-status")).toHaveText("Analysis complete.");
  }
  // Rendered as markdown: every heading of the text, the path table, nothing left as raw syntax.
  for (const h of headings) await expect(text.getByRole("heading", { name: h })).toBeVisible();
  await expect(text.locator("table")).toHaveCount(1);
  await expect(text).not.toContainText("**");
  await expect(text).not.toContainText("|---");
  await expectAccessible(page);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe("analysis.pdf");
  const file = info.outputPath("analysis.pdf");
  await download.saveAs(file);
  const { execFileSync } = await import("node:child_process");
  const pdfinfo = execFileSync("pdfinfo", [file]).toString();
  expect(Number(/Pages:\s+(\d+)/.exec(pdfinfo)![1])).toBeGreaterThanOrEqual(2);
  expect(pdfinfo).toMatch(/Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);
  // Compared without spaces and hyphens: pdftotext joins a word broken at a line's end.
  const squeeze = (t: string) => t.replace(/[\s-]+/g, "");
  const pdfText = squeeze(execFileSync("pdftotext", [file, "-"]).toString());
  for (const h of headings) expect(pdfText).toContain(squeeze(h));
  expect(pdfText).toContain(squeeze("Appendix: the path today"));

  if (!noJs) {
    await page.getByRole("dialog", { name: "Post-mortem Analysis" }).getByRole("link", { name: "Close" }).last().click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  }
});

test("WAN Link Utilization for a chosen device, every range; the picker, Info and Refresh", async ({ page, signIn, api }) => {
  const noJs = jsDisabled();
  await signIn(demo);
  const names = (await api(demo, "GET", "dashboard_get_device_names")).body as {
    cpe: { id: string; name: string }[];
    metro: { id: string; name: string }[];
  };
  const [a, b] = [names.cpe[0]!, names.metro[0]!];
  await page.goto(`/main-dashboard?tab=utilization&device=${a.id}`);
  await ready(page);
  // Choose another device: Apply without JavaScript; with it the choice applies at once, and the search narrows the list.
  const select = page.getByRole("combobox", { name: "Device" });
  if (!noJs) {
    await page.getByRole("searchbox", { name: "Search devices" }).fill(b.name);
    await expect(select.locator("option", { hasText: b.name })).toHaveCount(1);
  }
  await select.selectOption(b.id);
  if (noJs) await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`tab=utilization&range=1h&device=${b.id}$`));
  await expect(select).toHaveValue(b.id);
  type Utilization = { utilization: { rx_avg_util: number }[] };
  const firstUtilization = async () => {
    const w = (await api(demo, "GET", `dashboard_get_wan_link_utilization?node_id=${b.id}&range=1w`)).body as Utilization;
    return { count: w.utilization.length, first: n3(Math.round(w.utilization[0]!.rx_avg_util * 100 * 1000) / 1000) };
  };
  for (const range of RANGES) {
    // The week's window slides with the clock: its first bucket read before and after the page drew it.
    const before = range === "1w" ? await firstUtilization() : null;
    await page.getByRole("navigation", { name: "Time range" }).getByRole("link", { name: range, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`range=${range}`));
    const u = (await api(demo, "GET", `dashboard_get_wan_link_utilization?node_id=${b.id}&range=${range}`)).body as {
      peak_hours: { peak_hour_scatter_plot: Record<string, unknown[]> };
    };
    expect(await expectChart(page, "Upload/Download Utilization (%)")).toBe("ok");
    expect(await expectChart(page, "Peak Hour Throughput Trend (Mbps)")).toBe("ok");
    expect(await expectChart(page, "Daily Site Traffic Peak Hour (Mbps)")).toBe("ok");
    if (range === "1w") {
      // The scatter's table: one row per day (its busiest hour); the utilization's: the ratios × 100.
      const days = Object.values(u.peak_hours.peak_hour_scatter_plot).flat().length;
      await expect(await chartRows(page, "Daily Site Traffic Peak Hour (Mbps)")).toHaveCount(days);
      // Read after the table is drawn (its 'Show data' is a new view): read before it, an hour
      // that turned between the read and the view put the window's next first bucket on the page.
      const rows = await chartRows(page, "Upload/Download Utilization (%)");
      const after = await firstUtilization();
      await expect(rows).toHaveCount(after.count);
      const either = [before!.first, after.first].map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
      await expect(rows.first().locator("td").nth(1)).toHaveText(new RegExp(`^(${either})$`));
    }
  }
  await expectAccessible(page);
  // Info: the tab's help section.
  await page.getByRole("link", { name: "Info about WAN Link Utilization" }).click();
  await expect(page).toHaveURL(/\/main-dashboard\/help#utilization$/);
  await expect(page.getByRole("heading", { level: 2, name: "WAN Link Utilization" })).toBeVisible();
  await expectAccessible(page);
  await page.goBack();
  await ready(page);
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(page.getByTestId("toaster").getByText("Refreshed Dashboards.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`device=${b.id}`));
});

test("Map View's count cards are the summary's; the device tabs at 320 px", async ({ page, signIn, api }) => {
  await signIn(demo);
  const cards = page.getByTestId("summary-card");
  // The fleet's clock may move a device up or down between the API's answer and the page's: the
  // two are compared again (both read anew) until they were read at one state of the fleet.
  await expect(async () => {
    const summary = (await api(demo, "GET", "dashboard_get_summary")).body as {
      global: Record<string, number>;
    };
    await page.goto("/main-dashboard");
    await ready(page);
    await expect(cards).toHaveCount(Object.keys(summary.global).length, { timeout: 2_000 });
    for (const [name, count] of Object.entries(summary.global)) await expect(cards.filter({ hasText: name })).toContainText(String(count), { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const device = await deviceWithOutage(api);
  await page.setViewportSize({ width: 320, height: 800 });
  for (const tab of ["health", "utilization"]) {
    await page.goto(`/main-dashboard?tab=${tab}&device=${device.id}&range=1w`);
    await ready(page);
    await expect(page.locator("figure.chart").first()).toBeVisible();
    expect(await noSideways(page), tab).toBe(true);
    await expectAccessible(page);
  }
  await page.goto(`/main-dashboard/post-mortem/${device.health.outage_history.find((r) => r.status === "down")!.outage_id}?device=${device.id}`);
  await ready(page);
  expect(await noSideways(page)).toBe(true);
  await expectAccessible(page);
});

test("screenshots of WAN Link Health and Utilization at 1280 and 390 px in both themes", async ({ page, signIn, api }) => {
  test.skip(!process.env.MAP_SHOTS, "MAP_SHOTS=dir to take them");
  const dir = process.env.MAP_SHOTS!;
  await signIn(demo);
  const device = await deviceWithOutage(api);
  const project = test.info().project.name;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const tab of ["map", "health", "utilization"]) {
        await page.goto(`/main-dashboard?tab=${tab}&device=${device.id}&range=1d`);
        await ready(page);
        await page.waitForTimeout(500);
        await page.screenshot({
          path: `${dir}/md-${tab}-${project}-${scheme}-${width}.png`,
          fullPage: true,
        });
      }
    }
  }
});
