import type { Page } from "@playwright/test";
import { createContact as createContactWith, createEntity, expect, expectAccessible, test, type Account, type Api } from "./fixtures.ts";

/*
 * /entities (spec 2 §2 /entities, §3–§5, §7, §8; spec 3 §5, §8), with and without JavaScript:
 * the table and its empty states, Add Entity (validation first), Edit Entity (description and
 * alert e-mails), Assign Parent Entity (and 'None'), the Contacts tab of the selected entity,
 * and Delete Entity (typed id; refused while children or contacts remain).
 */

const toaster = (page: Page) => page.getByTestId("toaster");
const entitiesTable = (page: Page) => page.getByRole("table", { name: "Entities" });
const row = (page: Page, name: string) => entitiesTable(page).getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });

/** A technical contact of `entity_name`, created through the platform API. */
async function createContact(api: Api, account: Account, entity_name: string, first_name: string, last_name: string) {
  await createContactWith(api, account, { entity_name, first_name, last_name, email: `${first_name.toLowerCase()}.${last_name.toLowerCase()}@example.com`, phone: "", address: "", company_name: "", contact_type: "technical" });
}

/** Opens a row's menu (a <details>: works without JavaScript) and follows one of its items. */
async function rowAction(page: Page, entityName: string, item: string, opts: { axe?: boolean } = {}) {
  await page.getByLabel(`Actions for ${entityName}`, { exact: true }).click();
  const link = page.getByRole("link", { name: item, exact: true });
  await expect(link).toBeVisible();
  if (opts.axe) await expectAccessible(page);
  await link.click();
  const dialog = page.getByRole("dialog", { name: item });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe("entities", () => {
  // Long flows with several scanned states: more than the default 45 s on a busy shared machine.
  test.describe.configure({ timeout: 120_000 });

  test("a fresh account shows the empty states", async ({ page, account, signIn }) => {
    await signIn(account);
    await page.goto("/entities");
    await expect(page).toHaveTitle("Entities | Linkwise");
    await expect(page.getByRole("heading", { name: "Entities", level: 1 })).toBeVisible();
    const table = entitiesTable(page);
    for (const header of ["Name", "Parent Entity Name", "Description", "Alert Message Emails", "Entity ID"]) {
      // Sortable headers read "Name, sortable".
      await expect(table.getByRole("columnheader", { name: new RegExp(`^${header}\\s*(,|$)`) })).toBeVisible();
    }
    await expect(table.getByRole("cell", { name: "No data" })).toContainText("Use 'Add Entity' to add the first one.");
    await expect(page.getByText("Nothing selected.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Add Entity" })).toBeVisible();
    await expectAccessible(page);

    // A selection of an entity that does not exist is no selection.
    await page.goto("/entities?selected=ent-nothing");
    await expect(page.getByText("Nothing selected.")).toBeVisible();
  });

  test("adds an entity, after a validation error", async ({ page, account, signIn, api }) => {
    await createEntity(api, account, "Head Office");
    await signIn(account);
    await page.goto("/entities");

    await page.getByRole("link", { name: "Add Entity" }).click();
    await expect(page).toHaveURL(/[?&]dialog=add/);
    const dialog = page.getByRole("dialog", { name: "Add Entity" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Parent Entity Name")).toContainText("Head Office");
    await expectAccessible(page);

    // Nothing typed: the name is required (checked by the server too).
    await dialog.getByLabel("Description").fill("Keeps its input");
    await dialog.getByRole("button", { name: "Add Entity" }).click();
    await expect(dialog.getByRole("textbox", { name: "Entity Name", exact: true })).toHaveAccessibleDescription(/Entity name is required\./);
    await expect(dialog.getByRole("alert")).toContainText("Entity name is required.");
    await expect(dialog.getByLabel("Description")).toHaveValue("Keeps its input");
    await expect(page).toHaveTitle(/^Error: /);
    await expectAccessible(page);

    // A name the platform refuses (already used): its message shows in the dialog.
    await dialog.getByRole("textbox", { name: "Entity Name", exact: true }).fill("Head Office");
    await dialog.getByRole("button", { name: "Add Entity" }).click();
    await expect(dialog.getByRole("alert")).toContainText("Entity Head Office already exists.");
    await expectAccessible(page);

    await dialog.getByRole("textbox", { name: "Entity Name", exact: true }).fill("Branch North");
    await dialog.getByLabel("Description").fill("The northern branch");
    await dialog.getByLabel("Parent Entity Name").selectOption("Head Office");
    await dialog.getByRole("button", { name: "Add Entity" }).click();

    await expect(toaster(page).getByText("Entity created.")).toBeVisible();
    await expect(page).not.toHaveURL(/dialog=/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const created = row(page, "Branch North");
    await expect(created).toContainText("Head Office");
    await expect(created).toContainText("The northern branch");
    await expect(created).toContainText(/ent-/);
    await expectAccessible(page);
  });

  test("edits the description and the alert e-mails", async ({ page, account, signIn, api }) => {
    await createEntity(api, account, "Data Center", { description: "Old text" });
    await signIn(account);
    await page.goto("/entities");

    const dialog = await rowAction(page, "Data Center", "Edit Entity", { axe: true });
    await expect(dialog.getByLabel("Description")).toHaveValue("Old text");
    await expectAccessible(page);

    // The description is required; each address is checked and the bad one named.
    await dialog.getByLabel("Description").fill("");
    await dialog.getByLabel("Alert Message Emails").fill("noc@example.com, not-an-address");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByLabel("Description")).toHaveAccessibleDescription(/Description is required\./);
    await expect(dialog.getByLabel("Alert Message Emails")).toHaveAccessibleDescription(/Not a valid e-mail address: not-an-address/);
    await expect(page).toHaveTitle(/^Error: /);
    await expectAccessible(page);

    await dialog.getByLabel("Description").fill("Primary data center");
    await dialog.getByLabel("Alert Message Emails").fill("noc@example.com, ops@example.com");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(toaster(page).getByText("Entity updated.")).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const updated = row(page, "Data Center");
    await expect(updated).toContainText("Primary data center");
    await expect(updated).toContainText("noc@example.com");
    await expect(updated).toContainText("ops@example.com");
    await expectAccessible(page);

    // Reopened, the dialog shows the saved values.
    const again = await rowAction(page, "Data Center", "Edit Entity");
    await expect(again.getByLabel("Alert Message Emails")).toHaveValue("noc@example.com, ops@example.com");
    await again.getByRole("link", { name: "Cancel" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("assigns a parent entity and clears it with None", async ({ page, account, signIn, api }) => {
    await createEntity(api, account, "Europe");
    await createEntity(api, account, "Paris Office");
    await createEntity(api, account, "Paris Lab", { parent_entity_name: "Paris Office" });
    await signIn(account);
    await page.goto("/entities");

    const dialog = await rowAction(page, "Paris Office", "Assign Parent Entity", { axe: true });
    const select = dialog.getByLabel("Parent Entity Name");
    // Neither the entity itself nor an entity below it can be its parent.
    await expect(select.locator("option")).toHaveText(["None", "Europe"]);
    await expectAccessible(page);
    await select.selectOption("Europe");
    await dialog.getByRole("button", { name: "Assign" }).click();
    await expect(toaster(page).getByText("Parent entity assigned.")).toBeVisible();
    await expect(row(page, "Paris Office").getByRole("cell", { name: "Europe", exact: true })).toBeVisible();
    await expectAccessible(page);

    const again = await rowAction(page, "Paris Office", "Assign Parent Entity");
    await expect(again.getByLabel("Parent Entity Name")).toHaveValue("Europe");
    await again.getByLabel("Parent Entity Name").selectOption({ label: "None" });
    await again.getByRole("button", { name: "Assign" }).click();
    await expect(toaster(page).getByText("Parent entity cleared.")).toBeVisible();
    await expect(row(page, "Paris Office").getByRole("cell", { name: "Europe", exact: true })).toHaveCount(0);
  });

  test("the Contacts tab lists the contacts of the selected entity", async ({ page, account, signIn, api }) => {
    await createEntity(api, account, "Support Desk");
    await createEntity(api, account, "Empty Team");
    await createContact(api, account, "Support Desk", "Ada", "Lovelace");
    await signIn(account);
    await page.goto("/entities");
    await expect(page.getByText("Nothing selected.")).toBeVisible();

    await entitiesTable(page).getByRole("link", { name: "Support Desk", exact: true }).click();
    await expect(page).toHaveURL(/[?&]selected=ent-/);
    const tabs = page.getByRole("navigation", { name: "Details of Support Desk" });
    await expect(tabs.getByRole("link", { name: "Contacts", exact: true })).toHaveAttribute("aria-current", "page");
    const contacts = page.getByRole("table", { name: "Contacts of Support Desk" });
    for (const header of ["First Name", "Last Name", "Email", "Phone", "Type", "Entity Name", "Created at"]) {
      await expect(contacts.getByRole("columnheader", { name: header })).toBeVisible();
    }
    const ada = contacts.getByRole("row").filter({ hasText: "Ada" });
    await expect(ada).toContainText("Lovelace");
    await expect(ada).toContainText("ada.lovelace@example.com");
    await expect(ada).toContainText("technical");
    await expect(ada).toContainText("Support Desk");
    await expect(ada).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    await expect(page.getByText("Nothing selected.")).toHaveCount(0);
    await expectAccessible(page);

    await entitiesTable(page).getByRole("link", { name: "Empty Team", exact: true }).click();
    await expect(page.getByRole("table", { name: "Contacts of Empty Team" }).getByRole("cell", { name: "No data" })).toBeVisible();
    await expectAccessible(page);
  });

  test("refuses to delete an entity that still has children and contacts", async ({ page, account, signIn, api }) => {
    const id = await createEntity(api, account, "Holding");
    await createEntity(api, account, "Subsidiary", { parent_entity_name: "Holding" });
    await createContact(api, account, "Holding", "Grace", "Hopper");
    // The page's clock, so that the toasts' time can be passed without waiting it out.
    await page.clock.install();
    await signIn(account);
    await page.goto("/entities");

    const dialog = await rowAction(page, "Holding", "Delete Entity", { axe: true });
    await dialog.getByLabel(`Type ${id} to confirm`).fill(id);
    await dialog.getByRole("button", { name: "Delete" }).click();

    // One persistent error toast per detail item, with the platform's messages.
    const errors = toaster(page).locator("[data-toast=error]");
    await expect(errors).toHaveCount(2);
    await expect(errors.filter({ hasText: "Entity Holding still has 1 child entity: Subsidiary" })).toBeVisible();
    await expect(errors.filter({ hasText: "Entity Holding still has 1 assigned contact: Grace Hopper" })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(row(page, "Holding")).toBeVisible();
    await expectAccessible(page);
    // Persistent: still there after the time a success toast fades (5 s; without JavaScript
    // nothing fades at all).
    await page.clock.fastForward(5500);
    await expect(errors).toHaveCount(2);
  });

  test("deletes an entity after a wrong, then the right, id", async ({ page, account, signIn, api }) => {
    const id = await createEntity(api, account, "Temporary");
    await signIn(account);
    await page.goto(`/entities?selected=${id}`);
    await expect(page.getByRole("table", { name: "Contacts of Temporary" })).toBeVisible();

    const dialog = await rowAction(page, "Temporary", "Delete Entity");
    await expect(dialog).toContainText("Temporary");
    await expectAccessible(page);
    const phrase = dialog.getByLabel(`Type ${id} to confirm`);
    await phrase.fill("Temporary");
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(phrase).toHaveAccessibleDescription(`The text does not match. Type ${id} to confirm.`);
    await expectAccessible(page);

    // Nothing was deleted.
    const list = await api(account, "GET", "get_entity");
    expect(list.body.map((e: { entity_id: string }) => e.entity_id)).toContain(id);

    await phrase.fill(id);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(toaster(page).getByText("Entity removed.")).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(entitiesTable(page).getByRole("cell", { name: "No data" })).toBeVisible();
    await expect(page.getByText("Nothing selected.")).toBeVisible();
    await expect(page).not.toHaveURL(/selected=/);
    await expectAccessible(page);
  });
});
