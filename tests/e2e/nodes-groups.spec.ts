import type { Page } from "@playwright/test";
import { dialog, expect, expectAccessible, jsDisabled, open, ready, test, toast } from "./fixtures.ts";
import { createGroup, makeCertificates, noSideways, rowAction, type CertSet } from "./nodes-helpers.ts";

/*
 * /endpoint-node-groups (Setup DHCP Relay, Setup VRRP: toggle dialogs with one address) and
 * /service-node-groups (Import External Certificates with a good set and each kind of bad one,
 * the certificate's details and expiry warning, Disable External Root CA), with and without
 * JavaScript (spec 2 §2, §4, §5, §8; issue 28).
 */

const certs = makeCertificates();

test.describe.configure({ timeout: 120_000 });

test("endpoint node groups: DHCP relay and VRRP", async ({ page, account, signIn, api }) => {
  await createGroup(api, account, "endpoint", "Branches");
  await signIn(account);
  await open(page, "/endpoint-node-groups");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Endpoint Nodes" })).toHaveAttribute("href", "/endpoint-nodes");
  const table = page.getByRole("table", { name: "Endpoint node groups" });
  await expect(table.getByRole("row", { name: /Branches/ })).toContainText("Disabled");

  let d = await rowAction(page, "Branches", "Setup DHCP Relay");
  await expectAccessible(page);
  if (jsDisabled()) {
    await d.getByRole("button", { name: "Confirm" }).click();
    await expect(dialog(page, "Setup DHCP Relay").getByRole("alert")).toContainText("The value is unchanged.");
  } else {
    await expect(d.getByRole("button", { name: "Confirm" })).toBeDisabled();
  }
  d = dialog(page, "Setup DHCP Relay");
  await d.getByRole("switch", { name: "DHCP relay" }).check();
  await d.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog(page, "Setup DHCP Relay").getByRole("alert")).toContainText("DHCP server IP is required when DHCP relay is on.");
  await dialog(page, "Setup DHCP Relay").getByLabel("DHCP Server IP").fill("10.0.0.300");
  await dialog(page, "Setup DHCP Relay").getByRole("button", { name: "Confirm" }).click();
  await expect(dialog(page, "Setup DHCP Relay").getByRole("alert")).toContainText("Not a valid IPv4 address: 10.0.0.300");
  await dialog(page, "Setup DHCP Relay").getByLabel("DHCP Server IP").fill("10.0.0.2");
  await dialog(page, "Setup DHCP Relay").getByRole("button", { name: "Confirm" }).click();
  await expect(toast(page, "DHCP Relay enabled.")).toBeVisible();
  await expect(table.getByRole("row", { name: /Branches/ })).toContainText("Enabled (10.0.0.2)");

  d = await rowAction(page, "Branches", "Setup VRRP");
  await d.getByRole("switch", { name: "VRRP" }).check();
  await d.getByLabel("Virtual IP").fill("10.0.0.1");
  await d.getByRole("button", { name: "Confirm" }).click();
  await expect(toast(page, "VRRP enabled.")).toBeVisible();
  await expect(table.getByRole("row", { name: /Branches/ })).toContainText("Enabled (10.0.0.1)");
  d = await rowAction(page, "Branches", "Setup VRRP");
  await expect(d.getByRole("switch", { name: "VRRP" })).toBeChecked();
  await d.getByRole("switch", { name: "VRRP" }).uncheck();
  await d.getByRole("button", { name: "Confirm" }).click();
  await expect(toast(page, "VRRP disabled.")).toBeVisible();
  await page.setViewportSize({ width: 320, height: 800 });
  await page.reload();
  await ready(page);
  expect(await noSideways(page)).toBe(true);
});

async function importSet(page: Page, set: CertSet) {
  const d = dialog(page, "Import External Certificates");
  await d.getByLabel("Certificate").fill(set.certificate);
  await d.getByLabel("Private Key").fill(set.private_key);
  await d.getByLabel("CA Chain").fill(set.ca_chain);
  await d.getByRole("button", { name: "Import" }).click();
}

test("service node groups: certificate import refused for each bad set, a good one shown with its expiry warning, then disabled", async ({ page, account, signIn, api }) => {
  await signIn(account);
  await open(page, "/service-node-groups");
  const table = page.getByRole("table", { name: "Service node groups" });
  await expect(table.getByRole("cell", { name: "No Service Node Groups found." })).toBeVisible();
  await createGroup(api, account, "service", "Core");
  await page.reload();
  await ready(page);
  await expect(table.getByRole("row", { name: /Core/ })).toContainText("No");
  await rowAction(page, "Core", "Import External Certificates");
  await expectAccessible(page);
  const bad: [keyof typeof certs, RegExp][] = [
    ["mismatch", /match/i],
    ["encrypted", /encrypt/i],
    ["expired", /expired/i],
    ["future", /not (yet )?valid( yet)?/i],
    ["chain", /chain|verif/i],
    ["notPem", /PEM/],
    ["big", /64 KB/i],
  ];
  for (const [kind, message] of bad) {
    await importSet(page, certs[kind]);
    await expect(dialog(page, "Import External Certificates").getByRole("alert"), kind).toContainText(message);
    // The private key is never sent back to the page (with JavaScript the browser keeps what was typed).
    if (jsDisabled()) await expect(dialog(page, "Import External Certificates").getByLabel("Private Key")).toHaveValue("");
  }
  await importSet(page, certs.soon);
  await expect(toast(page, "External Certificate imported.")).toBeVisible();
  await expect(table.getByRole("row", { name: /Core/ })).toContainText("Yes");
  // The selected group's certificate: subject, issuer, serial, expiry, and the warning.
  await expect(page.getByText("nodes.example.com")).toBeVisible();
  await expect(page.getByText("Linkwise Test Root CA")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "expires within 30 days" })).toBeVisible();
  await expectAccessible(page);
  await page.locator('summary[aria-label="Actions for Core"]').click();
  await expect(page.locator(".menu-disabled", { hasText: "Import External Certificates" })).toBeVisible();
  await page.getByRole("link", { name: "Disable External Root CA" }).click();
  const d = dialog(page, "Disable External Root CA");
  await d.getByLabel("Type confirm to confirm").fill("confirm");
  await d.getByRole("button", { name: "Disable" }).click();
  await expect(toast(page, "External Root CA disabled")).toBeVisible();
  await expect(table.getByRole("row", { name: /Core/ })).toContainText("No");
  await page.setViewportSize({ width: 320, height: 800 });
  await page.reload();
  await ready(page);
  expect(await noSideways(page)).toBe(true);
});
