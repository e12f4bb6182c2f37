import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { ScreenLink } from "../query-link.tsx";
import { useMenuBehavior } from "../row-menu.tsx";
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

/*
 * Two presentations of the same links, neither needing JavaScript:
 * - Wide screens (≥1024px): a 260px side navigation. "Collapse navigation" is a real button
 *   (aria-expanded) in a form that posts to /preferences: the cookie it sets makes the server
 *   render the 72px icon rail on every later page. With JavaScript the form is sent by a fetcher
 *   and the rail changes at once.
 * - Narrow screens: no permanent rail; the top bar's "Menu" button (<details>/<summary>, a button
 *   with its expanded state for assistive technology) opens the links over the page.
 * Only one of the two is displayed at a time (the other is display:none, out of the
 * accessibility tree). In the rail the labels stay in the accessibility tree (visually hidden).
 */
const css = `
.shell-sidenav{position:relative;flex:none;width:260px;transition:width .15s ease}
.shell-sidenav-panel{position:sticky;top:4rem;height:calc(100dvh - 4rem);overflow-y:auto;overflow-x:hidden;width:100%}
.nav-link{display:flex;align-items:center;gap:.75rem;min-height:2.5rem;padding:.5rem .75rem;border-radius:.5rem;white-space:nowrap;font-size:.875rem}
.nav-link:hover{background:color-mix(in oklab,var(--color-base-content) 8%,transparent)}
.nav-link[aria-current=page]{background:color-mix(in oklab,var(--color-primary) 16%,var(--color-base-100));font-weight:600;box-shadow:inset 3px 0 0 var(--color-primary)}
.nav-link[data-section=true]{background:color-mix(in oklab,var(--color-primary) 9%,var(--color-base-100))}
.nav-group-title{padding:.75rem .75rem .25rem;font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:color-mix(in oklab,var(--color-base-content) 75%,transparent)}
.shell-sidenav[data-collapsed] {width:72px}
.shell-sidenav[data-collapsed] :is(.nav-label,.nav-group-title){position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.shell-sidenav[data-collapsed] .nav-link{justify-content:center;padding-inline:0}
.shell-sidenav[data-collapsed] .nav-group{border-top:1px solid var(--color-base-300);margin-top:.5rem;padding-top:.5rem}
.shell-sidenav[data-collapsed] .nav-toggle-row{justify-content:center}
.shell-sidenav[data-collapsed] .nav-collapse-icon{transform:rotate(180deg)}
.nav-menu-panel{position:fixed;top:4rem;left:0;bottom:0;width:min(300px,100vw);overflow-y:auto;z-index:40;padding:.5rem .5rem 1.5rem;box-shadow:0 10px 30px rgb(0 0 0/.25)}
.nav-menu > summary{list-style:none}
.nav-menu > summary::-webkit-details-marker{display:none}
@media (max-width:1023.98px){.shell-sidenav{display:none}}
@media (min-width:1024px){.nav-menu{display:none}}
@media (prefers-reduced-motion:reduce){.shell-sidenav{transition:none}}
`;

function isCurrent(pathname: string, to: string) {
  return pathname === to || pathname === `${to}/`;
}

/** The links, grouped (shared by the side navigation and the narrow screens' menu). */
function NavLinks({ showBilling, idPrefix }: { showBilling: boolean; idPrefix: string }) {
  const { pathname } = useLocation();
  return (
    <ul className="flex flex-col gap-1">
      {navGroups.map((group) => {
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
                    <ScreenLink
                      to={item.to}
                      className="nav-link"
                      aria-current={current ? "page" : undefined}
                      data-section={section || undefined}
                      title={item.label}
                    >
                      <Icon name={item.icon} />
                      <span className="nav-label">{item.label}</span>
                    </ScreenLink>
                  </li>
                );
              })}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}

function NavStyles() {
  return (
    <style href="linkwise-shell-sidenav" precedence="default">
      {css}
    </style>
  );
}

/** The side navigation of wide screens, with its collapse button. */
export function SideNav({ showBilling, collapsed: initiallyCollapsed }: { showBilling: boolean; collapsed: boolean }) {
  const fetcher = useFetcher();
  // The server's answer (the cookie) is the truth on load; with JS the button flips it at once.
  const [collapsed, setCollapsed] = useState(initiallyCollapsed);
  useEffect(() => setCollapsed(initiallyCollapsed), [initiallyCollapsed]);
  return (
    <div className="shell-sidenav bg-base-100 border-base-300 border-r" data-testid="sidenav" data-collapsed={collapsed || undefined}>
      <NavStyles />
      <nav aria-label="Main navigation" id="side-nav" className="shell-sidenav-panel bg-base-100 px-2 pb-6">
        <PreferencesForm
          fetcher={fetcher}
          className="nav-toggle-row flex justify-end py-2"
          choose={() => {
            const next = !collapsed;
            setCollapsed(next);
            return { nav: next ? "collapsed" : "expanded" };
          }}
        >
          <button
            type="submit"
            name="nav"
            value={collapsed ? "expanded" : "collapsed"}
            className="btn btn-ghost btn-sm btn-square"
            aria-expanded={!collapsed}
            aria-controls="side-nav-links"
            data-testid="nav-collapse"
          >
            <Icon name="chevrons-left" className="nav-collapse-icon size-5" />
            <span className="sr-only">Navigation labels</span>
          </button>
        </PreferencesForm>
        <div id="side-nav-links">
          <NavLinks showBilling={showBilling} idPrefix="nav" />
        </div>
      </nav>
    </div>
  );
}

/** The narrow screens' "Menu" button (in the top bar): the links over the page. */
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
      <nav aria-label="Main navigation" className="nav-menu-panel dropdown-content bg-base-100 border-base-300 border-r">
        <NavLinks showBilling={showBilling} idPrefix="menu" />
      </nav>
    </details>
  );
}
