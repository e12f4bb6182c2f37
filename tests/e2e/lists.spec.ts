import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

/*
 * Lists on the platform (issue 9): CSV export of what a table's search selects (a plain link, with
 * and without JavaScript: both projects), headers in the column labels, RFC 4180 escaping and
 * formulas neutralised; a selection the search hides is not counted (issue 10 item 13).
 */

/** Clicks the link and reads the downloaded file (BOM kept). */
async function download(page: Page, name: RegExp) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).first().click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(fs.readFileSync(path!)) };
}

test("Contacts: Export CSV downloads what the search selects, escaped and without formulas", async ({ page, account, api, signIn }) => {
  expect((await api(account, "POST", "create_entity", { entity_name: "HQ, Main" })).status).toBe(200);
  const add = async (fields: Record<string, string>) => {
    const r = await api(account, "POST", "create-contact", { contact_type: "business", entity_name: "HQ, Main", ...fields });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  await add({ first_name: "Ada", last_name: 'Love "lace"', email: "ada@example.com", address: "12 Square\nLondon", phone: "+44 20" });
  await add({ first_name: "=HYPERLINK(\"x\")", last_name: "Hopper", email: "grace@example.com" });
  await add({ first_name: "Alan", last_name: "Turing", email: "alan@example.com" });
  await signIn(account);

  await page.goto("/contacts?q=example&sort=first_name");
  const all = await download(page, /^Export CSV$/);
  expect(all.name).toBe("contacts.csv");
  const lines = all.text.split("\r\n");
  expect(lines[0]).toBe("\uFEFFFirst Name,Last Name,Email,Phone,Type,Entity Name,Company,Address,Created at,Updated at");
  // Sorted by first name as the table is; the formula is neutralised and quoted.
  expect(all.text).toContain('\r\n"\'=HYPERLINK(""x"")",Hopper,grace@example.com,,business,"HQ, Main",,,');
  expect(all.text).toContain('Ada,"Love ""lace""",ada@example.com,\'+44 20,business,"HQ, Main",,"12 Square\nLondon",');
  expect(all.text).toMatch(/,\d{4}-\d\d-\d\d \d\d:\d\d UTC,\d{4}-\d\d-\d\d \d\d:\d\d UTC\r\n$/);
  expect(all.text.indexOf("Ada,")).toBeLessThan(all.text.indexOf("Alan,"));

  // The search narrows the export.
  await page.goto("/contacts?q=hopper");
  const one = await download(page, /^Export CSV$/);
  expect(one.text.split("\r\n").filter(Boolean)).toHaveLength(2);
  expect(one.text).toContain("Hopper");
});

test("Entities: Export CSV downloads the entities; the entity's contacts export too", async ({ page, account, api, signIn }) => {
  expect((await api(account, "POST", "create_entity", { entity_name: "Root", description: "line1\nline2, more" })).status).toBe(200);
  expect((await api(account, "POST", "create_entity", { entity_name: "@Branch", parent_entity_name: "Root" })).status).toBe(200);
  const r = await api(account, "POST", "create-contact", { first_name: "Ada", email: "ada@example.com", contact_type: "technical", entity_name: "Root" });
  expect(r.status).toBe(200);
  await signIn(account);

  await page.goto("/entities");
  const csv = await download(page, /^Export CSV$/);
  expect(csv.name).toBe("entities.csv");
  const lines = csv.text.split("\r\n");
  expect(lines[0]).toBe("\uFEFFName,Parent Entity Name,Description,Alert Message Emails,Entity ID,Created at");
  expect(lines[1]).toMatch(/^'@Branch,Root,,,ent-/);
  expect(csv.text).toContain('\r\nRoot,,"line1\nline2, more",,ent-');

  const entities = (await api(account, "GET", "get_entity")).body as Array<{ entity_id: string; entity_name: string }>;
  const root = entities.find((e) => e.entity_name === "Root")!;
  await page.goto(`/entities?selected=${root.entity_id}`);
  const contacts = await download(page, /Export contacts of Root/);
  expect(contacts.text.split("\r\n")[1]).toMatch(/^Ada,,ada@example.com,,technical,Root,/);
});

test("Contacts: a selection the search hides is not counted", async ({ page, account, api, signIn }) => {
  expect((await api(account, "POST", "create_entity", { entity_name: "HQ" })).status).toBe(200);
  for (const [first_name, last_name] of [
    ["Ada", "Lovelace"],
    ["Grace", "Hopper"],
  ]) {
    expect((await api(account, "POST", "create-contact", { first_name, last_name, email: `${first_name}@example.com`, contact_type: "business", entity_name: "HQ" })).status).toBe(200);
  }
  const list = (await api(account, "GET", "get-contact")).body as Array<{ contact_id: string; first_name: string }>;
  const ada = list.find((c) => c.first_name === "Ada")!;
  await signIn(account);

  await page.goto(`/contacts?selected=${ada.contact_id}`);
  await expect(page.getByRole("heading", { name: "Ada Lovelace" })).toBeVisible();
  await page.goto(`/contacts?selected=${ada.contact_id}&q=Hopper`);
  await expect(page.getByRole("heading", { name: "Ada Lovelace" })).toHaveCount(0);
  await expect(page.getByText("Nothing selected.")).toBeVisible();
  // Clearing the search brings the selection back: it stays in the URL.
  await page.goto(`/contacts?selected=${ada.contact_id}`);
  await expect(page.getByRole("heading", { name: "Ada Lovelace" })).toBeVisible();
});
