import { data } from "react-router";
import { RemoveDialog } from "../../components/confirm-phrase-dialog.tsx";
import { ListScreen } from "../../components/list-screen.tsx";
import { useScreen } from "../../components/screen.tsx";
import { detailOr, failureToasts, intentAction, refreshIntent, removeIntent, submitForm, validateForm } from "../../lib/action.server.ts";
import { apiGetOrThrow, apiPageOrThrow, apiPost } from "../../lib/api.server.ts";
import type { CallBody } from "../../../platform/contract/calls.ts";
import { exportHref } from "../../lib/export.server.ts";
import { fetchTablePage, listScreenQuery } from "../../lib/table.server.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { returnUrl } from "../../lib/url.ts";
import { hideable, menuOf, screen, sortable } from "./columns.ts";
import { ScheduleDetails } from "./details.tsx";
import { CreateDialog, UpdateDialog } from "./dialogs.tsx";
import { HISTORY_SIZE, REMOVE_PHRASE, reportMessages, SCHEDULE_GONE } from "./model.ts";
import { constraints, RemoveScheduleSchema, ScheduleIdSchema, scheduleBody, ScheduleSchema, UpdateScheduleSchema } from "./schemas.server.ts";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * /reports, Service Reports (issue 58): the account's report schedules (what is reported, how
 * often, to whom), each with Edit, Pause or Resume, Send now (to the signed-in user only) and
 * Delete; the selected schedule shows its details and the reports it made, each downloadable.
 * A readonly user reads the list, the details and the history, and has no control that changes
 * anything. Every form posts to the action: no JavaScript needed.
 * ---------------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  // Single selection: the last one clicked.
  if (state.selected.length > 1) state.selected = state.selected.slice(-1);
  const detail = (id: string) => apiGetOrThrow(request, "get_report_schedule", { schedule_id: id }).catch(() => null);
  const needsEntities = dialog === "create" || dialog === "update";
  const [table, entityNames, dialogSchedule] = await Promise.all([
    fetchTablePage(request, "list_report_schedule", state, screen),
    needsEntities ? apiGetOrThrow(request, "get-entity-names") : null,
    dialogId && (dialog === "update" || dialog === "remove") ? detail(dialogId) : null,
  ]);
  const selectedId = table.selected[0];
  const [selected, history] = selectedId
    ? await Promise.all([
        detail(selectedId),
        apiPageOrThrow(request, "list_report_history", { schedule_id: selectedId, page: "1", size: String(HISTORY_SIZE) }).catch(() => ({ items: [], total: 0 })),
      ])
    : [null, { items: [], total: 0 }];
  return data({ table, entityNames, dialogSchedule, selected, history, exportLink: exportHref("/reports/export.csv", state), constraints }, { headers });
}

/* Action: one function per intent -------------------------------------------------------------- */

const scheduleFields = ["name", "entity_name", "cadence", "time_zone", "hour", "recipients"];

const create = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: ScheduleSchema,
    call: "create_report_schedule",
    body: scheduleBody,
    fields: scheduleFields,
    toast: detailOr(reportMessages.created),
    redirect: (answer) => ({ selected: [answer.schedule_id] }),
  });

const update = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: UpdateScheduleSchema,
    call: "update_report_schedule",
    body: ({ schedule_id, ...v }) => ({ schedule_id, ...scheduleBody(v) }),
    fields: scheduleFields,
    toast: detailOr(reportMessages.updated),
  });

/** A button of the row menu (Pause, Resume, Send now): the call, its toast, back to the list (a refusal as persistent toasts). */
async function button(request: Request, formData: FormData, call: "update_report_schedule" | "send_report_now", body: (id: string) => CallBody<"update_report_schedule" | "send_report_now">) {
  const form = validateForm(formData, ScheduleIdSchema);
  if (!form.ok) return redirectWithToast(request, returnUrl(request), { type: "error", message: "Choose a report schedule.", persistent: true });
  const res = await apiPost(request, call, body(form.value.schedule_id));
  if (!res.ok) return failureToasts(request, res, returnUrl(request));
  return redirectWithToast(request, returnUrl(request, { selected: [form.value.schedule_id] }), { type: "success", message: res.data.detail });
}

const pause = (request: Request, formData: FormData) => button(request, formData, "update_report_schedule", (id) => ({ schedule_id: id, paused: true }));
const resume = (request: Request, formData: FormData) => button(request, formData, "update_report_schedule", (id) => ({ schedule_id: id, paused: false }));
const send = (request: Request, formData: FormData) => button(request, formData, "send_report_now", (id) => ({ schedule_id: id }));

const remove = removeIntent({ idField: "schedule_id", schema: RemoveScheduleSchema, call: "remove_report_schedule", toast: reportMessages.removed });

export const action = intentAction({ create, update, pause, resume, send, remove, refresh: refreshIntent("Refreshed report schedules.") }, { readable: ["refresh"] });

/* Component ------------------------------------------------------------------------------------ */

export default function Reports({ loaderData, actionData }: Route.ComponentProps) {
  const { table, entityNames, dialogSchedule, selected, history, exportLink } = loaderData;
  const { dialog, dialogId, result, error } = useScreen(actionData);
  return (
    <ListScreen
      screen={screen}
      page={table}
      error={error}
      toolbar={{ exportLink }}
      menu={menuOf}
      details={selected ? <ScheduleDetails schedule={selected} history={history} /> : null}
    >
      {dialog === "create" ? <CreateDialog entityNames={entityNames ?? []} lastResult={result} /> : null}
      {dialog === "update" ? <UpdateDialog schedule={dialogSchedule} entityNames={entityNames ?? []} lastResult={result} /> : null}
      {dialog === "remove" ? (
        <RemoveDialog title="Delete Report Schedule" phrase={REMOVE_PHRASE} fields={{ schedule_id: dialogId ?? "" }} lastResult={result} gone={SCHEDULE_GONE}>
          {dialogSchedule ? (
            <>
              Delete the report schedule <strong>{dialogSchedule.name}</strong>? No report is sent for it any more, and the history of the reports it sent is deleted with it.
            </>
          ) : null}
        </RemoveDialog>
      ) : null}
    </ListScreen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
