import type { Page } from "@playwright/test";
import { dialog, expect, expectAccessible, jsDisabled, open, ready, test, toast, type Account, type Api } from "./fixtures.ts";
import { checkCloudInit, checkOva, checkWireGuard, createGroup, createNode, downloaded, noSideways, rowAction } from "./nodes-helpers.ts";

/*
 * /endpoint-nodes (spec 2 §2, §4, §5, §7 Endpoint nodes, §8, §9; issue 28), with and without
 * JavaScript: Create Endpoint Node through every form-factor choice (a reload mid-step), the
 * files checked, every row action (secondary IPs, health, LAN interface, Delete refused while an
 * endpoint uses the node), the tabs and Monitoring.
 */

const table = (page: Page) => page.getByRole("table", { name: "Endpoint nodes" });
const createDialog = (page: Page) => dialog(page, "Create Endpoint Node");

async function startCreate(page: Page, name: string, group: { existing?: string; new?: string }) {
  await page.getByRole("link", { name: "Create Endpoint Node" }).click();
  const d = createDialog(page);
  await d.getByLabel("Node Name").fill(name);
  if (group.existing) {
    await d.getByLabel("An existing group").check();
    await d.getByLabel("Existing Node Group").selectOption({ label: group.existing });
  } else {
    await d.getByLabel("A new group").check();
    await d.getByLabel("New Node Group Name").fill(group.new!);
  }
  await d.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=form-factor/);
  // Issue 63 item 17: created at step 1, and said so then (the stepper used to move on silently).
  await expect(toast(page, "Endpoint Node created.")).toBeVisible();
  return new URL(page.url()).searchParams.get("id")!;
}

async function finish(page: Page) {
  await createDialog(page).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/step=finish/);
  await createDialog(page).getByRole("button", { name: "Finish" }).click();
  await expect(page).toHaveURL(/[?&]selected=/);
  await expect(createDialog(page)).toHaveCount(0);
}

async function onpremEndpoint(api: Api, account: Account, name: string, groupId: string, nodeId: string) {
  const as = await api(account, "POST", "create-app-service", {
    app_service_name: `${name} service`,
    location: "aws",
    region: "us-east-1",
    cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0123456789abcdef0",
    port: 443,
  });
  expect(as.status, JSON.stringify(as.body)).toBe(200);
  const ep = await api(account, "POST", "create-endpoint", { ep_name: name, app_service_id: as.body.app_service_id, deployment: "onprem", ep_node_group_id: groupId, ep_node_id: nodeId });
  expect(ep.status, JSON.stringify(ep.body)).toBe(200);
}

test.describe.configure({ timeout: 120_000 });

test("Create Endpoint Node: Hosted Node (default) with a reload, then Download OVA; the files checked", async ({ page, account, signIn }) => {
  await signIn(account);
  await open(page, "/endpoint-nodes");
  await expect(table(page).getByRole("cell", { name: "No data" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Manage Endpoint Node Groups" })).toHaveAttribute("href", "/endpoint-node-groups");
  await startCreate(page, "Branch Hosted", { new: "Branches" });
  await page.reload();
  // Filled once hydrated: what this checks is the step surviving a reload.
  await ready(page);
  let d = createDialog(page);
  await expect(d.getByRole("link", { name: "Hosted Node" })).toHaveAttribute("aria-current", "page");
  await d.getByLabel("VPC CIDR").fill("10.20.0.0/33");
  await d.getByLabel("Peer IP").fill("10.20.0.10");
  await d.getByLabel("Peer Prefix").fill("24");
  await d.getByRole("button", { name: "Save and generate VPN configuration" }).click();
  await expect(createDialog(page).getByRole("alert")).toContainText("VPC CIDR must be an IPv4 address with its prefix, such as 10.0.0.0/24: 10.20.0.0/33");
  await createDialog(page).getByLabel("VPC CIDR").fill("10.20.0.0/24");
  await createDialog(page).getByRole("button", { name: "Save and generate VPN configuration" }).click();
  await expect(toast(page, "VPN configuration generated.")).toBeVisible();
  const [vpn] = await Promise.all([page.waitForEvent("download"), createDialog(page).getByRole("link", { name: "Download VPN configuration" }).click()]);
  checkWireGuard((await downloaded(vpn)).toString("utf8"), "10.20.0.0/24");
  await finish(page);
  await expect(table(page).getByRole("row", { name: /Branch Hosted/ })).toContainText("Hosted Node");

  const ovaId = await startCreate(page, "Branch OVA", { existing: "Branches" });
  d = createDialog(page);
  await d.getByRole("link", { name: "Download OVA" }).click();
  await expect(d.locator("a[download]")).toHaveCount(0);
  await d.getByRole("button", { name: "Prepare OVA" }).click();
  await expect(toast(page, "OVA prepared.")).toBeVisible();
  await page.reload();
  await ready(page);
  const [ova] = await Promise.all([page.waitForEvent("download"), createDialog(page).locator("a[download]", { hasText: "Download OVA" }).click()]);
  await checkOva(page, await downloaded(ova), ovaId);
  await finish(page);
});

test("Create Endpoint Node: AWS AMI, Hardware Device, Skip for now", async ({ page, account, signIn, api }) => {
  await createGroup(api, account, "endpoint", "Branches");
  await signIn(account);
  await open(page, "/endpoint-nodes");
  const amiId = await startCreate(page, "Branch AMI", { existing: "Branches" });
  await createDialog(page).getByRole("link", { name: "AWS AMI" }).click();
  await createDialog(page).getByRole("button", { name: "Generate cloud-init data" }).click();
  checkCloudInit(await createDialog(page).getByLabel("Cloud-init data").inputValue(), amiId);
  const [yaml] = await Promise.all([page.waitForEvent("download"), createDialog(page).getByRole("link", { name: "Download cloud-init data" }).click()]);
  checkCloudInit((await downloaded(yaml)).toString("utf8"), amiId);
  await finish(page);

  await startCreate(page, "Branch HW", { existing: "Branches" });
  await createDialog(page).getByRole("link", { name: "Hardware Device" }).click();
  if (!jsDisabled()) await expect(createDialog(page).getByRole("button", { name: "Save" })).toBeDisabled();
  await createDialog(page).getByLabel("Shipping Address").fill("9 Harbour Lane");
  await createDialog(page).getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Form Factor saved.")).toBeVisible();
  await finish(page);

  await startCreate(page, "Branch Later", { existing: "Branches" });
  await createDialog(page).getByRole("link", { name: "Skip for now" }).click();
  await finish(page);
  await expect(table(page).getByRole("row", { name: /Branch Later/ })).toContainText("Not set (skipped)");
  await expect(table(page).getByRole("row", { name: /Branch HW/ })).toContainText("Hardware Device");
  await expect(table(page).getByRole("row", { name: /Branch AMI/ })).toContainText("AWS AMI");
  const d = await rowAction(page, "Branch Later", "Manage Form Factor", "Create Endpoint Node");
  await expect(d.getByRole("link", { name: "Skip for now" })).toBeVisible();
});

test("row actions: secondary IPs, health, LAN interface, Delete; tabs and Monitoring", async ({ page, account, signIn, api }) => {
  const groupId = await createGroup(api, account, "endpoint", "Branches");
  const used = await createNode(api, account, "endpoint", "Branch Used", groupId);
  await createNode(api, account, "endpoint", "Branch Spare", groupId);
  await onpremEndpoint(api, account, "Office LAN", groupId, used);
  const primary = (await api(account, "GET", `get-endpoint-node-detail?ep_node_id=${used}`)).body.primary_ip as string;
  await signIn(account);
  await open(page, "/endpoint-nodes");

  // Add Secondary IPs: each bad kind named, then added.
  await rowAction(page, "Branch Used", "Add Secondary IPs");
  await expectAccessible(page);
  const ips = (value: string) => dialog(page, "Add Secondary IPs").getByLabel("Secondary IPs").fill(value);
  const add = () => dialog(page, "Add Secondary IPs").getByRole("button", { name: "Add" }).click();
  await ips(`10.9.0.1, 10.9.0.999, 10.9.0.1, ${primary}`);
  await add();
  const alert = dialog(page, "Add Secondary IPs").getByRole("alert");
  await expect(alert).toContainText("Not a valid IPv4 address: 10.9.0.999");
  await expect(alert).toContainText("Entered more than once: 10.9.0.1");
  await expect(alert).toContainText(`The node's primary IP cannot be a secondary IP: ${primary}`);
  await ips("10.9.0.1, 10.9.0.2");
  await add();
  await expect(toast(page, "Secondary IPs added.")).toBeVisible();

  // Test Node Health.
  let d = await rowAction(page, "Branch Used", "Test Node Health");
  await expect(d.getByRole("list", { name: "Health checks" }).getByRole("listitem")).toHaveCount(6);
  await d.getByRole("link", { name: "Close" }).last().click();

  // Configure LAN Interface: the toggle-dialog rule, an IPv4 address with prefix.
  d = await rowAction(page, "Branch Used", "Configure LAN Interface");
  const confirm = d.getByRole("button", { name: "Confirm" });
  if (jsDisabled()) {
    await confirm.click();
    await expect(dialog(page, "Configure LAN Interface").getByRole("alert")).toContainText("The value is unchanged.");
  } else {
    await expect(confirm).toBeDisabled();
  }
  await dialog(page, "Configure LAN Interface").getByRole("switch", { name: "LAN interface" }).check();
  await dialog(page, "Configure LAN Interface").getByLabel("Primary IPv4 Address").fill("192.168.1.1");
  await dialog(page, "Configure LAN Interface").getByRole("button", { name: "Confirm" }).click();
  await expect(dialog(page, "Configure LAN Interface").getByRole("alert")).toContainText("LAN interface address must be an IPv4 address with its prefix, such as 192.168.1.1/24: 192.168.1.1");
  await dialog(page, "Configure LAN Interface").getByLabel("Primary IPv4 Address").fill("192.168.1.1/24");
  await dialog(page, "Configure LAN Interface").getByRole("button", { name: "Confirm" }).click();
  await expect(toast(page, "LAN Interface enabled.")).toBeVisible();

  // Tabs: Details, Endpoints, Monitoring.
  await table(page).getByRole("link", { name: "Branch Used" }).click();
  await expect(page.getByText("10.9.0.1, 10.9.0.2")).toBeVisible();
  await expect(page.getByText("Enabled (192.168.1.1/24)")).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Endpoint node Branch Used" });
  await tabs.getByRole("link", { name: "Endpoints" }).click();
  await expect(page.getByRole("table", { name: "Endpoints of Branch Used" })).toContainText("Office LAN");
  await tabs.getByRole("link", { name: "Monitoring" }).click();
  await expect(page.locator("figure.chart")).toHaveCount(4);
  await expectAccessible(page);
  await page.locator("#node-fan").getByRole("link", { name: "Show data" }).click();
  await expect(page.locator("#node-fan").getByRole("table")).toBeVisible();
  await page.setViewportSize({ width: 320, height: 800 });
  await page.reload();
  await ready(page);
  expect(await noSideways(page)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });

  const csv = await page.request.get("/endpoint-nodes/export.csv");
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain("10.9.0.1, 10.9.0.2");

  // Delete: refused while an endpoint uses the node (the platform's list), then a spare one.
  d = await rowAction(page, "Branch Used", "Delete", "Delete Endpoint Node");
  await d.getByLabel("Type delete to confirm").fill("delete");
  await d.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog(page, "Delete Endpoint Node").getByRole("alert")).toContainText("Office LAN");
  await page.goto("/endpoint-nodes");
  d = await rowAction(page, "Branch Spare", "Delete", "Delete Endpoint Node");
  await d.getByLabel("Type delete to confirm").fill("delete");
  await d.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(toast(page, "Endpoint Node removed.")).toBeVisible();
  await expect(table(page).getByRole("link", { name: "Branch Spare" })).toHaveCount(0);
});
