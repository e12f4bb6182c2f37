import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useLocation, useSearchParams } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { DataTable, SelectionStatus } from "../../components/data-table.tsx";
import { PageTitle } from "../../components/forms.tsx";
import { useCanWrite } from "../../components/hooks.ts";
import { RowMenu } from "../../components/row-menu.tsx";
import { apiGetOrThrow, apiPost } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { requireWriter } from "../../lib/roles.server.ts";
import { requireSession } from "../../lib/session.server.ts";
import { fetchTablePage, parseTableQuery, platformFailure } from "../../lib/table.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { dialogHref, returnUrl } from "../../lib/url.ts";
import { columns, sortable } from "./columns.ts";
import { TicketDetails } from "./details.tsx";
import { CloseTicketDialog, CreateTicketDialog, ReplyDialog } from "./dialogs.tsx";
import { REPLY_SENT, type Correspondence, type DeviceNames, type Ticket } from "./model.ts";
import { CreateTicketSchema, ReplySchema, ResolveSchema } from "./schemas.server.ts";
import type { Route } from "./+types/route";
import { Faq } from "./faq.tsx";

/*
 * /support, the Support Center (spec 3 §2.12, §3 Ticket, §5, §7.3, §8): the tickets table (Ticket
 * ID, Subject, Priority, Category, Status, Created) with Create Ticket, Refresh and the row action
 * 'Resolve ticket'; one selected ticket at a time (the last clicked, ?selected=) shows its
 * Correspondence tab with Reply. Dialogs open by URL and post to the action: no JavaScript needed.
 */

const getRowId = (t: Ticket) => t.ticket_id;

export async function loader({ request }: Route.LoaderArgs) {
  await requireSession(request);
  const url = new URL(request.url);
  const { state, headers } = parseTableQuery(request, { sortable });
  // Single selection: the last one clicked.
  if (state.selected.length > 1) state.selected = state.selected.slice(-1);
  const dialog = url.searchParams.get("dialog");
  const dialogId = url.searchParams.get("id");
  const detail = (id: string) => apiGetOrThrow<Ticket>(request, "get-ticket-detail", { ticket_id: id }).catch(() => null);
  const creating = dialog === "create";
  const [table, priorities, categories, devices, dialogTicket] = await Promise.all([
    fetchTablePage<Ticket>(request, "get_ticket", state, { getRowId }),
    creating ? apiGetOrThrow<string[]>(request, "get_ticket_priority") : null,
    creating ? apiGetOrThrow<string[]>(request, "get_ticket_category") : null,
    creating ? apiGetOrThrow<DeviceNames>(request, "dashboard_get_device_names") : null,
    dialogId && (dialog === "resolve" || dialog === "reply") ? detail(dialogId) : null,
  ]);
  const selectedId = table.selected[0];
  const [selectedTicket, correspondence] = selectedId
    ? await Promise.all([detail(selectedId), apiGetOrThrow<Correspondence[]>(request, "get_correspondence", { ticket_id: selectedId }).catch(() => [])])
    : [null, []];
  return data({ table, priorities, categories, devices, dialogTicket, selectedTicket, correspondence }, { headers });
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  switch (formData.get("intent")) {
    case "create":
      return createTicket(request, formData);
    case "reply":
      return reply(request, formData);
    case "resolve":
      return resolve(request, formData);
    case "refresh":
      return redirectWithToast(request, returnUrl(request), { type: "success", message: "Refreshed tickets." });
    default:
      throw data({ message: "Unknown action." }, { status: 400 });
  }
}

async function createTicket(request: Request, formData: FormData) {
  await requireWriter(request);
  const submission = parseWithZod(formData, { schema: CreateTicketSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { device_id, ...fields } = submission.value;
  const res = await apiPost<{ ticket_id: string; detail: string }>(request, "create_ticket", device_id ? { ...fields, device_id } : fields);
  if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["title", "description", "priority", "category", "device_id"] });
  return redirectWithToast(request, returnUrl(request, { selected: [res.data.ticket_id], tab: null }), {
    type: "success",
    message: res.data.detail ?? "Ticket created successfully.",
  });
}

async function reply(request: Request, formData: FormData) {
  await requireWriter(request);
  const submission = parseWithZod(formData, { schema: ReplySchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const res = await apiPost(request, "add_correspondence", submission.value);
  if (!res.ok) return platformFailure(request, res, { submission, fieldNames: ["correspondence"] });
  return redirectWithToast(request, returnUrl(request), { type: "success", message: REPLY_SENT });
}

async function resolve(request: Request, formData: FormData) {
  await requireWriter(request);
  const submission = parseWithZod(formData, { schema: ResolveSchema });
  if (submission.status !== "success") throw data({ message: "The request was incomplete." }, { status: 400 });
  const res = await apiPost<{ detail?: string }>(request, "resolve_ticket", submission.value);
  if (!res.ok) return platformFailure(request, res);
  return redirectWithToast(request, returnUrl(request), { type: "success", message: res.data?.detail ?? "Ticket closed." });
}

export default function Support({ loaderData, actionData }: Route.ComponentProps) {
  const { table, priorities, categories, devices, dialogTicket, selectedTicket, correspondence } = loaderData;
  const [params] = useSearchParams();
  const location = useLocation();
  const canWrite = useCanWrite();
  const dialog = params.get("dialog");
  const result = actionData && "result" in actionData ? actionData.result : undefined;

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <PageTitle title="Support Center" error={result?.status === "error"} />
      <h1 id="page-title" className="text-2xl font-semibold">
        Support Center
      </h1>

      <DataTable
        caption="Tickets"
        columns={columns}
        page={table}
        getRowId={getRowId}
        rowLabel={(t) => `${t.ticket_id} ${t.title}`}
        selection="single"
        linkColumn="ticket_id"
        toolbar={
          <>
            {canWrite ? (
              <Link to={dialogHref(location, "create")} className="btn btn-primary btn-sm" preventScrollReset>
                Create Ticket
              </Link>
            ) : null}
            <Form method="post" preventScrollReset>
              <AuthenticityTokenInput name="csrf" />
              <button type="submit" name="intent" value="refresh" className="btn btn-outline btn-sm">
                Refresh
              </button>
            </Form>
          </>
        }
        rowMenu={(t, links, up) =>
          canWrite && t.state !== "Closed" ? (
            <RowMenu label={`Actions for ${t.ticket_id}`} up={up} items={[{ label: "Resolve ticket", dialog: "resolve", danger: true }]} links={links} id={t.ticket_id} />
          ) : null
        }
      />

      <SelectionStatus count={table.selected.length} plural="tickets">
        {selectedTicket ? <TicketDetails ticket={selectedTicket} correspondence={correspondence} canReply={canWrite} /> : null}
      </SelectionStatus>

      {dialog === "create" && canWrite ? (
        <CreateTicketDialog priorities={priorities ?? []} categories={categories ?? []} devices={devices ?? { cpe: [], metro: [] }} lastResult={result} />
      ) : null}
      {dialog === "reply" && canWrite ? <ReplyDialog ticket={dialogTicket} lastResult={result} /> : null}
      {dialog === "resolve" && canWrite ? <CloseTicketDialog ticket={dialogTicket} /> : null}

      <Faq />
    </section>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
