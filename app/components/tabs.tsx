import type { ReactNode } from "react";
import { useLocation, useSearchParams } from "react-router";
import { hrefWith, type ParamChanges } from "../lib/url.ts";
import { QueryLink } from "./query-link.tsx";

/*
 * Tabs as links: `?tab=details`. Each tab is a link to this URL with another `tab=` (every other
 * parameter kept, the dialog closed); the current one has aria-current="page". The server renders
 * only the current panel, so it works without JavaScript.
 *
 *   export const tabs = defineTabs({ details: "Details", endpoints: "Endpoints" });  // once, beside the panels
 *   const tab = tabs.current(url.searchParams);   // the loader (what to fetch)
 *   const tab = useTab(tabs);                     // the component
 *   <Tabs label="Contact" tabs={tabs.list} current={tab} />
 *   <TabPanel tab={tab}>…</TabPanel>
 */

export interface TabItem {
  id: string;
  label: string;
}

/** The `tab=` value if it names one of `ids`, else the first. */
export function currentTab(params: URLSearchParams, ids: readonly string[], param = "tab"): string {
  const v = params.get(param);
  return v && ids.includes(v) ? v : (ids[0] ?? "");
}

/**
 * A screen's tabs in their order, from `{ id: label }`: `list` for Tabs/SubjectTabs, `ids`, and
 * `current(params)`: the tab `tab=` names, else the first (the loader's and the component's alike).
 */
export function defineTabs<const L extends Record<string, string>>(labels: L) {
  type Id = Extract<keyof L, string>;
  const ids = Object.keys(labels) as Id[];
  return {
    list: ids.map((id) => ({ id, label: labels[id]! })),
    ids,
    current: (params: URLSearchParams, param = "tab") => currentTab(params, ids, param) as Id,
  };
}

/** The current tab of `defineTabs`' tabs, from this URL. */
export function useTab<Id extends string>(tabs: { current: (params: URLSearchParams) => Id }): Id {
  const [params] = useSearchParams();
  return tabs.current(params);
}

export function Tabs({
  label,
  tabs,
  current,
  param = "tab",
  idPrefix = "tab",
}: {
  /** The navigation's accessible name, e.g. "Contact details". */
  label: string;
  tabs: readonly TabItem[];
  current: string;
  param?: string;
  idPrefix?: string;
}) {
  const location = useLocation();
  return (
    <nav aria-label={label}>
      <div className="tabs tabs-border">
        {tabs.map((t) => {
          const changes: ParamChanges = { [param]: t.id, dialog: null, id: null };
          const active = t.id === current;
          return (
            <QueryLink
              key={t.id}
              id={`${idPrefix}-${t.id}`}
              href={hrefWith(location, changes)}
              className={`tab ${active ? "tab-active" : ""}`}
              aria-current={active ? "page" : undefined}
            >
              {t.label}
            </QueryLink>
          );
        })}
      </div>
    </nav>
  );
}

/** The current tab's content, labelled by its tab link. */
export function TabPanel({ tab, idPrefix = "tab", children }: { tab: string; idPrefix?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${idPrefix}-${tab}`} className="pt-4">
      {children}
    </section>
  );
}
