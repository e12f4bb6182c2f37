import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { createEntity, dialog, expect, expectAccessible, jsDisabled, open, openRowMenu, opStateNow, test, toast, type Api } from "./fixtures.ts";

/*
 * /ethernet-devices, Metro Ethernet NIDs (spec 3 §2.11, §4, §5, §7.2, §8, §9), with and without
 * JavaScript: Create Device for each product (the SFP choices only for BN-METRO-1000F, VLAN and
 * OAM ranges named by field), the Details tab (General, Interfaces with SFP Type only for the
 * fibre product) and Monitoring, every item of the row menu, the entity filter, and the
 * activation test (ITU-T Y.1564) followed to its end — with JavaScript over the event stream,
 * whose first connection is dropped and which reconnects; without, by the page reloading itself —
 * then its A4 PDF, whose text is read. axe on each new state; nothing scrolls sideways at 320 px.
 */

type Account = { username: string; password: string };

const table = (page: Page) => page.getByRole("table", { name: "Metro Ethernet NIDs" });

async function createMetro(api: Api, account: Account, body: Record<string, unknown>) {
  const res = await api(account, "POST", "create_metro", { shipping_address: "", site_address: "Kai 1, Hamburg", provider_service_id: "EVC-1", client_circuit_id: "CC-1", contact_name: "", contact_email: "", contact_phone: "", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.metro_id as string;
}

/** Opens the row's menu item (a dialog by URL) and answers the dialog. */
async function menuItem(page: Page, name: string, item: string, title = item): Promise<Locator> {
  await openRowMenu(page, name);
  await page.getByRole("link", { name: item, exact: true }).click();
  const d = dialog(page, title);
  await expect(d).toBeVisible();
  return d;
}

async function noSidewaysAt320(page: Page) {
  await page.setViewportSize({ width: 320, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("Create Device for each product, the Details and Monitoring tabs", async ({ page, account, signIn }, testInfo) => {
  const noJs = jsDisabled(testInfo);
  await signIn(account);
  await open(page, "/ethernet-devices");
  await expect(page).toHaveTitle(/^Metro Ethernet NIDs/);
  await expect(table(page).getByRole("cell", { name: "No data" })).toBeVisible();

  // Name and product code are required; a VLAN id out of 1–4094 is named.
  await page.getByRole("link", { name: "Create Device" }).click();
  let create = dialog(page, "Create Device");
  await expect(create.getByLabel("WAN management VLAN id")).toHaveValue("100");
  await create.getByLabel("WAN data VLAN id").fill("5000");
  await create.getByRole("button", { name: "Create" }).click();
  create = dialog(page, "Create Device");
  await expect(create.getByText("Metro name is required").first()).toBeVisible();
  await expect(create.getByText("Product code is required").first()).toBeVisible();
  await expect(create.getByText("WAN data VLAN id must be a whole number from 1 to 4094").first()).toBeVisible();
  await expectAccessible(page);

  for (const product of ["BN-METRO-100", "BN-METRO-1000", "BN-METRO-1000F"]) {
    if (product !== "BN-METRO-100") {
      await page.getByRole("link", { name: "Create Device" }).click();
      create = dialog(page, "Create Device");
    }
    await create.getByRole("textbox", { name: "Name", exact: true }).fill(`Metro ${product}`);
    await create.getByLabel("Product code").selectOption(product);
    await create.getByLabel("WAN data VLAN id").fill("200");
    await create.getByLabel("WAN CIR (Mbps)").fill("100");
    await create.getByLabel("WAN EIR (Mbps)").fill("20");
    // The SFP choices: only for BN-METRO-1000F (with JavaScript the fields follow the product).
    if (product === "BN-METRO-1000F") await create.getByLabel("WAN SFP").selectOption("sfp_smf");
    else if (!noJs) await expect(create.getByLabel("WAN SFP")).toHaveCount(0);
    await create.getByRole("button", { name: "Create" }).click();
    await expect(toast(page, "Metro device created.")).toBeVisible();
    // The new device is selected: its Details tab, General and Interfaces.
    const panel = page.getByRole("heading", { name: `Metro ${product}`, level: 2 });
    await expect(panel).toBeVisible();
    const interfaces = page.getByRole("table", { name: `Interfaces of Metro ${product}` });
    await expect(interfaces).toBeVisible();
    await expect(interfaces.getByRole("columnheader", { name: "SFP Type" })).toHaveCount(product === "BN-METRO-1000F" ? 1 : 0);
    await expect(page.locator("dt", { hasText: /^WAN CIR$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText("100 Mbps");
  }
  await expect(table(page).getByRole("row")).toHaveCount(4);
  await expectAccessible(page);

  // Monitoring: the WAN link charts, each a figure with its data behind 'Show data'.
  await page.getByRole("link", { name: "Monitoring", exact: true }).click();
  await expect(page.getByRole("img", { name: /Metro BN-METRO-1000F: WAN link health/ }).first()).toBeVisible();
  await expectAccessible(page);

});

test("Edit NID info and Edit OAM info", async ({ page, account, signIn, api }) => {
  await createMetro(api, account, { metro_name: "Metro BN-METRO-100", prod_code: "BN-METRO-100" });
  await signIn(account);
  await open(page, "/ethernet-devices");

  // Edit NID info: the name is required; saved.
  let edit = await menuItem(page, "Metro BN-METRO-100", "Edit NID info");
  await expect(edit.getByRole("textbox", { name: "Name", exact: true })).toHaveValue("Metro BN-METRO-100");
  // No SFP choice for a product other than BN-METRO-1000F, without JavaScript too (issue 63 item 22).
  await expect(edit.getByLabel("WAN SFP")).toHaveCount(0);
  await expect(edit.getByLabel("LAN SFP")).toHaveCount(0);
  await edit.getByRole("textbox", { name: "Name", exact: true }).fill("");
  await edit.getByRole("button", { name: "Save" }).click();
  edit = dialog(page, "Edit NID info");
  await expect(edit.getByText("Metro name is required").first()).toBeVisible();
  await edit.getByRole("textbox", { name: "Name", exact: true }).fill("Metro Renamed");
  await edit.getByLabel("Description").fill("Second circuit");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Updated metro info successfully.")).toBeVisible();
  await expect(table(page).getByRole("link", { name: "Metro Renamed" })).toBeVisible();

  // Edit OAM info: the CFM fields (with continuity check on) checked by IEEE 802.1ag's ranges.
  let oam = await menuItem(page, "Metro Renamed", "Edit OAM info");
  await oam.getByLabel("Continuity check (CCM)").check();
  await oam.getByLabel(/^MD level/).fill("9");
  await oam.getByLabel(/^MD name/).fill("customer-md");
  await oam.getByLabel(/^MA name/).fill("x".repeat(46));
  await oam.getByLabel(/^MEP id/).fill("8192");
  await oam.getByLabel(/^VLAN id/).fill("100");
  await oam.getByRole("button", { name: "Save" }).click();
  oam = dialog(page, "Edit OAM info");
  // Issue 63 item 23: an empty interval is asked for (not "must be one of: 3.3ms, …"); every message ends with its stop.
  await expect(oam.getByText("Choose a CCM interval.").first()).toBeVisible();
  await expect(oam.getByText("MD level must be a whole number from 0 to 7.").first()).toBeVisible();
  await expect(oam.getByText("MEP id must be a whole number from 1 to 8191.").first()).toBeVisible();
  await expect(oam.getByText("MA name must be 1–45 printable ASCII characters.").first()).toBeVisible();
  await expectAccessible(page);
  await oam.getByLabel("CCM interval").selectOption("1s");
  await oam.getByLabel(/^MD level/).fill("5");
  await oam.getByLabel(/^MA name/).fill("evc-4401");
  await oam.getByLabel(/^MEP id/).fill("101");
  await oam.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Updated OAM info successfully.")).toBeVisible();
  oam = await menuItem(page, "Metro Renamed", "Edit OAM info");
  await expect(oam.getByLabel(/^MEP id/)).toHaveValue("101");
  await expect(oam.getByLabel("Continuity check (CCM)")).toBeChecked();
});

test("the row menu: every item, and the entity filter", async ({ page, account, signIn, api }, testInfo) => {
  const noJs = jsDisabled(testInfo);
  await createEntity(api, account, "Harbour");
  const id = await createMetro(api, account, { metro_name: "Quay NID", prod_code: "BN-METRO-1000" });
  await createMetro(api, account, { metro_name: "Other NID", prod_code: "BN-METRO-100" });
  await signIn(account);
  // The menu's 14 items are taller than an 800 px window below the row (the kit's menu neither
  // flips nor scrolls then: reported in coord.md).
  await page.setViewportSize({ width: 1280, height: 1100 });
  await open(page, "/ethernet-devices");

  await openRowMenu(page, "Quay NID");
  for (const item of [
    "Edit NID info",
    "Edit OAM info",
    "Assign Entity",
    "Start Activation Test",
    "Retrieve Activation Test Report",
    "Edit Appflow",
    "Get Diagnostics",
    "Reset LAN Ports",
    "Reset Device",
    "Ping and Traceroute",
    "Generate Registration Token",
    "Track Shipping",
    "Announcement",
    "Delete",
  ]) {
    await expect(page.getByRole("link", { name: item, exact: true }).or(page.getByRole("button", { name: item, exact: true }))).toBeVisible();
  }
  await expectAccessible(page);
  await open(page, "/ethernet-devices");

  // Assign Entity, then the entity filter (None plus the names, in the URL).
  let d = await menuItem(page, "Quay NID", "Assign Entity");
  await d.getByRole("button", { name: "Assign Entity" }).click();
  d = dialog(page, "Assign Entity");
  await expect(d.getByText("Select Entity Name").first()).toBeVisible();
  await d.getByLabel("Entity Name").selectOption("Harbour");
  await d.getByRole("button", { name: "Assign Entity" }).click();
  await expect(toast(page, "Assigned entity successfully.")).toBeVisible();
  await page.getByLabel("Entity", { exact: true }).selectOption("Harbour");
  if (noJs) await page.getByRole("button", { name: "Apply", exact: true }).first().click();
  await expect(page).toHaveURL(/entity=Harbour/);
  await expect(table(page).getByRole("link", { name: "Other NID" })).toHaveCount(0);
  await expect(table(page).getByRole("link", { name: "Quay NID" })).toBeVisible();

  // Edit Appflow: a toggle dialog.
  d = await menuItem(page, "Quay NID", "Edit Appflow");
  await d.getByRole("switch", { name: /Appflow/ }).or(d.getByLabel(/Appflow/)).first().click();
  await d.getByRole("button", { name: "Confirm" }).click();
  await expect(toast(page, /Updated successfully|Appflow updated/)).toBeVisible();

  // Get Diagnostics: the device's answer, downloadable, or that there is none.
  d = await menuItem(page, "Quay NID", "Get Diagnostics");
  await expect(d.getByRole("link", { name: "Download" }).or(d.getByText("No diagnostic data available to download."))).toBeVisible();
  await d.getByRole("link", { name: /Cancel|Close/ }).first().click();

  // Reset LAN Ports: an interface must be chosen.
  d = await menuItem(page, "Quay NID", "Reset LAN Ports");
  await d.getByRole("button", { name: "Reset" }).click();
  d = dialog(page, "Reset LAN Ports");
  await expect(d.getByText("Please choose an interface first.").first()).toBeVisible();
  await d.getByLabel("Interface").selectOption({ index: 1 });
  await d.getByRole("button", { name: "Reset" }).click();
  await expect(toast(page, "Interface reset.")).toBeVisible();

  // Reset Device: a plain confirmation.
  d = await menuItem(page, "Quay NID", "Reset Device");
  await d.getByRole("button", { name: /Reset/ }).click();
  await expect(toast(page, "Device reset.")).toBeVisible();

  // Ping and Traceroute: the tool's output as text.
  d = await menuItem(page, "Quay NID", "Ping and Traceroute");
  await d.getByLabel("IP address").fill("192.0.2.1");
  await d.getByRole("button", { name: "Ping", exact: true }).click();
  await expect(dialog(page, "Ping and Traceroute").getByRole("region", { name: "Ping output" })).toContainText("192.0.2.1");
  await expectAccessible(page);

  // Generate Registration Token: shown once.
  await open(page, `/ethernet-devices?dialog=token&id=${id}`);
  d = dialog(page, "Generate Registration Token");
  await d.getByRole("button", { name: "Generate" }).click();
  await expect(dialog(page, "Generate Registration Token").getByLabel("Registration token")).not.toBeEmpty();

  // Track Shipping.
  await open(page, "/ethernet-devices");
  d = await menuItem(page, "Quay NID", "Track Shipping");
  // Issue 63 item 23: nothing to save is said, not "Shipping info updated.".
  await d.getByRole("button", { name: "Save" }).click();
  d = dialog(page, "Track Shipping");
  await expect(d.getByText("Enter a tracking number.").first()).toBeVisible();
  await d.getByLabel("Tracking number").fill("1Z999AA10123456784");
  await d.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Shipping info updated.")).toBeVisible();

  // Announcement: every field needed.
  d = await menuItem(page, "Quay NID", "Announcement");
  await d.getByRole("button", { name: "Create" }).click();
  d = dialog(page, "Announcement");
  await expect(d.getByText("Please fill out all fields.").first()).toBeVisible();
  // Issue 63 item 18: each missing field is marked with its message, and with JavaScript the
  // focus is on the error summary (it had fallen to <body>).
  for (const [label, message] of [["Date (UTC)", "Choose a date."], ["Time (UTC)", "Choose a time."], ["Duration (hours)", "Enter a duration."]]) {
    await expect(d.getByLabel(label!)).toHaveAttribute("aria-invalid", "true");
    await expect(d.getByLabel(label!)).toHaveAccessibleDescription(new RegExp(message!.replace(".", "\\.")));
  }
  if (!jsDisabled()) await expect(d.getByRole("alert").filter({ hasText: "There is a problem" })).toBeFocused();
  await expectAccessible(page);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await d.getByLabel("Date (UTC)").fill(tomorrow);
  await d.getByLabel("Time (UTC)").selectOption("02:00");
  await d.getByLabel("Duration (hours)").fill("2");
  await d.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, "Maintenance announcement created.")).toBeVisible();

  // Delete: typing the device id.
  d = await menuItem(page, "Quay NID", "Delete", "Delete Metro Ethernet NID");
  await d.getByLabel(/Type .* to confirm/).fill(id);
  await d.getByRole("button", { name: /Delete|Remove/ }).click();
  await expect(toast(page, "Metro device removed.")).toBeVisible();
  await expect(table(page).getByRole("link", { name: "Quay NID" })).toHaveCount(0);
});

test("the activation test: started, followed to its end, and its PDF report", async ({ page, account, signIn, api }, testInfo) => {
  test.setTimeout(150_000);
  const noJs = jsDisabled(testInfo);
  const id = await createMetro(api, account, { metro_name: "Test NID", prod_code: "BN-METRO-1000", wan_cir_mbps: 200, wan_eir_mbps: 50 });
  await signIn(account);
  await open(page, "/ethernet-devices");

  // No test yet.
  let d = await menuItem(page, "Test NID", "Retrieve Activation Test Report");
  await expect(d.getByText("There is no test data.")).toBeVisible();

  await open(page, "/ethernet-devices");
  d = await menuItem(page, "Test NID", "Start Activation Test");
  await expectAccessible(page);
  await d.getByRole("button", { name: "Start" }).click();
  d = dialog(page, "Start Activation Test");
  await expect(d.getByText("Please enter peer IP address first.").first()).toBeVisible();
  // L2: a MAC address and a VLAN id.
  await d.getByLabel("Test layer").selectOption("l2");
  await d.getByLabel("Peer MAC address").fill("not-a-mac");
  await d.getByLabel("VLAN id").fill("100");
  await d.getByRole("button", { name: "Start" }).click();
  d = dialog(page, "Start Activation Test");
  await expect(d.getByLabel("Peer MAC address")).toHaveAttribute("aria-invalid", "true");
  await d.getByLabel("Test layer").selectOption("l3");
  await d.getByLabel("Peer IP address").fill("192.0.2.10");
  // The service performance test: 15 minutes unless 2 or 24 hours are chosen (ITU-T Y.1564).
  await expect(d.getByLabel("Service performance test duration")).toHaveValue("900");
  await expect(d.getByLabel("Service performance test duration").locator("option")).toHaveText(["15 minutes (default)", "2 hours", "24 hours"]);

  // With JavaScript, the stream's first connection is cut: the client says so and reconnects.
  let attempts = 0;
  if (!noJs) {
    await page.route("**/activation-events?**", (route) => (++attempts === 1 ? route.abort("connectionreset") : route.continue()));
  }
  // A device down as the test starts (in its outages, ~3 a month: at random times in a run) fails it
  // at the link check, before the stream even opens: the network's state now says which way it goes.
  const opState = await opStateNow(api, account, id);
  await d.getByRole("button", { name: "Start" }).click();
  await expect(toast(page, "Activation test started")).toBeVisible();
  const live = dialog(page, "Activation Test");
  await expect(live).toBeVisible();
  await expect(page).toHaveURL(/dialog=activation-progress.*sse_id=sse-/);
  if (opState === "down") {
    await expect(live.getByRole("status")).toHaveText(/Test failed: FAIL/, { timeout: 30_000 });
    const sent = live.getByRole("list", { name: "Test messages" }).locator("li");
    await expect(sent).toHaveCount(3);
    await expect(sent.last()).toContainText("The link is down: the test cannot run");
    expect((await api(account, "GET", `get_metro_test_report?metro_id=${id}`)).body).toMatchObject({ status: "failed", result: "fail", detail: "The link is down: the test cannot run", configuration: [] });
    return;
  }
  if (noJs) {
    await expect(live.getByText(/This page reloads itself every 3 seconds/)).toBeVisible();
    await expectAccessible(page);
  } else {
    await expect(live.getByRole("status")).toHaveText(/Connection lost\. Reconnecting in 1 s/, { timeout: 10_000 });
    await expect(live.getByRole("status")).toHaveText("Following the test live.", { timeout: 10_000 });
  }
  const messages = live.getByRole("list", { name: "Test messages" }).locator("li");
  await expect(messages.filter({ hasText: "Step 1/6, 25 % of CIR (50 Mbps offered)" })).toBeVisible({ timeout: 20_000 });
  await expect(live.getByRole("status")).toHaveText(/Test (completed|failed): (PASS|FAIL)/, { timeout: 75_000 });
  // The start, two checks, six steps, then each minute of the 15-minute performance test (run 300 times faster here).
  await expect(messages).toHaveCount(24);
  await expect(messages.first()).toContainText("then a 15 min service performance test");
  await expect(messages.filter({ hasText: "Service performance test at CIR: 7 min of 15 min" })).toHaveCount(1);
  const steps = live.getByRole("table", { name: "Service configuration test" });
  await expect(steps.locator("tbody tr")).toHaveCount(6);
  await expect(steps).toContainText("CIR + EIR");
  await expect(live.locator("dt", { hasText: /^Availability$/ })).toBeVisible();
  if (!noJs) expect(attempts).toBeGreaterThanOrEqual(2);
  const verdict = (await live.getByRole("status").innerText()).match(/(PASS|FAIL)/)![1]!;
  await expectAccessible(page);

  // The report: A4 PDF, downloaded without JavaScript too; its text says the steps, figures and verdicts.
  const [download] = await Promise.all([page.waitForEvent("download"), live.getByRole("link", { name: "Download report (PDF)" }).click()]);
  const file = testInfo.outputPath("activation.pdf");
  await download.saveAs(file);
  expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  for (const words of ["Service Activation Test Report", "Test NID", "BN-METRO-1000", "192.0.2.10", "CIR 200 Mbps, EIR 50 Mbps", "25 % of CIR", "50 % of CIR", "75 % of CIR", "100 % of CIR", "CIR + EIR", "Overshoot, 125 % of CIR + EIR", "Service performance test", `Overall verdict: ${verdict}`, "Link speed", "Service performance test, 15 min of 15 min"]) {
    expect(text).toContain(words);
  }
  // Spec 3 §9: link speed, throughput and delay tables; and the test, run faster than real time here, says so.
  expect(text.replace(/\s+/g, " ")).toContain("Accelerated test: the simulated network ran this test faster than real time, the link checks and the service configuration test 4 times faster and the 15 min service performance test 300 times faster (it took 3 s).");
  expect(text).toMatch(/\b50\b/); // 25 % of a 200 Mbps CIR offered

  // Retrieve Activation Test Report: the same verdicts in the dialog.
  await open(page, "/ethernet-devices");
  d = await menuItem(page, "Test NID", "Retrieve Activation Test Report");
  await expect(d.getByText(verdict, { exact: true }).first()).toBeVisible();
  await expect(d.getByRole("table", { name: "Service configuration test" }).locator("tbody tr")).toHaveCount(6);
  await expect(d.getByRole("table", { name: "Link speed" }).locator("tbody tr")).toHaveCount(6 + 15);
  await expect(d.locator("dd", { hasText: /^15 min at CIR$/ })).toBeVisible();
  await expect(d.locator("dd", { hasText: "Accelerated: the simulated network ran the configuration test 4 times faster than real time and the 15 min service performance test 300 times faster than real time." })).toBeVisible();
  await expectAccessible(page);
  await noSidewaysAt320(page);
});

test("320 px: the list, the selected device's tabs and a dialog scroll only downwards", async ({ page, account, signIn, api }) => {
  const id = await createMetro(api, account, { metro_name: "Narrow NID", prod_code: "BN-METRO-1000F", wan_sfp: "sfp_mmf", lan_sfp: "sfp_mmf" });
  await signIn(account);
  await page.setViewportSize({ width: 320, height: 800 });
  for (const path of [`/ethernet-devices?selected=${id}`, `/ethernet-devices?selected=${id}&tab=monitoring`, `/ethernet-devices?dialog=edit-nid&id=${id}`, `/ethernet-devices?dialog=activation-test&id=${id}`]) {
    await open(page, path);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), path).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  }
});

test("a device rebooting after Reset Device fails the activation test at the link check", async ({ page, account, signIn, api }) => {
  test.setTimeout(90_000);
  const id = await createMetro(api, account, { metro_name: "Reboot NID", prod_code: "BN-METRO-100", wan_cir_mbps: 100, wan_eir_mbps: 0 });
  // Reset Device reboots it: down from now for 60–150 s (the fleet), so the link check fails every time.
  const reset = await api(account, "POST", "reset_node", { node_id: id, hard: true });
  expect(reset.status, JSON.stringify(reset.body)).toBe(200);
  const upAt = Date.parse(reset.body.up_at as string);
  expect(await opStateNow(api, account, id)).toBe("down");
  await signIn(account);
  await open(page, "/ethernet-devices");
  let d = await menuItem(page, "Reboot NID", "Start Activation Test");
  await d.getByLabel("Test layer").selectOption("l3");
  await d.getByLabel("Peer IP address").fill("192.0.2.10");
  await d.getByRole("button", { name: "Start" }).click();
  await expect(toast(page, "Activation test started")).toBeVisible();
  const live = dialog(page, "Activation Test");
  await expect(live.getByRole("status")).toHaveText(/Test failed: FAIL/, { timeout: 30_000 });
  const sent = live.getByRole("list", { name: "Test messages" }).locator("li");
  await expect(sent).toHaveCount(3);
  await expect(sent.last()).toContainText("The link is down: the test cannot run");
  expect((await api(account, "GET", `get_metro_test_report?metro_id=${id}`)).body).toMatchObject({ status: "failed", result: "fail", detail: "The link is down: the test cannot run", configuration: [] });
  await expectAccessible(page);
  // The report of the failed test says so too.
  await open(page, "/ethernet-devices");
  d = await menuItem(page, "Reboot NID", "Retrieve Activation Test Report");
  await expect(d).toContainText("The link is down: the test cannot run");
  expect(Date.now()).toBeLessThan(upAt);
});
