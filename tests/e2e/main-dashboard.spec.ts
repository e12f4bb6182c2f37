import type { Page } from "@playwright/test";
import type { Cpe, Metro } from "../../platform/contract/devices.ts";
import { expect, expectAccessible, jsDisabled, ready, test, type Api } from "./fixtures.ts";

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
    ...cpes.map((c) => ({ id: c.cpe_id, name: c.cpe_name, prod: c.prod_code, address: c.site_address, lat: c.latitude, lon: c.longitude, up: c.op_state, href: `/routers?selected=${c.cpe_id}` })),
    ...metros.map((m) => ({ id: m.metro_id, name: m.metro_name, prod: m.prod_code, address: m.site_address, lat: m.latitude, lon: m.longitude, up: m.op_state, href: `/ethernet-devices?selected=${m.metro_id}` })),
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
  for (const header of ["Name", "Product", "Id", "Address", "Latitude", "Longitude", "Status"]) await expect(table.getByRole("columnheader", { name: header, exact: true })).toBeVisible();
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
    expect(await svg.locator(".map-land path").count()).toBeGreaterThan(170);
    return;
  }
  // With JavaScript: Leaflet, the countries from our own origin, no tile layer.
  const leaflet = fig.locator('[data-map="leaflet"]');
  await expect(leaflet).toHaveAttribute("data-map-ready", "true");
  await expect(leaflet.locator(".leaflet-tile-pane img")).toHaveCount(0);
  expect(await leaflet.locator(".leaflet-overlay-pane path").count()).toBeGreaterThan(170); // 177 countries, Antarctica left out
  const markers = leaflet.locator(".map-leaflet-marker");
  await expect(markers).toHaveCount(located(all).length);
  await expect(leaflet.locator(".map-leaflet-marker.map-marker-down")).toHaveCount(located(all).filter((d) => d.up === "down").length);
  // Keyboard: the table's 'Show on map' opens the marker's popup (its link takes the focus), Escape closes it.
  const target = located(all)[0]!;
  const show = table.getByRole("button", { name: `Show on map: ${target.name}` });
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
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/main-dashboard\?tab=map&entity=EMEA\+Operations$/);
  await expect(select).toHaveValue(entity);
  const table = mapFigure(page).getByRole("table");
  await expect(table.locator("tbody tr")).toHaveCount(emea.length);
  for (const d of emea) await expect(table).toContainText(d.id);
  await expect(page.getByTestId("map-description")).toHaveText(new RegExp(`^${emea.length} devices?, `));
  // None: every device again.
  await select.selectOption("");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(table.locator("tbody tr")).toHaveCount((await devices(api, demo)).length);
});

test("devices without coordinates are counted and listed, not drawn; the other tabs say they are coming", async ({ page, account, signIn, api }) => {
  const make = async (body: Record<string, unknown>) => {
    const r = await api(account, "POST", "create_cpe", { prod_code: "BN-CPE-IP", site_address: "1 Test Street", ...body });
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
  else await expect(mapFigure(page).locator(".map-leaflet-marker")).toHaveCount(1);
  await expectAccessible(page);

  for (const label of TABS.slice(1)) {
    await page.getByRole("navigation", { name: "Dashboards" }).getByRole("link", { name: label }).click();
    await expect(page).toHaveURL(/\?tab=(health|utilization|visibility|performance|ddos)$/);
    await expect(page.getByRole("heading", { name: "Coming soon" })).toBeVisible();
    await expect(page.getByText(`${label} is not available yet`)).toBeVisible();
  }
  await expectAccessible(page);
});

test("axe in both themes on the demo estate, and no sideways scroll at 320 px", async ({ page, signIn }) => {
  await signIn(demo);
  await page.goto("/main-dashboard?tab=map");
  await ready(page);
  if (!jsDisabled()) await expect(page.locator('[data-map="leaflet"]')).toHaveAttribute("data-map-ready", "true");
  await expectAccessible(page);
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto("/main-dashboard?tab=map&entity=APAC+Operations");
  await ready(page);
  await expect(mapFigure(page)).toBeVisible();
  expect(await noSideways(page)).toBe(true);
  await page.goto("/main-dashboard?tab=map");
  await ready(page);
  if (!jsDisabled()) await expect(page.locator('[data-map="leaflet"]')).toHaveAttribute("data-map-ready", "true");
  expect(await noSideways(page)).toBe(true);
  await expectAccessible(page);
});

test("the world is served from our own origin with a long cache", async ({ request }) => {
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
      if (!jsDisabled()) await expect(page.locator('[data-map="leaflet"]')).toHaveAttribute("data-map-ready", "true");
      await page.screenshot({ path: `${dir}/main-dashboard-${project}-${scheme}-${width}.png`, fullPage: true });
      const box = (await mapFigure(page).boundingBox())!;
      await page.screenshot({ path: `${dir}/main-dashboard-${project}-${scheme}-${width}-map.png`, fullPage: true, clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 640) } });
    }
  }
});
