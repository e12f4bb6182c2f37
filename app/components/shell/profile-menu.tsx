import { useEffect, useState } from "react";
import { Form, Link } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { DetailsMenu } from "./details-menu.tsx";
import { Icon } from "./icons.tsx";

type ClientToast = { type: "success" | "error"; message: string; id: number };

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older browsers: a selected, off-screen textarea and the copy command.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy refused");
}

/**
 * Copy Account ID. Without JavaScript the clipboard is out of reach, so the item shows the id as
 * selectable text; with JavaScript it is a button that copies it and says so in a toast.
 */
function CopyAccountId({ accountId }: { accountId: string }) {
  const [hydrated, setHydrated] = useState(false);
  const [toast, setToast] = useState<ClientToast | null>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), 5000);
    return () => clearTimeout(timer);
  }, [toast]);

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
        onClick={async () => {
          try {
            await copyText(accountId);
            setToast({ type: "success", message: "Copied to clipboard!", id: Date.now() });
          } catch {
            setToast({ type: "error", message: "Could not copy text to clipboard", id: Date.now() });
          }
        }}
      >
        <Icon name="copy" />
        <span className="flex flex-col items-start">
          <span>Copy Account ID</span>
          <span className="text-base-content/80 break-all font-mono text-xs">{accountId}</span>
        </span>
      </button>
      {toast ? (
        <div className="toast toast-top toast-end z-50 max-w-md">
          <div role={toast.type === "error" ? "alert" : "status"} className={`alert ${toast.type === "error" ? "alert-error" : "alert-success"} shadow-lg`}>
            <span>{toast.message}</span>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => setToast(null)} aria-label="Dismiss notification">
              ✕
            </button>
          </div>
        </div>
      ) : null}
    </li>
  );
}

export function ProfileMenu({
  username,
  accountId,
  showBilling,
}: {
  username: string;
  accountId: string | null;
  showBilling: boolean;
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
        <li>
          <Link to="/account">
            <Icon name="settings" />
            Settings
          </Link>
        </li>
        <li>
          <Link to="/profile">
            <Icon name="user" />
            My Profile
          </Link>
        </li>
        {showBilling ? (
          <li>
            <Link to="/billing">
              <Icon name="billing" />
              Billing
            </Link>
          </li>
        ) : null}
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
