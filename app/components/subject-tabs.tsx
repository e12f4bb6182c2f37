import type { ReactNode } from "react";
import { TabPanel, Tabs, type TabItem } from "./tabs.tsx";

/*
 * The selected row's tabs under a list (one selected contact, ticket, App Service, endpoint): a
 * card with the row's name as its h2, the tab links and the current panel.
 *
 *   <SubjectTabs name={ticket.title} label={`Ticket ${ticket.ticket_id}`} tabs={tabs} current={tab}>…</SubjectTabs>
 */
export function SubjectTabs({ name, label, tabs, current, children }: { name: string; label: string; tabs: readonly TabItem[]; current: string; children: ReactNode }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body p-4">
        <h2 className="text-lg font-semibold wrap-anywhere">{name}</h2>
        {/* daisyUI dims inactive tabs below AA contrast: full text colour here. */}
        <div className="[&_.tab]:text-base-content">
          <Tabs label={label} tabs={tabs} current={current} />
        </div>
        <TabPanel tab={current}>{children}</TabPanel>
      </div>
    </div>
  );
}
