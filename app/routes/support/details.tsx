import { Link, useLocation } from "react-router";
import { DetailsTable } from "../../components/details-table.tsx";
import { useCanWrite } from "../../components/hooks.ts";
import { SubjectTabs } from "../../components/subject-tabs.tsx";
import { defineTabs, useTab } from "../../components/tabs.tsx";
import { formatTime } from "../../lib/format.ts";
import { dialogHref } from "../../lib/url.ts";
import type { Correspondence, Ticket } from "./model.ts";

/*
 * The selected ticket: a Correspondence tab with its General section and the correspondence,
 * newest first (author, time, text as typed: line breaks kept, nothing read as HTML), and Reply.
 */

const tabs = defineTabs({ correspondence: "Correspondence" });

function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatTime(iso)}</time>;
}

export function TicketDetails({ ticket, correspondence }: { ticket: Ticket; correspondence: Correspondence[] }) {
  const canReply = useCanWrite();
  const location = useLocation();
  const tab = useTab(tabs);
  return (
    <SubjectTabs name={ticket.title} label={`Ticket ${ticket.ticket_id}`} tabs={tabs.list} current={tab}>
      <h3 className="mb-2 font-semibold">General</h3>
      <DetailsTable
        className="mb-4"
        items={[
          { label: "Title", value: ticket.title },
          { label: "Category", value: ticket.category },
          { label: "Priority", value: ticket.priority },
          { label: "Status", value: ticket.state },
          { label: "Ticket ID", value: ticket.ticket_id },
          { label: "Account ID", value: ticket.account_id },
          { label: "Device ID", value: ticket.device_id },
          { label: "Entity ID", value: ticket.entity_id },
          { label: "Created by", value: ticket.created_by },
          { label: "Created at", value: <When iso={ticket.created_at} /> },
          { label: "Updated at", value: <When iso={ticket.updated_at} /> },
        ]}
      />
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold" id="correspondence-heading">
          Correspondence
        </h3>
        {canReply && ticket.state !== "Closed" ? (
          <Link to={dialogHref(location, "reply", ticket.ticket_id)} className="btn btn-primary btn-sm" preventScrollReset>
            Reply
          </Link>
        ) : null}
      </div>
      <ol className="space-y-3" aria-labelledby="correspondence-heading">
        {correspondence.map((c) => (
          <li key={c.correspondence_id} className="border-base-300 rounded-box border p-3">
            <p className="text-sm">
              <span className="font-medium wrap-anywhere">{c.created_by}</span>
              <span className="text-base-content/70">
                {" · "}
                <When iso={c.created_at} />
              </span>
            </p>
            <p className="mt-1 whitespace-pre-wrap wrap-anywhere" data-testid="correspondence-text">
              {c.correspondence}
            </p>
          </li>
        ))}
      </ol>
    </SubjectTabs>
  );
}
