import type { Page } from "@playwright/test";
import { createIamUser, expect, expectAccessible, jsDisabled, open, test, toast, uniqueEmail } from "./fixtures.ts";

/*
 * Settings (/account) and My Profile (/profile): spec 1 §2, §5 "Password update" and
 * "Confirmation phrases", §6, §7 "Session and account", §8. With and without JavaScript.
 */


async function logout(page: Page) {
  // A fresh page: without JavaScript the last toast stays over the top bar until the next page.
  await open(page, "/main-dashboard");
  const menu = page.getByTestId("profile-menu");
  await menu.locator("summary").click();
  await menu.getByRole("button", { name: "Logout" }).click();
  await page.waitForURL("**/login");
}

test.describe("settings", () => {
  test("the username is read-only; a new password is saved and logs in", async ({ page, account, signIn }) => {
    await signIn(account);
    await open(page, "/account");
    await expect(page).toHaveTitle("Settings | Linkwise");
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    const username = page.getByLabel("Username");
    await expect(username).toHaveValue(account.username);
    await expect(username).toHaveAttribute("readonly", "");
    await expect(page.getByText("The username cannot be updated at this time.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Delete Account" })).toBeVisible();
    await expectAccessible(page);

    // Too short: refused beside the field, the title says so.
    const password = page.getByLabel("New password", { exact: true });
    await page.getByLabel("Current password").fill(account.password);
    await password.fill("short");
    await page.getByRole("button", { name: "Update Password" }).click();
    await expect(page.locator("#password-form-password-error")).toHaveText("Password must be at least 8 characters.");
    await expect(page).toHaveTitle(/^Error: Settings/);
    await expectAccessible(page);

    if (!jsDisabled(test.info())) {
      // Show/hide.
      await password.fill("a new password 456");
      await page.getByRole("button", { name: "Show new password" }).click();
      await expect(password).toHaveAttribute("type", "text");
      await page.getByRole("button", { name: "Hide new password" }).click();
      await expect(password).toHaveAttribute("type", "password");
    }
    // The current password is never sent back: type it again.
    await page.getByLabel("Current password").fill(account.password);
    await password.fill("a new password 456");
    await page.getByLabel("Confirm new password").fill("a new password 456");
    await page.getByRole("button", { name: "Update Password" }).click();
    await expect(toast(page, "Account updated.")).toBeVisible();
    await expect(page).toHaveTitle("Settings | Linkwise");
    await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");

    await logout(page);
    await signIn({ username: account.username, password: "a new password 456" }, { via: "form" });
    await expect(page).toHaveURL(/\/main-dashboard$/);
  });

  test("MFA: Confirm waits for a change; enable, then disable", async ({ page, account, signIn, api }) => {
    // The API token first: with MFA on, a token needs an e-mailed code.
    expect((await api(account, "GET", "list-account")).body.mfa_enabled).toBe(false);
    await signIn(account);
    await open(page, "/account");
    const toggle = page.getByRole("switch", { name: "Multi-factor authentication (MFA)" });
    const confirm = page.getByRole("button", { name: "Confirm", exact: true });
    await expect(toggle).not.toBeChecked();
    if (jsDisabled(test.info())) {
      // Without JavaScript Confirm cannot know; the server refuses the unchanged value.
      await confirm.click();
      await expect(page.locator("#mfa-form-mfa_enabled-error")).toHaveText("The value is unchanged. Switch it to confirm.");
      await expect(page).toHaveTitle(/^Error: Settings/);
      await expectAccessible(page);
    } else {
      await expect(confirm).toBeDisabled();
      await toggle.check();
      await expect(confirm).toBeEnabled();
      await toggle.uncheck();
      await expect(confirm).toBeDisabled();
    }
    await page.getByRole("switch", { name: "Multi-factor authentication (MFA)" }).check();
    await confirm.click();
    await expect(toast(page, "MFA enabled.")).toBeVisible();
    await expect(toggle).toBeChecked();
    expect((await api(account, "GET", "list-account")).body.mfa_enabled).toBe(true);
    await expectAccessible(page);

    await toggle.uncheck();
    await confirm.click();
    await expect(toast(page, "MFA disabled.")).toBeVisible();
    await expect(toggle).not.toBeChecked();
    expect((await api(account, "GET", "list-account")).body.mfa_enabled).toBe(false);
  });

  test("the SAML metadata URL is checked, saved and shown again", async ({ page, account, signIn, api }) => {
    await signIn(account);
    await open(page, "/account");
    const url = page.getByLabel("SAML metadata URL");
    await expect(url).toHaveValue("");
    await url.fill("not a url");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.locator("#saml-form-metalink-error")).toHaveText("Enter a valid http or https URL.");
    await expect(page).toHaveTitle(/^Error: Settings/);
    await expectAccessible(page);

    await url.fill("https://idp.example.com/saml/metadata.xml");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, "SAML metadata URL updated.")).toBeVisible();
    await open(page, "/account");
    await expect(page.getByLabel("SAML metadata URL")).toHaveValue("https://idp.example.com/saml/metadata.xml");
    expect((await api(account, "GET", "get-account-idp")).body.metalink).toBe("https://idp.example.com/saml/metadata.xml");
  });

  test("Delete Account: a wrong phrase is refused, 'confirm' removes the account and logs out", async ({ page, account, signIn, api }) => {
    await signIn(account);
    await open(page, "/account");
    await page.getByRole("link", { name: "Delete Account" }).click();
    await expect(page).toHaveURL(/\/account\?dialog=delete-account$/);
    const dialog = page.getByRole("dialog", { name: "Delete Account" });
    await expect(dialog).toBeVisible();
    await expectAccessible(page);

    const phrase = dialog.getByLabel("Type confirm to confirm");
    if (!jsDisabled(test.info())) {
      // Escape closes it (and the URL follows); the link opens it again.
      await page.keyboard.press("Escape");
      await expect(page).toHaveURL(/\/account$/);
      await expect(dialog).toBeHidden();
      await page.getByRole("link", { name: "Delete Account" }).click();
      await expect(dialog).toBeVisible();
      await expect(phrase).toBeFocused();
    }
    await phrase.fill("delete");
    await dialog.getByRole("button", { name: "Delete Account" }).click();
    await expect(dialog.locator("#delete-account-form-confirm-error")).toHaveText("The text does not match. Type confirm to confirm.");
    await expect(page).toHaveTitle(/^Error: Settings/);
    await expectAccessible(page);
    expect((await api(account, "GET", "list-account")).status).toBe(200);

    // Cancel leaves the account alone.
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(dialog).toBeHidden();

    await page.getByRole("link", { name: "Delete Account" }).click();
    await dialog.getByLabel("Type confirm to confirm").fill("confirm");
    await dialog.getByRole("button", { name: "Delete Account" }).click();
    await page.waitForURL("**/login");
    await expect(toast(page, "Account removed.")).toBeVisible();
    if (!jsDisabled(test.info())) {
      // The toast sits over the login card's "Forgot password?" link (axe then measures the link
      // on the toast's colour): dismiss it first, as a user would.
      await page.getByRole("button", { name: "Dismiss notification" }).click();
    }
    await expectAccessible(page);
    await page.goto("/account");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
    const token = await page.request.post("/api/v1/token", { data: account });
    expect(token.status()).toBe(401);
  });
});

test.describe("my profile", () => {
  test("name, email, phone and address are each saved on their own", async ({ page, account, signIn, api }) => {
    await signIn(account);
    await open(page, "/profile");
    await expect(page).toHaveTitle("My Profile | Linkwise");
    await expect(page.getByRole("heading", { name: "My Profile", level: 1 })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(account.username);
    await expectAccessible(page);

    const email = uniqueEmail("contact");
    const values: [string, string, string][] = [
      ["Name", "name", "Ada Owner"],
      ["Email", "email", email],
      ["Phone", "phone", "+1 (555) 010-2030"],
      ["Address", "address", "1 Network Way\nSpringfield"],
    ];
    for (const [label, , value] of values) {
      await page.getByLabel(label, { exact: true }).fill(value);
      await page.getByRole("button", { name: `Save ${label.toLowerCase()}` }).click();
      await expect(toast(page, "Account updated.")).toBeVisible();
      await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
      if (!jsDisabled(test.info())) await page.getByRole("button", { name: "Dismiss notification" }).first().click();
    }
    const saved = (await api(account, "GET", "list-account")).body;
    for (const [, key, value] of values) expect(saved[key]).toBe(value);

    // Reloaded: the saved values are filled in.
    await open(page, "/profile");
    for (const [label, , value] of values) await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
  });

  test("a bad e-mail is refused beside the field", async ({ page, account, signIn, api }) => {
    await signIn(account);
    await open(page, "/profile");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Save email" }).click();
    await expect(page.locator("#profile-email-email-error")).toHaveText("Enter a valid email address.");
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveTitle(/^Error: My Profile/);
    await expectAccessible(page);
    // Nothing was saved; the other forms are untouched.
    expect((await api(account, "GET", "list-account")).body.email).toBe(account.username);
    await expect(page.locator("#profile-name-name-error")).toHaveCount(0);

    await page.getByLabel("Phone").fill("call me");
    await page.getByRole("button", { name: "Save phone" }).click();
    await expect(page.locator("#profile-phone-phone-error")).toHaveText("Enter a valid phone number.");
  });
});

test.describe("an IAM user", () => {
  test("updates their own password and profile; no Delete Account", async ({ page, account, signIn, api }) => {
    const iam = await createIamUser(page, api, account);
    await signIn(iam);
    await open(page, "/account");
    await expect(page.getByLabel("Username")).toHaveValue(iam.username);
    await expect(page.getByRole("link", { name: "Delete Account" })).toHaveCount(0);
    // The SAML metadata URL is the owner's (issue 27 item 10): an admin reads it, with no form.
    await expect(page.getByLabel("SAML metadata URL")).toHaveCount(0);
    await expect(page.getByText("SAML metadata URL:")).toBeVisible();
    await expectAccessible(page);
    await open(page, "/account?dialog=delete-account");
    await expect(page.getByRole("dialog")).toHaveCount(0);

    await page.getByLabel("Current password").fill(iam.password);
    await page.getByLabel("New password", { exact: true }).fill("iam new password 789");
    await page.getByLabel("Confirm new password").fill("iam new password 789");
    await page.getByRole("button", { name: "Update Password" }).click();
    await expect(toast(page, "Account updated.")).toBeVisible();

    await open(page, "/profile");
    await expect(page.getByLabel("Name")).toHaveValue("Ira Iam");
    await page.getByLabel("Name").fill("Ira Renamed");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(toast(page, "Account updated.")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("Ira Renamed");
    await expectAccessible(page);

    await logout(page);
    await signIn({ username: iam.username, password: "iam new password 789" }, { via: "form" });
    await expect(page).toHaveURL(/\/main-dashboard$/);
    const me = await api({ username: iam.username, password: "iam new password 789" }, "GET", "list-account");
    expect(me.body.iam_user.name).toBe("Ira Renamed");
    // The owner's own name is untouched.
    expect(me.body.name).not.toBe("Ira Renamed");
  });
});
