import { data } from "react-router";
import { ListScreen } from "../../components/list-screen.tsx";
import { useScreen } from "../../components/screen.tsx";
import type { MenuItem } from "../../components/row-menu.tsx";
import { detailOr, intentAction, refreshIntent, submitForm } from "../../lib/action.server.ts";
import { apiGetOrThrow } from "../../lib/api.server.ts";
import { fetchTablePage, listScreenQuery } from "../../lib/table.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { screen, sortable } from "./columns.ts";
import { TicketDetails } from "./details.tsx";
import { CloseTicketDialog, CreateTicketDialog, ReplyDialog } from "./dialogs.tsx";
import { REPLY_SENT } from "./model.ts";
import { constraints, CreateTicketSchema, ReplySchema, ResolveSchema } from "./schemas.server.ts";
import type { Route } from "./+types/route";
import { Faq } from "./faq.tsx";
import { supportMessages } from "../../../platform/contract/messages.ts";

/*
 * /support, the Support Center (spec 3 §2.12, §3 Ticket, §5, §7.3, §8): the tickets table (Ticket
 * ID, Subject, Priority, Category, Status, Created) with Create Ticket, Refresh and the row action
 * 'Resolve ticket'; one selected ticket at a time (the last clicked, ?selected=) shows its
 * Correspondence tab with Reply. Dialogs open by URL and post to the action: no JavaScript needed.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable });
  // Single selection: the last one clicked.
  if (state.selected.length > 1) state.selected = state.selected.slice(-1);
  const detail = (id: string) => apiGetOrThrow(request, "get-ticket-detail", { ticket_id: id }).catch(() => null);
  const creating = dialog === "create";
  const [table, priorities, categories, devices, dialogTicket] = await Promise.all([
    fetchTablePage(request, "get_ticket", state, screen),
    creating ? apiGetOrThrow(request, "get_ticket_priority") : null,
    creating ? apiGetOrThrow(request, "get_ticket_category") : null,
    creating ? apiGetOrThrow(request, "dashboard_get_device_names") : null,
    dialogId && (dialog === "resolve" || dialog === "reply") ? detail(dialogId) : null,
  ]);
  const selectedId = table.selected[0];
  const [selectedTicket, correspondence] = selectedId
    ? await Promise.all([detail(selectedId), apiGetOrThrow(request, "get_correspondence", { ticket_id: selectedId }).catch(() => [])])
    : [null, []];
  const exportLink = exportHref("/support/export.csv", state);
  return data({ table, priorities, categories, devices, dialogTicket, selectedTicket, correspondence, exportLink, constraints }, { headers });
}

const create = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: CreateTicketSchema,
    call: "create_ticket",
    fields: ["title", "description", "priority", "category", "device_id"],
    toast: detailOr(supportMessages.ticketCreated),
    redirect: (ticket) => ({ selected: [ticket.ticket_id], tab: null }),
  });

const reply = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: ReplySchema, call: "add_correspondence", fields: ["correspondence"], toast: REPLY_SENT });

const resolve = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: ResolveSchema, call: "resolve_ticket", errors: "toast", toast: detailOr("Ticket closed.") });

export const action = intentAction({ create, reply, resolve, refresh: refreshIntent("Refreshed tickets.") }, { readable: ["refresh"] });

const menuItems: MenuItem[] = [{ label: "Resolve ticket", dialog: "resolve", danger: true }];

export default function Support({ loaderData, actionData }: Route.ComponentProps) {
  const { table, priorities, categories, devices, dialogTicket, selectedTicket, correspondence, exportLink } = loaderData;
  const { dialog, result, error } = useScreen(actionData);

  return (
    <ListScreen screen={screen} error={error} page={table} toolbar={{ exportLink }} menu={(t) => (t.state === "Closed" ? null : menuItems)} details={selectedTicket ? <TicketDetails ticket={selectedTicket} correspondence={correspondence} /> : null}>
      {dialog === "create" ? (
        <CreateTicketDialog priorities={priorities ?? []} categories={categories ?? []} devices={devices ?? { cpe: [], metro: [] }} lastResult={result} />
      ) : null}
      {dialog === "reply" ? <ReplyDialog ticket={dialogTicket} lastResult={result} /> : null}
      {dialog === "resolve" ? <CloseTicketDialog ticket={dialogTicket} /> : null}

      <Faq />
    </ListScreen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
