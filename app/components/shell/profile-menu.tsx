import { Form, useFetcher } from "react-router";
import { ScreenLink } from "../query-link.tsx";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { copyWithToast } from "../copy-button.tsx";
import { useHydrated } from "../hooks.ts";
import { themeAttribute, type ThemeChoice } from "../theme.ts";
import { DetailsMenu } from "./details-menu.tsx";
import { Icon, type IconName } from "./icons.tsx";
import { PreferencesForm } from "./preferences-form.tsx";

/** The account's own pages in the profile menu (Billing only for the account owner). */
const accountLinks: { to: string; icon: IconName; label: string }[] = [
  { to: "/account", icon: "settings", label: "Settings" },
  { to: "/profile", icon: "user", label: "My Profile" },
  { to: "/billing", icon: "billing", label: "Billing" },
];

/**
 * Copy Account ID. Without JavaScript the clipboard is out of reach, so the item shows the id as
 * selectable text; with JavaScript it is a button that copies it, closes the menu (the toast must
 * not cover it) and says so in the console's one toast system.
 */
function CopyAccountId({ accountId }: { accountId: string }) {
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <li className="menu-title text-base-content normal-case" data-testid="account-id">
        <span className="flex flex-col gap-0.5 font-normal">
          <span className="text-base-content/80 text-xs font-semibold">Account ID</span>
          <span className="select-all break-all font-mono text-sm">{accountId}</span>
        </span>
      </li>
    );
  }
  return (
    <li>
      <button
        type="button"
        onClick={async (event) => {
          const menu = event.currentTarget.closest("details");
          if (menu) {
            menu.open = false;
            menu.querySelector("summary")?.focus();
          }
          await copyWithToast(accountId);
        }}
      >
        <Icon name="copy" />
        <span className="flex flex-col items-start">
          <span>Copy Account ID</span>
          <span className="text-base-content/80 break-all font-mono text-xs">{accountId}</span>
        </span>
      </button>
    </li>
  );
}

const themeLabels: Record<ThemeChoice, string> = { system: "System", light: "Light", dark: "Dark" };

/**
 * The colour theme: three buttons of one form that posts to /preferences (a cookie, so the server
 * renders the chosen theme with no flash). With JavaScript a fetcher sends it and the page
 * switches at once.
 */
export function ThemeSwitch({ theme }: { theme: ThemeChoice }) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get("theme");
  const current = (typeof pending === "string" ? pending : theme) as ThemeChoice;
  return (
    <PreferencesForm
      fetcher={fetcher}
      // Not a menu item itself (daisyUI would give it the items' hover and padding).
      className="cursor-default bg-transparent px-2 py-1 hover:bg-transparent active:bg-transparent"
      choose={(event) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        const choice = (submitter?.value ?? "system") as ThemeChoice;
        const attr = themeAttribute(choice);
        if (attr) document.documentElement.setAttribute("data-theme", attr);
        else document.documentElement.removeAttribute("data-theme");
        return { theme: choice };
      }}
    >
      <fieldset>
        <legend className="text-base-content/80 mb-1 text-xs font-semibold">Theme</legend>
        <div className="join w-full">
          {(["system", "light", "dark"] as const).map((choice) => (
            <button
              key={choice}
              type="submit"
              name="theme"
              value={choice}
              className={`btn btn-sm join-item flex-1 ${current === choice ? "btn-primary" : ""}`}
              aria-pressed={current === choice}
            >
              {themeLabels[choice]}
            </button>
          ))}
        </div>
      </fieldset>
    </PreferencesForm>
  );
}

export function ProfileMenu({
  username,
  accountId,
  showBilling,
  theme = "system",
}: {
  username: string;
  accountId: string | null;
  showBilling: boolean;
  theme?: ThemeChoice;
}) {
  const initial = (username.trim()[0] ?? "?").toUpperCase();
  return (
    <DetailsMenu
      testId="profile-menu"
      summaryClassName="btn btn-ghost gap-2 px-2"
      summary={
        <>
          <span className="bg-primary text-primary-content grid size-8 place-items-center rounded-full text-sm font-semibold" aria-hidden="true">
            {initial}
          </span>
          <span className="sr-only">Profile menu</span>
          <span className="hidden max-w-48 truncate font-normal md:inline">{username}</span>
        </>
      }
    >
      <ul className="menu dropdown-content bg-base-100 rounded-box border-base-300 z-40 mt-1 w-64 border p-2 shadow-lg">
        <li className="menu-title text-base-content max-w-full overflow-hidden normal-case md:hidden">
          <span className="block truncate font-normal">{username}</span>
        </li>
        {accountId ? <CopyAccountId accountId={accountId} /> : null}
        {accountLinks.map((link) =>
          link.to !== "/billing" || showBilling ? (
            <li key={link.to}>
              <ScreenLink to={link.to}>
                <Icon name={link.icon} />
                {link.label}
              </ScreenLink>
            </li>
          ) : null,
        )}
        <li className="p-0">
          <ThemeSwitch theme={theme} />
        </li>
        <li>
          <button type="submit" form="logout-form">
            <Icon name="logout" />
            Logout
          </button>
        </li>
      </ul>
      <Form method="post" action="/logout" id="logout-form" hidden>
        <AuthenticityTokenInput name="csrf" />
      </Form>
    </DetailsMenu>
  );
}
