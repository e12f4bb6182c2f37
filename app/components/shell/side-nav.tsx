import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { ScreenLink } from "../query-link.tsx";
import { useClientRender } from "../interactive-layer.ts";
import { useMenuBehavior } from "../row-menu.tsx";
import { staticHtml } from "../static-html.ts";
import { Icon, type IconName } from "./icons.tsx";
import { PreferencesForm } from "./preferences-form.tsx";

interface NavItem {
  label: string;
  to: string;
  icon: IconName;
  /** Other pages that belong to this item (highlighted, without aria-current). */
  also?: string[];
  accountOnly?: boolean;
}

/** The side navigation (spec 3 §2.3 and DESIGN.md "Decisions"). */
export const navGroups: { title: string; items: NavItem[] }[] = [
  {
    title: "Intelligent Edge",
    items: [
      { label: "Dashboards", to: "/main-dashboard", icon: "dashboards" },
      { label: "Internet NIDs", to: "/routers", icon: "router" },
      { label: "Metro Ethernet NIDs", to: "/ethernet-devices", icon: "ethernet" },
    ],
  },
  {
    title: "Private Access",
    items: [
      { label: "Dashboard", to: "/dashboard", icon: "gauge" },
      { label: "App Services", to: "/app-services", icon: "apps" },
      { label: "Endpoints", to: "/endpoints", icon: "endpoint" },
      { label: "Service Nodes", to: "/service-nodes", icon: "server", also: ["/service-node-groups"] },
      { label: "Endpoint Nodes", to: "/endpoint-nodes", icon: "node", also: ["/endpoint-node-groups"] },
      { label: "User Agents", to: "/user-agents", icon: "agent" },
    ],
  },
  {
    title: "Systems",
    items: [
      { label: "Entities", to: "/entities", icon: "entities" },
      { label: "IAM", to: "/iam", icon: "iam" },
      { label: "Contacts", to: "/contacts", icon: "contacts" },
      { label: "Operations", to: "/operations", icon: "operations" },
      { label: "Service Reports", to: "/reports", icon: "history" },
      { label: "Change Logs", to: "/histories", icon: "history" },
      { label: "Support", to: "/support", icon: "support" },
      { label: "Billing", to: "/billing", icon: "billing", accountOnly: true },
    ],
  },
];

/**
 * The navigation's width the user chose (cookie `nav_collapsed`): "auto" (none chosen: the 260px
 * navigation on wide screens, the icon rail on narrower ones), or "collapsed" / "expanded" on every
 * width.
 */
export type NavPreference = "auto" | "collapsed" | "expanded";

/*
 * The same links in two places, neither needing JavaScript (spec 3 §2.3 "collapsible: 260px wide,
 * 70-80px collapsed. It auto-collapses on narrow screens"; DESIGN.md "Phones": a menu button):
 * - From 640px: the side navigation. 260px wide from 1024px; from 640 to 1023px it collapses by
 *   itself to the 72px icon rail (issue 63 item 22: it used to vanish there). Its toggle is a real
 *   button (aria-expanded) in a form that posts to /preferences: the cookie it sets makes the
 *   server render that width on every later page; with JavaScript a fetcher sends it and the
 *   width changes at once. The state a toggle announces depends on the width, which the server
 *   does not know: there is one toggle per range, the other display:none (out of the
 *   accessibility tree). In the rail the names stay in the accessibility tree (visually hidden)
 *   and show as the links' tooltips.
 * - Below 640px (phones, where a 72px rail would leave 248px of a 320px screen): no permanent
 *   navigation; the top bar's "Menu" button (<details>/<summary>) opens the links over the page.
 * Only one of the two is displayed at a time; each landmark has its own name.
 */
const rail = (on: string) =>
  `${on}{width:72px}` +
  `${on} :is(.nav-label,.nav-group-title){position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}` +
  `${on} .nav-link{justify-content:center;padding-inline:0}` +
  `${on} .nav-group{border-top:1px solid var(--color-base-300);margin-top:.5rem;padding-top:.5rem}` +
  `${on} .nav-toggle-row{justify-content:center}`;
const css = `
.shell-sidenav{position:relative;flex:none;width:260px;transition:width .15s ease}
.shell-sidenav-panel{position:sticky;top:4rem;height:calc(100dvh - 4rem);overflow-y:auto;overflow-x:hidden;width:100%}
.nav-link{display:flex;align-items:center;gap:.75rem;min-height:2.5rem;padding:.5rem .75rem;border-radius:.5rem;white-space:nowrap;font-size:.875rem}
.nav-link:hover{background:color-mix(in oklab,var(--color-base-content) 8%,transparent)}
.nav-link[aria-current=page]{background:color-mix(in oklab,var(--color-primary) 16%,var(--color-base-100));font-weight:600;box-shadow:inset 3px 0 0 var(--color-primary)}
.nav-link[data-section=true]{background:color-mix(in oklab,var(--color-primary) 9%,var(--color-base-100))}
.nav-group-title{padding:.75rem .75rem .25rem;font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:color-mix(in oklab,var(--color-base-content) 75%,transparent)}
.nav-toggle[aria-expanded=false] .nav-collapse-icon{transform:rotate(180deg)}
${rail(".shell-sidenav[data-nav=collapsed]")}
.nav-menu-panel{position:fixed;top:4rem;left:0;bottom:0;width:min(300px,100vw);overflow-y:auto;z-index:40;padding:.5rem .5rem 1.5rem;box-shadow:0 10px 30px rgb(0 0 0/.25)}
.nav-menu > summary{list-style:none}
.nav-menu > summary::-webkit-details-marker{display:none}
@media (min-width:1024px){.nav-toggle-narrow{display:none}}
@media (max-width:1023.98px){.nav-toggle-wide{display:none}${rail(".shell-sidenav[data-nav=auto]")}}
@media (max-width:639.98px){.shell-sidenav{display:none}}
@media (min-width:640px){.nav-menu{display:none}}
@media (prefers-reduced-motion:reduce){.shell-sidenav{transition:none}}
`;

/**
 * The toggles of the two ranges: whether each shows the names (aria-expanded) and the preference
 * it posts. Wide: the names unless collapsed; collapsing is remembered, expanding goes back to
 * "auto". Narrow: the rail unless expanded; expanding is remembered, collapsing goes back to "auto".
 */
function toggles(nav: NavPreference) {
  const wide = nav !== "collapsed";
  const narrow = nav === "expanded";
  return {
    wide: { expanded: wide, next: (wide ? "collapsed" : "auto") as NavPreference },
    narrow: { expanded: narrow, next: (narrow ? "auto" : "expanded") as NavPreference },
  };
}

function isCurrent(pathname: string, to: string) {
  return pathname === to || pathname === `${to}/`;
}

/** The links, grouped, as markup (static-html.ts): the same elements with and without JavaScript. */
function navLinksHtml(pathname: string, showBilling: boolean, idPrefix: string): string {
  return staticHtml(
    navGroups.map((group) => {
      const items = group.items.filter((item) => !item.accountOnly || showBilling);
      const headingId = `${idPrefix}-${group.title.toLowerCase().replace(/\s+/g, "-")}`;
      return (
        <li key={group.title} className="nav-group">
          <h2 id={headingId} className="nav-group-title">
            {group.title}
          </h2>
          <ul aria-labelledby={headingId} className="flex flex-col gap-0.5">
            {items.map((item) => {
              const current = isCurrent(pathname, item.to);
              const section = !current && (item.also ?? []).some((p) => isCurrent(pathname, p));
              return (
                <li key={item.to}>
                  <ScreenLink to={item.to} className="nav-link" aria-current={current ? "page" : undefined} data-section={section || undefined} title={item.label}>
                    <Icon name={item.icon} />
                    <span className="nav-label">{item.label}</span>
                  </ScreenLink>
                </li>
              );
            })}
          </ul>
        </li>
      );
    }),
  );
}

/**
 * The links, grouped (shared by the side navigation and the narrow screens' menu). They are plain
 * links (the document's one click listener follows them: query-link.tsx), so they reach the
 * browser as markup React does not walk: the shell draws them twice (~200 elements each), and
 * hydration kept the server's DOM anyway. While hydrating the browser passes "" and React leaves
 * the server's DOM as it is; after a navigation to another page it writes the markup itself (the
 * current page's link changes).
 */
function NavLinks({ showBilling, idPrefix }: { showBilling: boolean; idPrefix: string }) {
  const { pathname } = useLocation();
  const client = useClientRender();
  // The page whose links are the server's DOM; once the browser has written its own, never "" again.
  const serverPath = useRef<string | null>(client ? null : pathname);
  if (serverPath.current !== null && serverPath.current !== pathname) serverPath.current = null;
  const html = typeof document === "undefined" || serverPath.current !== pathname ? navLinksHtml(pathname, showBilling, idPrefix) : "";
  return <ul className="flex flex-col gap-1" dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />;
}

function NavStyles() {
  return (
    <style href="linkwise-shell-sidenav" precedence="default">
      {css}
    </style>
  );
}

/** The side navigation (from 640px), with its toggle. */
export function SideNav({ showBilling, nav: initialNav }: { showBilling: boolean; nav: NavPreference }) {
  const fetcher = useFetcher();
  // The server's answer (the cookie) is the truth on load; with JS a toggle changes it at once.
  const [nav, setNav] = useState(initialNav);
  useEffect(() => setNav(initialNav), [initialNav]);
  const { wide, narrow } = toggles(nav);
  return (
    <div className="shell-sidenav bg-base-100 border-base-300 border-r" data-testid="sidenav" data-nav={nav}>
      <NavStyles />
      <nav aria-label="Main navigation" id="side-nav" className="shell-sidenav-panel bg-base-100 px-2 pb-6">
        <PreferencesForm
          fetcher={fetcher}
          className="nav-toggle-row flex justify-end py-2"
          choose={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            const next = (submitter?.value ?? "auto") as NavPreference;
            setNav(next);
            return { nav: next };
          }}
        >
          {(["wide", "narrow"] as const).map((range) => {
            const toggle = range === "wide" ? wide : narrow;
            return (
              <button
                key={range}
                type="submit"
                name="nav"
                value={toggle.next}
                className={`nav-toggle nav-toggle-${range} btn btn-ghost btn-sm btn-square`}
                aria-expanded={toggle.expanded}
                aria-controls="side-nav-links"
                title={toggle.expanded ? "Collapse the navigation" : "Expand the navigation"}
                data-testid={range === "wide" ? "nav-collapse" : "nav-rail-toggle"}
              >
                <Icon name="chevrons-left" className="nav-collapse-icon size-5" />
                <span className="sr-only">Navigation labels</span>
              </button>
            );
          })}
        </PreferencesForm>
        <div id="side-nav-links">
          <NavLinks showBilling={showBilling} idPrefix="nav" />
        </div>
      </nav>
    </div>
  );
}

/** The phones' "Menu" button (in the top bar, below 640px): the links over the page. */
export function NavMenu({ showBilling }: { showBilling: boolean }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  useMenuBehavior();
  // Closed after a navigation (not on hydration: a menu opened just before it stays open).
  const shownAt = useRef(pathname);
  useEffect(() => {
    if (shownAt.current === pathname) return;
    shownAt.current = pathname;
    if (ref.current?.open) ref.current.open = false;
  }, [pathname]);
  return (
    <details ref={ref} className="nav-menu" data-menu="" data-testid="nav-menu">
      <NavStyles />
      <summary className="btn btn-ghost btn-square">
        <Icon name="menu" />
        <span className="sr-only">Menu</span>
      </summary>
      <nav aria-label="Main navigation menu" className="nav-menu-panel dropdown-content bg-base-100 border-base-300 border-r">
        <NavLinks showBilling={showBilling} idPrefix="menu" />
      </nav>
    </details>
  );
}
