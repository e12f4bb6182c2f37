import { useLocation, useMatches } from "react-router";
import { ScreenLink } from "../query-link.tsx";
import { pageTitles } from "../../lib/titles.ts";

/** Pages whose breadcrumb leads back to another page first (spec 2 §2). */
const parents: Record<string, string> = {
  "/endpoint-node-groups": "/endpoint-nodes",
  "/service-node-groups": "/service-nodes",
};

/** Pages under 'Dashboards' rather than 'Dashboard' (spec 1 §2, spec 3 §2.3). */
const underDashboards = new Set(["/routers", "/ethernet-devices"]);

interface Crumb {
  label: string;
  to?: string;
}

/**
 * The crumbs of a path. A page with no title of its own (a record under a path with an id, e.g.
 * /outages/:outageId) names itself by its route's `handle.breadcrumb`, under 'Dashboards'.
 */
export function breadcrumbsFor(pathname: string, fallbackTitle = "Page Not Found", missing: readonly string[] = [], handleCrumb?: string): Crumb[] {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (handleCrumb && !pageTitles[path]) return [{ label: "Dashboards", to: "/main-dashboard" }, { label: handleCrumb }];
  // A page this user does not have (an IAM user's /billing) is not found, whatever its title (issue 27 item 18).
  if (missing.includes(path)) return [{ label: "Dashboard", to: "/main-dashboard" }, { label: "Page Not Found" }];
  if (path === "/main-dashboard") return [{ label: "Dashboard" }];
  const root: Crumb = { label: underDashboards.has(path) ? "Dashboards" : "Dashboard", to: "/main-dashboard" };
  const crumbs = [root];
  const parent = parents[path];
  if (parent) crumbs.push({ label: pageTitles[parent] ?? parent, to: parent });
  crumbs.push({ label: pageTitles[path] ?? fallbackTitle });
  return crumbs;
}

/** 'Dashboard' › page title; the last crumb is the current page. */
export function Breadcrumbs({ title, missing }: { title?: string; missing?: readonly string[] }) {
  const { pathname } = useLocation();
  const handle = useMatches().at(-1)?.handle;
  const handleCrumb = handle && typeof handle === "object" && "breadcrumb" in handle && typeof handle.breadcrumb === "string" ? handle.breadcrumb : undefined;
  const crumbs = breadcrumbsFor(pathname, title, missing, handleCrumb);
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs overflow-visible py-0 text-sm [&>ol]:flex-wrap [&>ol]:whitespace-normal" data-testid="breadcrumbs">
      <ol>
        {crumbs.map((crumb, i) => (
          <li key={`${crumb.label}-${i}`}>
            {crumb.to ? (
              <ScreenLink to={crumb.to} className="link link-hover">
                {crumb.label}
              </ScreenLink>
            ) : (
              <span aria-current="page">{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
