import fs from "node:fs";
import type { Page } from "@playwright/test";
import {
  createContact,
  createEntity,
  createIamUser,
  dialog,
  expect,
  expectAccessible,
  jsDisabled,
  linkIn,
  readMail,
  test,
  toast,
  uniqueEmail,
} from "./fixtures.ts";

/*
 * /iam (spec 1 §2 IAM screen, §3 IAM user, §5, §6, §7 IAM, §8) and the roles rule (docs/roles.md),
 * with and without JavaScript: Add IAM User (the set-up e-mail read from the outbox and completed,
 * then the new user signs in), Assign Entity, Update IAM role, Delete IAM User; then a readonly IAM
 * user visits every built screen of app/routes.ts and is offered no mutating control.
 */

const usersTable = (page: Page) => page.getByRole("table", { name: "IAM users" });

async function rowAction(page: Page, username: string, item: string) {
  await page.locator(`summary[aria-label="Actions for ${username}"]`).click();
  await page.getByRole("link", { name: item, exact: true }).click();
  const d = dialog(page, item);
  await expect(d).toBeVisible();
  return d;
}

test("Add IAM User: validation, created, and the new user sets a password from the e-mail and signs in", async ({
  page,
  account,
  signIn,
  api,
  browser,
}, testInfo) => {
  const noJs = jsDisabled(testInfo);
  await createEntity(api, account, "Headquarters");
  await createEntity(api, account, "Branch East");
  await signIn(account);
  await page.goto("/iam");
  await expect(page).toHaveTitle(/^IAM \|/);
  await expect(usersTable(page).getByRole("cell", { name: "No data" })).toBeVisible();

  await page.getByRole("link", { name: "Add IAM User" }).click();
  let add = dialog(page, "Add IAM User");
  await expect(add).toBeVisible();
  await expect(add.getByLabel("Role")).toHaveValue("readonly");
  // Create is disabled while the username is empty (with JavaScript; without, the server answers).
  if (!noJs) await expect(add.getByRole("button", { name: "Create" })).toBeDisabled();
  await add.getByLabel("Username").fill("not-an-email");
  await add.getByRole("button", { name: "Create" }).click();
  add = dialog(page, "Add IAM User");
  await expect(add.getByText("Invalid format. Username should be an email.").first()).toBeVisible();
  await expect(add.getByText("Please select an entity.").first()).toBeVisible();
  await expectAccessible(page);

  const username = uniqueEmail("ivy");
  const after = Date.now();
  await add.getByLabel("Username").fill(username);
  await add.getByLabel("Entity").selectOption("Headquarters");
  await add.getByLabel("Name", { exact: true }).fill("Ivy Invitee");
  await add.getByRole("button", { name: "Create" }).click();
  await expect(toast(page, `Created IAM user ${username} successfully.`)).toBeVisible();
  const row = usersTable(page).getByRole("row", { name: new RegExp(username.replace(/[.+]/g, "\\$&")) });
  await expect(row).toContainText("Readonly");
  await expect(row).toContainText("Headquarters");

  // The set-up e-mail: a single-use link to set the first password, then sign in (another browser).
  const link = linkIn(await readMail(username, { after }), "/new-iam-user-setup-template");
  const other = await browser.newContext({ baseURL: testInfo.project.use.baseURL, javaScriptEnabled: !noJs });
  try {
    const invitee = await other.newPage();
    await invitee.goto(link);
    await expectAccessible(invitee);
    await invitee.getByLabel("Password", { exact: true }).fill("ivy first password");
    await invitee.getByLabel("Confirm Password").fill("ivy first password");
    await invitee.getByRole("button", { name: "Set password" }).click();
    await invitee.waitForURL("**/login");
    // The link works once.
    await invitee.goto(link);
    await invitee.getByLabel("Password", { exact: true }).fill("second try password");
    await invitee.getByLabel("Confirm Password").fill("second try password");
    await invitee.getByRole("button", { name: "Set password" }).click();
    await expect(invitee.getByText("Invalid password link.").first()).toBeVisible();
    // The first password signs in.
    await invitee.goto("/login");
    await invitee.getByLabel("Email").fill(username);
    await invitee.getByLabel("Password", { exact: true }).fill("ivy first password");
    await invitee.getByRole("button", { name: "Login" }).click();
    await invitee.waitForURL((url) => !url.pathname.startsWith("/login"));
  } finally {
    await other.close();
  }
});

test("row actions: Assign Entity, Update IAM role, Delete IAM User", async ({ page, account, signIn, api }) => {
  await createEntity(api, account, "Headquarters");
  await createEntity(api, account, "Branch East");
  const username = uniqueEmail("rowan");
  expect((await api(account, "POST", "create-iam-user", { username, entity_name: "Headquarters", name: "Rowan" })).status).toBe(200);
  await signIn(account);
  await page.goto("/iam");
  const row = usersTable(page).getByRole("row", { name: new RegExp(username.replace(/[.+]/g, "\\$&")) });
  await expect(row).toContainText("Headquarters");

  // Assign Entity: nothing chosen first.
  let assign = await rowAction(page, username, "Assign Entity");
  await assign.getByRole("button", { name: "Assign Entity" }).click();
  assign = dialog(page, "Assign Entity");
  await expect(assign.getByText("Please select an entity.").first()).toBeVisible();
  await expectAccessible(page);
  await assign.getByLabel("Entity").selectOption("Branch East");
  await assign.getByRole("button", { name: "Assign Entity" }).click();
  await expect(toast(page, "Assigned entity successfully.")).toBeVisible();
  await expect(row).toContainText("Branch East");

  // Update IAM role.
  const role = await rowAction(page, username, "Update IAM role");
  await expect(role.getByLabel("Role")).toHaveValue("readonly");
  await role.getByLabel("Role").selectOption("admin");
  await role.getByRole("button", { name: "Update IAM role" }).click();
  await expect(toast(page, "Updated IAM role successfully.")).toBeVisible();
  await expect(row).toContainText("Admin");

  // Delete IAM User, with confirmation.
  let remove = await rowAction(page, username, "Delete IAM User");
  await remove.getByRole("button", { name: "Delete IAM User" }).click();
  remove = dialog(page, "Delete IAM User");
  await expect(remove.getByText("The text does not match. Type confirm to confirm.").first()).toBeVisible();
  await remove.getByLabel("Type confirm to confirm").fill("confirm");
  await remove.getByRole("button", { name: "Delete IAM User" }).click();
  await expect(toast(page, "IAM User removed.")).toBeVisible();
  await expect(usersTable(page).getByRole("cell", { name: "No data" })).toBeVisible();
  expect((await api(account, "GET", "list-iam-user")).body).toEqual([]);
});

/** The built screens: the shell's routes of app/routes.ts that are not coming-soon (later screens included). */
function builtScreens(): string[] {
  const source = fs.readFileSync(new URL("../../app/routes.ts", import.meta.url), "utf8");
  const shell = source.slice(source.indexOf('layout("routes/_shell.tsx"'));
  return [...shell.matchAll(/\broute\("([^"*:]+)"/g)].map((m) => `/${m[1]}`);
}

/** Labels of controls that change something. */
const MUTATING = /^(add|create|update|edit|delete|remove|assign|unassign|upload|analy[sz]e|resolve|reply|resize|approve|reject|reset|configure|set up|make preferred|save|enable|disable)\b/i;

/** The own-credential forms a readonly user keeps (docs/roles.md): its password, MFA and profile fields. */
const OWN_INTENTS = new Set(["password", "mfa", "name", "email", "phone", "address"]);

test("a readonly IAM user sees every built screen and is offered no mutating control", async ({ page, account, signIn, api }) => {
  const iam = await createIamUser(page, api, account, "readonly");
  const entities = (await api(account, "GET", "get-entity-names")).body as string[];
  await createContact(api, account, { entity_name: entities[0]!, first_name: "Rita", last_name: "Row", email: "rita@example.com" });
  await signIn(iam);
  const screens = builtScreens();
  expect(screens).toEqual(expect.arrayContaining(["/iam", "/contacts", "/entities", "/account", "/profile", "/pcap-analyzer"]));
  for (const path of screens) {
    await page.goto(path);
    await expect(page.locator("h1").first(), path).toBeVisible();
    const offered = await page.evaluate(
      ({ mutating, own }) => {
        const re = new RegExp(mutating, "i");
        const allowedForm = (f: HTMLFormElement | null) => {
          if (!f || (f.getAttribute("method") ?? "get").toLowerCase() !== "post") return true;
          const action = new URL(f.action, location.href).pathname;
          if (action === "/logout" || action === "/preferences") return true;
          const intentInput = f.querySelector('input[name="intent"], button[name="intent"]') as HTMLInputElement | HTMLButtonElement | null;
          const intent = intentInput?.value ?? "";
          // Refresh reads the list again (and says so in a toast): not a change.
          if (intent === "refresh") return true;
          return ["/account", "/profile"].includes(location.pathname) && own.includes(intent);
        };
        const found: string[] = [];
        for (const f of Array.from(document.querySelectorAll("form"))) {
          if (!allowedForm(f)) found.push(`form intent=${(f.querySelector('input[name="intent"]') as HTMLInputElement | null)?.value ?? "?"}`);
        }
        for (const el of Array.from(document.querySelectorAll("a, button, summary, [role=menuitem], input[type=submit]"))) {
          const text = (el.getAttribute("aria-label") || el.textContent || (el as HTMLInputElement).value || "").trim();
          if (!re.test(text)) continue;
          if (!allowedForm(el.closest("form"))) continue;
          // A submit of an allowed own-credential form (Save password) is fine; anything else that says "Add…", "Delete…" is not.
          if (el.closest("form") && el.closest("form")!.method.toLowerCase() === "post") continue;
          found.push(`${el.tagName.toLowerCase()} "${text}"`);
        }
        for (const el of Array.from(document.querySelectorAll('summary[aria-label^="Actions for"]'))) found.push(`row menu ${el.getAttribute("aria-label")}`);
        return found;
      },
      { mutating: MUTATING.source, own: [...OWN_INTENTS] },
    );
    expect(offered, `mutating controls on ${path}`).toEqual([]);
    // An empty list names no create button to a user who has none.
    await expect(page.getByText("to add the first one.")).toHaveCount(0);
    // The readonly states of the IAM and PCAP screens are new; the others are the owner's pages
    // minus controls (their own specs scan them).
    if (path === "/iam" || path === "/pcap-analyzer") await expectAccessible(page);
  }
  // The IAM screen lists the users, without controls; a dialog opened by URL does not appear.
  await page.goto("/iam?dialog=create");
  await expect(page.getByRole("table", { name: "IAM users" }).getByRole("cell", { name: iam.username })).toBeVisible();
  await expect(dialog(page, "Add IAM User")).toHaveCount(0);
});
