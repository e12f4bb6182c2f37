import { data } from "react-router";
import { CreateDialog, LinkDialog } from "./dialogs.tsx";
import { USER_AGENT_GONE, userAgentMessages } from "./model.ts";
import { constraints, CreateUserAgentSchema, LinkSchema, removeSchema } from "./schemas.server.ts";
import { hideable, screen, sortable } from "./columns.ts";
import { RemoveDialog } from "../../components/confirm-phrase-dialog.tsx";
import { ListScreen } from "../../components/list-screen.tsx";
import { useScreen } from "../../components/screen.tsx";
import { detailOr, intentAction, removeIntent, submitForm } from "../../lib/action.server.ts";
import { apiGet } from "../../lib/api.server.ts";
import { exportHref } from "../../lib/export.server.ts";
import { fetchTablePage, listScreenQuery } from "../../lib/table.server.ts";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * User Agents (spec 2 §2 /user-agents, §3 User agent, §4, §5, §7 User agents, §8): the account's
 * user agents, each linked to one or more endpoints. Op state and authentication come from the
 * fleet (the platform reads them). Every change needs a writer: a readonly user sees the table and
 * no control.
 * ---------------------------------------------------------------------------------------------- */

/** The platform call listing the endpoints a dialog offers (none for Delete). */
const choicesCall = (dialog: string | null) =>
  dialog === "create" || dialog === "link" ? "user_agent_get_unlinked_ep" : dialog === "unlink" ? "user_agent_get_linked_ep" : null;

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  const call = choicesCall(dialog);
  const forAgent = dialog !== "create" && dialogId ? dialogId : null;
  const [table, endpoints, dialogAgent] = await Promise.all([
    fetchTablePage(request, "list_user_agent", state, screen),
    call && (dialog === "create" || forAgent)
      ? apiGet(request, call, forAgent ? { user_agent_id: forAgent } : undefined).then((r) => (r.ok ? r.data : []))
      : [],
    // The dialog's agent (null when it is gone, or the id is not one: the dialog says so).
    forAgent ? apiGet(request, "list_user_agent", { ids: forAgent }).then((r) => (r.ok && !Array.isArray(r.data) ? (r.data.items[0] ?? null) : null)) : null,
  ]);
  return data({ table, endpoints, dialogAgent, exportLink: exportHref("/user-agents/export.csv", state), constraints }, { headers });
}

/* Action: one function per intent -------------------------------------------------------------- */

const create = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: CreateUserAgentSchema,
    call: "create_user_agent",
    fields: ["name", "email", "description", "ep_id"],
    toast: detailOr(userAgentMessages.created),
  });

const link = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: LinkSchema, call: "link_user_agent_to_ep", fields: ["ep_id"], toast: detailOr(userAgentMessages.linked) });

const unlink = (request: Request, formData: FormData) =>
  submitForm(request, formData, { schema: LinkSchema, call: "unlink_user_agent_from_ep", fields: ["ep_id"], toast: detailOr(userAgentMessages.unlinked) });

// The phrase is the agent's id.
const remove = removeIntent({ idField: "user_agent_id", schema: removeSchema, call: "remove_user_agent", toast: userAgentMessages.removed });

export const action = intentAction({ create, link, unlink, remove });

/* Component ------------------------------------------------------------------------------------ */

export default function UserAgents({ loaderData, actionData }: Route.ComponentProps) {
  const { table, endpoints, dialogAgent, exportLink } = loaderData;
  const { dialog, dialogId, result, error } = useScreen(actionData);

  return (
    <ListScreen screen={screen} error={error} page={table} toolbar={{ exportLink }}>
      {dialog === "create" ? <CreateDialog endpoints={endpoints} lastResult={result} /> : null}
      {dialog === "link" || dialog === "unlink" ? <LinkDialog mode={dialog} agent={dialogAgent} endpoints={endpoints} lastResult={result} /> : null}
      {dialog === "remove" ? (
        <RemoveDialog title="Delete User Agent" phrase={dialogId ?? ""} fields={{ user_agent_id: dialogId ?? "" }} lastResult={result} gone={USER_AGENT_GONE}>
          {dialogAgent ? (
            <>
              Delete the user agent <strong>{dialogAgent.name}</strong> ({dialogAgent.email})? Its links to {dialogAgent.ep_ids.length === 1 ? "1 endpoint" : `${dialogAgent.ep_ids.length} endpoints`} go with it.
            </>
          ) : null}
        </RemoveDialog>
      ) : null}
    </ListScreen>
  );
}

// The console's one error boundary (app/components/error-boundary.tsx).
export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
