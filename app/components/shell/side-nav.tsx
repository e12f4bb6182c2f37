import { useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import { Icon, type IconName } from "./icons.tsx";

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
      { label: "Change Logs", to: "/histories", icon: "history" },
      { label: "Support", to: "/support", icon: "support" },
      { label: "Billing", to: "/billing", icon: "billing", accountOnly: true },
    ],
  },
];

export const NAV_COLLAPSE_ID = "nav-collapse";
export const NAV_OPEN_ID = "nav-open";

/*
 * Collapsing needs no JavaScript: two visually hidden checkboxes and CSS `:has()`.
 * - Wide screens (≥1024px): 260px; "Collapse navigation" narrows it to a 72px icon rail.
 * - Narrow screens: a 72px icon rail by default; "Expand navigation" opens it as a 260px drawer
 *   over the page (the backdrop closes it).
 * Labels stay in the accessibility tree in the rail (visually hidden), so every link keeps its name.
 */
const css = `
.shell-sidenav{position:relative;flex:none;width:260px;transition:width .15s ease}
.shell-sidenav-panel{position:sticky;top:4rem;height:calc(100dvh - 4rem);overflow-y:auto;overflow-x:hidden;width:100%}
.nav-toggle-input{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.nav-toggle-input:focus-visible+label{outline:3px solid #1d4ed8;outline-offset:2px}
.nav-backdrop{display:none}
.nav-link{display:flex;align-items:center;gap:.75rem;min-height:2.5rem;padding:.5rem .75rem;border-radius:.5rem;white-space:nowrap}
.nav-link:hover{background:color-mix(in oklab,var(--color-base-content) 8%,transparent)}
.nav-link[aria-current=page]{background:color-mix(in oklab,var(--color-primary) 16%,var(--color-base-100));font-weight:600;box-shadow:inset 3px 0 0 var(--color-primary)}
.nav-link[data-section=true]{background:color-mix(in oklab,var(--color-primary) 9%,var(--color-base-100))}
.nav-group-title{padding:.75rem .75rem .25rem;font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:color-mix(in oklab,var(--color-base-content) 75%,transparent)}
@media (min-width:1024px){
  .nav-open-ui{display:none!important}
  .shell:has(#nav-collapse:checked) .shell-sidenav{width:72px}
  .shell:has(#nav-collapse:checked) :is(.nav-label,.nav-group-title){position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
  .shell:has(#nav-collapse:checked) .nav-link{justify-content:center;padding-inline:0}
  .shell:has(#nav-collapse:checked) .nav-group{border-top:1px solid var(--color-base-300);margin-top:.5rem;padding-top:.5rem}
  .shell:has(#nav-collapse:checked) .nav-toggle-row{justify-content:center}
  .shell:has(#nav-collapse:checked) .nav-collapse-icon{transform:rotate(180deg)}
}
@media (max-width:1023.98px){
  .nav-collapse-ui{display:none!important}
  .shell-sidenav{width:72px}
  .shell:not(:has(#nav-open:checked)) :is(.nav-label,.nav-group-title){position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
  .shell:not(:has(#nav-open:checked)) .nav-link{justify-content:center;padding-inline:0}
  .shell:not(:has(#nav-open:checked)) .nav-group{border-top:1px solid var(--color-base-300);margin-top:.5rem;padding-top:.5rem}
  .shell:not(:has(#nav-open:checked)) .nav-toggle-row{justify-content:center}
  .shell:has(#nav-open:checked) .shell-sidenav-panel{position:fixed;top:4rem;left:0;bottom:0;height:auto;width:260px;z-index:35;box-shadow:0 10px 30px rgb(0 0 0/.25)}
  .shell:has(#nav-open:checked) .nav-backdrop{display:block;position:fixed;inset:4rem 0 0 0;z-index:34;background:rgb(0 0 0/.4)}
}
@media (prefers-reduced-motion:reduce){.shell-sidenav{transition:none}}
`;

function isCurrent(pathname: string, to: string) {
  return pathname === to || pathname === `${to}/`;
}

export function SideNav({ showBilling, collapsed }: { showBilling: boolean; collapsed: boolean }) {
  const { pathname } = useLocation();
  const openRef = useRef<HTMLInputElement>(null);

  // The drawer (narrow screens) closes after a navigation and on Escape.
  useEffect(() => {
    if (openRef.current?.checked) openRef.current.checked = false;
  }, [pathname]);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const input = openRef.current;
      if (event.key === "Escape" && input?.checked) {
        input.checked = false;
        input.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <div className="shell-sidenav bg-base-100 border-base-300 border-r" data-testid="sidenav">
      <style href="linkwise-shell-sidenav" precedence="default">
        {css}
      </style>
      <label htmlFor={NAV_OPEN_ID} className="nav-backdrop" aria-hidden="true" />
      <nav aria-label="Main navigation" className="shell-sidenav-panel bg-base-100 px-2 pb-6">
        <div className="nav-toggle-row flex justify-end py-2">
          <input
            type="checkbox"
            id={NAV_COLLAPSE_ID}
            className="nav-toggle-input nav-collapse-ui"
            defaultChecked={collapsed}
            onChange={(event) => {
              document.cookie = `nav_collapsed=${event.currentTarget.checked ? "1" : "0"}; path=/; max-age=31536000; samesite=lax`;
            }}
          />
          <label htmlFor={NAV_COLLAPSE_ID} className="nav-collapse-ui btn btn-ghost btn-sm btn-square cursor-pointer">
            <Icon name="chevrons-left" className="nav-collapse-icon size-5" />
            <span className="sr-only">Collapse navigation</span>
          </label>
          <input type="checkbox" id={NAV_OPEN_ID} ref={openRef} className="nav-toggle-input nav-open-ui" />
          <label htmlFor={NAV_OPEN_ID} className="nav-open-ui btn btn-ghost btn-sm btn-square cursor-pointer">
            <Icon name="menu" />
            <span className="sr-only">Expand navigation</span>
          </label>
        </div>
        <ul className="flex flex-col gap-1">
          {navGroups.map((group) => {
            const items = group.items.filter((item) => !item.accountOnly || showBilling);
            const headingId = `nav-${group.title.toLowerCase().replace(/\s+/g, "-")}`;
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
                        <Link
                          to={item.to}
                          className="nav-link"
                          aria-current={current ? "page" : undefined}
                          data-section={section || undefined}
                          title={item.label}
                        >
                          <Icon name={item.icon} />
                          <span className="nav-label">{item.label}</span>
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}
