import { expect, test, type Page } from "@playwright/test";

/*
 * Page helpers shared by the specs (re-exported by fixtures.ts): locators and small steps that
 * several screens use. Screen-specific ones stay in their spec.
 */

/** One account's call of the platform API (the `api` fixture). */
export type Api = (account: { username: string; password: string }, method: "GET" | "POST", call: string, body?: unknown) => Promise<{ status: number; body: any }>;
type Account = { username: string; password: string };

/** True in the project that runs with JavaScript turned off. */
export function jsDisabled(testInfo: { project: { name: string } } = test.info()) {
  return testInfo.project.name === "no-js";
}

/** A toast with this text (the server-rendered toaster, with and without JavaScript). */
export const toast = (page: Page, text: string | RegExp) => page.getByTestId("toaster").getByText(text);

/** A dialog (opened by URL) by its accessible name. */
export const dialog = (page: Page, name: string) => page.getByRole("dialog", { name });

/** With JavaScript, waits until the shell is hydrated (menus, clipboard, Escape need it); without, returns at once. */
export async function ready(page: Page) {
  if (!jsDisabled()) await page.locator(".shell[data-hydrated]").waitFor();
}

/** `page.goto(path)`, then `ready(page)`. */
export async function open(page: Page, path: string) {
  await page.goto(path);
  await ready(page);
}

/** With JS: resolves once React has hydrated the page (the shell marks itself). */
export async function hydrated(page: Page) {
  await page.locator(".shell[data-hydrated]").waitFor();
}

/**
 * Holds the client entry back (every document of the page) until the returned function is called:
 * what a visitor does before the page hydrates (a menu opened, a form posted as a plain form).
 */
export async function holdHydration(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/entry\.client-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Opens a table row's action menu (a <details>: works without JavaScript). With JavaScript it waits
 * for the shell to hydrate first: a click in the middle of hydration could leave the menu closed.
 */
export async function openRowMenu(page: Page, name: string) {
  await ready(page);
  await page.locator(`summary[aria-label="Actions for ${name}"]`).click();
}

/** Submits a GET form control: with JS it applies by itself; without, press its button. */
export async function applyWithoutJs(page: Page, noJs: boolean, button: string) {
  if (noJs) await page.getByRole("button", { name: button, exact: true }).click();
}

/** Creates an entity through the platform API; returns its id. */
export async function createEntity(api: Api, account: Account, entity_name: string, extra: { description?: string; parent_entity_name?: string } = {}) {
  const res = await api(account, "POST", "create_entity", { entity_name, description: extra.description ?? "", parent_entity_name: extra.parent_entity_name ?? "" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.entity_id as string;
}

/** Creates a contact through the platform API (defaults: business, no phone or address); returns its id. */
export async function createContact(api: Api, account: Account, contact: Partial<Record<string, string>> & { entity_name: string }) {
  const res = await api(account, "POST", "create-contact", { contact_type: "business", ...contact });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.contact_id as string;
}

/** Creates the entities, then the contacts (in the first entity unless they say otherwise); returns the contacts' ids. */
export async function seedContacts(api: Api, account: Account, contacts: Array<Partial<Record<string, string>>>, entities = ["Headquarters", "Branch Office"]) {
  for (const entity_name of entities) await createEntity(api, account, entity_name);
  const ids: string[] = [];
  for (const c of contacts) ids.push(await createContact(api, account, { entity_name: entities[0], ...c }));
  return ids;
}

/** Creates an App Service through the platform API; returns its id. */
export async function createAppService(api: Api, account: Account, body: Record<string, unknown>) {
  const res = await api(account, "POST", "create-app-service", body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.app_service_id as string;
}

/**
 * A device's op state as the simulated network has it now (down during its outages, ~3 a month,
 * which a run meets at random times): for the steps whose outcome depends on it. A device never
 * registered has none (issue 63: it is not up), so one that has not registered yet registers first
 * with a registration token, as the device itself does.
 */
export async function opStateNow(api: Api, account: Account, id: string): Promise<"up" | "down"> {
  let r = await api(account, "GET", `get_device_monitoring?node_id=${id}&range=1h`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  if (r.body.op_state === null) {
    await registerDevice(api, account, id);
    r = await api(account, "GET", `get_device_monitoring?node_id=${id}&range=1h`);
  }
  expect(["up", "down"]).toContain(r.body.op_state);
  return r.body.op_state;
}

/** A device registers with a registration token (Generate Registration Token, then the device's register_node). */
export async function registerDevice(api: Api, account: Account, id: string): Promise<void> {
  const token = await api(account, "POST", "generate_node_token", { node_id: id });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  const registered = await api(account, "POST", "register_node", { token: token.body.token });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
}
