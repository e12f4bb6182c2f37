import type { Page } from "@playwright/test";
import { createAppService, dialog, expect, expectAccessible, jsDisabled, openRowMenu, test, toast } from "./fixtures.ts";

/*
 * The App Services screen (spec 1 §2, §5, §7 'App services', §8): create by deployment (and a
 * refusal), the row menu, the tabs, hostings, approve/reject. JavaScript on and off; axe on each
 * new state.
 */

const table = (page: Page) => page.getByRole("table", { name: "App Services" });
const pls = "/subscriptions/0f1e2d3c-4b5a-6978-8695-a4b3c2d1e0f9/resourceGroups/rg/providers/Microsoft.Network/privateLinkServices/pls-e2e";

async function openCreate(page: Page, deployment: string) {
  await page.goto(`/app-services?dialog=create&deployment=${deployment}`);
  return dialog(page, "Create App Service");
}

test("create one App Service of each deployment; a refusal first", async ({ page, account, signIn }, testInfo) => {
  const noJs = jsDisabled(testInfo);
  await signIn(account);
  await page.goto("/app-services");
  await expect(table(page).getByRole("cell", { name: "No data" })).toBeVisible();
  await expect(page.getByText("Nothing selected.")).toBeVisible();
  await expectAccessible(page);

  // aws: Create waits for the required fields (with JS); without JS the server refuses.
  let create = await openCreate(page, "aws");
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("CRM");
  if (noJs) {
    await create.getByRole("button", { name: "Create" }).click();
    create = dialog(page, "Create App Service");
    await expect(create.getByText("Region is required").first()).toBeVisible();
    await expect(create.getByText("Port is required").first()).toBeVisible();
    await expectAccessible(page);
  } else {
    await expect(create.getByRole("button", { name: "Create" })).toBeDisabled();
  }
  await create.getByLabel("Region").selectOption("us-east-1");
  await create.getByLabel("Endpoint Service Name").fill("my-service");
  await create.getByLabel("Port").fill("443");
  await expect(create.getByRole("button", { name: "Create" })).toBeEnabled();
  await create.getByRole("button", { name: "Create" }).click();
  create = dialog(page, "Create App Service");
  await expect(create.getByText(/Endpoint service name must look like/).first()).toBeVisible();
  await create.getByLabel("Endpoint Service Name").fill("com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718");
  await create.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, "App Service created.")).toBeVisible();
  await expect(table(page).getByRole("row", { name: /CRM/ })).toContainText("AWS");

  // onprem: no node group yet, so the dialog offers to create one first.
  create = await openCreate(page, "onprem");
  await expect(create.getByText("No Service Node Groups found.")).toBeVisible();
  await create.getByLabel("New Service Node Group name").fill("Core");
  await create.getByRole("button", { name: "Create Service Node Group" }).click();
  create = dialog(page, "Create App Service");
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("Wiki");
  await create.getByLabel("FQDN").fill("wiki.corp.example");
  await create.getByLabel("Service Node Group").selectOption({ label: "Core" });
  await create.getByLabel("Protocol").selectOption("ftp");
  await create.getByLabel("Port").fill("21");
  await expectAccessible(page);
  await create.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, "App Service created.")).toBeVisible();
  await expect(table(page).getByRole("row", { name: /Wiki/ })).toContainText("FTP-Passive");
});

test("create azure and network App Services", async ({ page, account, signIn, api }) => {
  await api(account, "POST", "create-service-node-group", { service_node_group_name: "Core" });
  await signIn(account);
  let create = await openCreate(page, "aws");
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("ERP");
  // Switching the deployment keeps what was typed (the URL's draft), as Endpoints' create does.
  await create.getByRole("button", { name: "Azure", exact: true }).click();
  create = dialog(page, "Create App Service");
  await expect(create.getByRole("button", { name: "Azure", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(create.getByRole("textbox", { name: "Name", exact: true })).toHaveValue("ERP");
  await create.getByLabel("Region").selectOption("westeurope");
  await create.getByLabel("Protocol").selectOption("udp");
  await create.getByLabel("Port").fill("8443");
  await create.getByLabel(/^Private Link Service Id/).fill(pls);
  await create.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, "App Service created.")).toBeVisible();

  create = await openCreate(page, "network");
  await create.getByRole("textbox", { name: "Name", exact: true }).fill("Branch LAN");
  await create.getByLabel("Real Subnets").fill("10.20.1.0/24, 10.20.2.0/24");
  await create.getByLabel("Service Node Group").selectOption({ label: "Core" });
  await create.getByRole("checkbox", { name: "Address translation" }).check();
  await create.getByRole("checkbox", { name: "BGP", exact: true }).check();
  await create.getByLabel("Local ASN (with BGP)").fill("65001");
  await create.getByLabel("Peer ASN (with BGP)").fill("4200000000");
  await create.getByLabel("Peer IP (with BGP)").fill("192.0.2.1");
  await create.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, "App Service created.")).toBeVisible();
  await expect(table(page).getByRole("row")).toHaveCount(3);
  // The new one is selected, on Details: the default pool {ip}/16 was used.
  await expect(page.getByText("10.20.0.0/16")).toBeVisible();
  await expectAccessible(page);
});

test("row menu, tabs and hostings of one App Service", async ({ page, account, signIn, api }) => {
  const id = await createAppService(api, account, {
    app_service_name: "Billing",
    location: "aws",
    region: "us-east-1",
    cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718",
    port: 443,
  });
  await signIn(account);
  await page.goto("/app-services");

  await openRowMenu(page, "Billing");
  await page.getByRole("link", { name: "Edit Name" }).click();
  await dialog(page, "Edit Name").getByRole("textbox", { name: "Name", exact: true }).fill("Billing API");
  await dialog(page, "Edit Name").getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "App Service name updated.")).toBeVisible();

  await page.goto(`/app-services?dialog=describe&id=${id}`);
  await dialog(page, "Edit Description").getByLabel("Description").fill("Invoices");
  await dialog(page, "Edit Description").getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "App Service description updated.")).toBeVisible();

  await page.goto(`/app-services?dialog=edit&id=${id}`);
  await dialog(page, "Edit App Service").getByLabel("Port").fill("70000");
  await dialog(page, "Edit App Service").getByRole("button", { name: "Save" }).click();
  await expect(dialog(page, "Edit App Service").getByText("Port must be a whole number from 1 to 65535").first()).toBeVisible();
  await dialog(page, "Edit App Service").getByLabel("Port").fill("8443");
  await dialog(page, "Edit App Service").getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "App Service updated.")).toBeVisible();

  await page.goto(`/app-services?dialog=contacts&id=${id}`);
  await expect(dialog(page, "Setup Contacts").getByText("Missing Contacts")).toBeVisible();

  await page.goto(`/app-services?dialog=latency&id=${id}`);
  await dialog(page, "Test Reachability").getByRole("button", { name: "Test Reachability" }).click();
  await expect(page.getByTestId("key-values").getByText("From PoP")).toBeVisible();

  await page.goto(`/app-services?dialog=resize&id=${id}`);
  await dialog(page, "Resize App Service").getByRole("button", { name: "Confirm" }).click();
  await expect(dialog(page, "Resize App Service").getByText("Please select a hosting location.").first()).toBeVisible();
  await dialog(page, "Resize App Service").getByLabel("Hosting location").selectOption({ index: 1 });
  await expect(dialog(page, "Resize App Service").getByRole("button", { name: "Confirm" })).toBeEnabled();
  await dialog(page, "Resize App Service").getByRole("button", { name: "Confirm" }).click();
  await expect(toast(page, "Resized App Service successfully.")).toBeVisible();
});

test("tabs and hostings of one App Service; refresh; delete", async ({ page, account, signIn, api }) => {
  const id = await createAppService(api, account, {
    app_service_name: "Billing API",
    description: "Invoices",
    location: "aws",
    region: "us-east-1",
    cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718",
    port: 443,
  });
  await signIn(account);
  // Tabs of the selected service.
  await page.goto(`/app-services?selected=${id}`);
  const tabs = page.getByRole("navigation", { name: "App Service Billing API" });
  await expect(page.getByText("Invoices")).toBeVisible();
  await tabs.getByRole("link", { name: "Top Talkers" }).click();
  await expect(page.getByRole("link", { name: "1h" })).toHaveAttribute("aria-current", "true");
  await page.getByRole("link", { name: "1d" }).click();
  await expect(page).toHaveURL(/range=1d/);
  await tabs.getByRole("link", { name: "Endpoints" }).click();
  await expect(page.getByRole("cell", { name: "No data" })).toBeVisible();
  await tabs.getByRole("link", { name: "Multi-Hosting" }).click();
  await page.getByRole("link", { name: "Add Hosting" }).click();
  const add = dialog(page, "Add Hosting");
  await add.getByRole("link", { name: "Azure" }).click();
  await dialog(page, "Add Hosting").getByLabel("Region").selectOption("northeurope");
  await dialog(page, "Add Hosting").getByLabel("Private Link Service Id").fill(pls);
  await dialog(page, "Add Hosting").getByRole("button", { name: "Add Hosting" }).click();
  await expect(toast(page, "Hosting added.")).toBeVisible();
  await expectAccessible(page);
  const remove = page.getByRole("link", { name: /^Remove hosting / });
  const hostingId = (await remove.getAttribute("aria-label"))!.replace("Remove hosting ", "");
  await remove.click();
  await dialog(page, "Remove Hosting").getByLabel(`Type ${hostingId} to confirm`).fill(hostingId);
  await dialog(page, "Remove Hosting").getByRole("button", { name: "Remove" }).click();
  await expect(toast(page, "Hosting removed.")).toBeVisible();
  await tabs.getByRole("link", { name: "Latency" }).click();
  await expect(page.getByRole("button", { name: "Test Reachability" })).toBeVisible();

  // Refresh, then Delete by typing the id.
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(toast(page, "Refreshed App Services.")).toBeVisible();
  await page.goto(`/app-services?dialog=remove&id=${id}`);
  await dialog(page, "Delete App Service").getByLabel(`Type ${id} to confirm`).fill(id);
  await dialog(page, "Delete App Service").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "App Service removed.")).toBeVisible();
  await expect(table(page).getByRole("cell", { name: "No data" })).toBeVisible();
});

test("Endpoints tab: approve and reject one endpoint; a refused delete", async ({ page, account, signIn, api }) => {
  const id = await createAppService(api, account, {
    app_service_name: "CRM",
    location: "aws",
    region: "us-east-1",
    cloud_endpoint_service_name: "com.amazonaws.vpce.us-east-1.vpce-svc-0a1b2c3d4e5f60718",
    port: 443,
  });
  const ep = await api(account, "POST", "create-endpoint", { ep_name: "Boston office", app_service_id: id, deployment: "agent" });
  expect(ep.status, JSON.stringify(ep.body)).toBe(200);
  await signIn(account);
  await page.goto(`/app-services?selected=${id}&tab=endpoints`);
  await expect(page.getByRole("row", { name: /Boston office/ })).toContainText("pending");
  await page.getByRole("radio", { name: "Select Boston office" }).check();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(toast(page, "Endpoint approved.")).toBeVisible();
  await expect(page.getByRole("row", { name: /Boston office/ })).toContainText("approved");
  await page.getByRole("radio", { name: "Select Boston office" }).check();
  await page.getByRole("button", { name: "Reject" }).click();
  await expect(toast(page, "Endpoint rejected.")).toBeVisible();
  await expect(page.getByRole("row", { name: /Boston office/ })).toContainText("rejected");
  await expectAccessible(page);

  await page.goto(`/app-services?selected=${id}&dialog=remove&id=${id}`);
  await dialog(page, "Delete App Service").getByLabel(`Type ${id} to confirm`).fill(id);
  await dialog(page, "Delete App Service").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, /Endpoint Boston office .* still uses this App Service/)).toBeVisible();
  await expect(dialog(page, "Delete App Service")).toHaveCount(0);
});
