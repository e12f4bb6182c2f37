import { data } from "react-router";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase-dialog.tsx";
import { ListScreen } from "../../components/list-screen.tsx";
import { useScreen } from "../../components/screen.tsx";
import { intentAction, submitForm } from "../../lib/action.server.ts";
import { apiGet } from "../../lib/api.server.ts";
import { fetchTablePage, listScreenQuery } from "../../lib/table.server.ts";
import { hideable, screen, sortable } from "./columns.ts";
import { GroupDetails, ImportDialog } from "./dialogs.tsx";
import { DISABLE_PHRASE, nodeMessages } from "./model.ts";
import { constraints, DisableSchema, ImportSchema } from "./schemas.server.ts";
import type { Route } from "./+types/route";
import { goneMessages } from "../../lib/messages.ts";

/* ------------------------------------------------------------------------------------------------
 * Manage Service Node Groups (spec 2 §2 /service-node-groups, §3, §4, §5, §7, §8): the groups,
 * Import External Certificates (a group without one) and Disable External Root CA (a group with
 * one; typing 'confirm'); the selected group's certificate. Breadcrumb back: the shell's.
 * ---------------------------------------------------------------------------------------------- */

const detailOf = (request: Request, id: string) =>
  apiGet(request, "get-service-node-group-details", { service_node_group_id: id }).then((r) => (r.ok ? r.data : null));

export async function loader({ request }: Route.LoaderArgs) {
  const { state, headers, dialog, dialogId } = await listScreenQuery(request, { sortable, hideable });
  // The selected group's detail beside the table; shown while the table's search holds it.
  const [first] = state.selected;
  const [table, target, picked] = await Promise.all([
    fetchTablePage(request, "list_service_node_group", state, screen),
    dialog && dialogId ? detailOf(request, dialogId) : null,
    first ? detailOf(request, first) : null,
  ]);
  const selected = table.selected[0] === first ? picked : null;
  return data({ table, target, selected, constraints }, { headers });
}

/* Action ---------------------------------------------------------------------------------------- */

const importCertificate = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: ImportSchema,
    call: "enable_external_certificate",
    fields: ["certificate", "private_key", "ca_chain"],
    // The key is never sent back to the page, not even in a refused form.
    hideFields: ["private_key"],
    toast: nodeMessages.certificateEnabled,
    redirect: (_, v) => ({ selected: v.service_node_group_id }),
  });

const disable = (request: Request, formData: FormData) =>
  submitForm(request, formData, {
    schema: DisableSchema,
    call: "disable_external_certificate",
    body: (v) => ({ service_node_group_id: v.service_node_group_id }),
    toast: nodeMessages.certificateDisabled,
    redirect: (_, v) => ({ selected: v.service_node_group_id }),
  });

export const action = intentAction({ import: importCertificate, disable });

/* Component ------------------------------------------------------------------------------------ */

export default function ServiceNodeGroups({ loaderData, actionData }: Route.ComponentProps) {
  const { table, target, selected } = loaderData;
  const { dialog, dialogId, result, error } = useScreen(actionData);
  return (
    <ListScreen
      screen={screen}
      error={error}
      page={table}
      menu={(r) => [
        { label: "Import External Certificates", dialog: "import", disabled: r.external_certificate },
        { label: "Disable External Root CA", dialog: "disable", disabled: !r.external_certificate, danger: true },
      ]}
      details={selected ? <GroupDetails group={selected} /> : null}
    >
      {dialog === "import" ? <ImportDialog group={target} lastResult={result} /> : null}
      {dialog === "disable" ? (
        <ConfirmPhraseDialog
          name="disable"
          title="Disable External Root CA"
          phrase={DISABLE_PHRASE}
          intent="disable"
          fields={{ service_node_group_id: target?.service_node_group_id ?? dialogId ?? "" }}
          lastResult={result}
          submitLabel="Disable"
        >
          <p className="mb-2">
            {target ? (
              <>
                Disable the external root CA of <strong>{target.service_node_group_name}</strong>? Its nodes go back to the platform's own certificate.
              </>
            ) : (
              goneMessages.nodeGroup
            )}
          </p>
        </ConfirmPhraseDialog>
      ) : null}
    </ListScreen>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "../../components/error-boundary.tsx";
