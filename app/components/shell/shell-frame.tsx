import type { ReactNode } from "react";
import { useRouteLoaderData, useSearchParams } from "react-router";
import type { ShellData } from "../../lib/shell.server.ts";
import { DataRequestNotice } from "../data-request-notice.tsx";
import { useHydrated } from "../hooks.ts";
import type { ThemeChoice } from "../theme.ts";
import { Breadcrumbs } from "./breadcrumbs.tsx";
import { SideNav } from "./side-nav.tsx";
import { TopBar } from "./top-bar.tsx";

/**
 * The frame of every protected page: skip link, top bar, side navigation, breadcrumbs and the
 * main landmark. `mainElement="div"` when the content brings its own `<main>` (the root ErrorPage).
 */
export function ShellFrame({
  shell,
  productName,
  hideNav = false,
  mainElement = "main",
  title,
  children,
}: {
  shell: ShellData;
  productName: string;
  hideNav?: boolean;
  mainElement?: "main" | "div";
  /** The breadcrumb for a page unknown to the titles list. */
  title?: string;
  children: ReactNode;
}) {
  const showBilling = shell.user.session_type === "account";
  const Main = mainElement;
  // Marks the page as interactive (tests and scripts wait for it before using JS-only comfort).
  const hydrated = useHydrated();
  const theme = ((useRouteLoaderData("root") as { theme?: ThemeChoice } | undefined)?.theme ?? "system") as ThemeChoice;
  // No JS and a dialog open by URL (UrlDialog): the bar, the navigation and the breadcrumbs are
  // inert, so focus starts in the dialog (with JS, showModal makes the page inert itself).
  const [params] = useSearchParams();
  const behindDialog = !hydrated && params.has("dialog");
  return (
    <div className="shell min-h-screen" data-hydrated={hydrated || undefined}>
      <a
        inert={behindDialog}
        href="#main"
        className="bg-base-100 text-primary sr-only z-50 rounded px-4 py-2 font-semibold shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to main content
      </a>
      <TopBar
        productName={productName}
        logo={shell.account?.logo ?? null}
        accountName={shell.account?.name ?? null}
        username={shell.user.username}
        accountId={shell.account?.account_id ?? null}
        showBilling={showBilling}
        theme={theme}
        hideNav={hideNav}
        inert={behindDialog}
      />
      <div className="flex">
        {hideNav ? null : (
          <div className="contents" inert={behindDialog}>
            <SideNav showBilling={showBilling} nav={shell.nav} />
          </div>
        )}
        <div className="min-w-0 flex-1">
          <Main id="main" tabIndex={-1} className="mx-auto flex w-full max-w-screen-2xl flex-col gap-3 p-4 outline-none sm:p-6">
            <div inert={behindDialog}>
              <Breadcrumbs title={title} missing={showBilling ? undefined : ["/billing"]} />
            </div>
            <DataRequestNotice />
            {children}
          </Main>
        </div>
      </div>
    </div>
  );
}
