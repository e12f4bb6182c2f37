import { useSearchParams } from "react-router";
import { ConfirmPhraseDialog } from "../../components/confirm-phrase-dialog.tsx";
import { SelectField } from "../../components/forms.tsx";
import { ContactsDialog, DescriptionDialog, LatencyDialog, NameDialog, ResizeDialog } from "../services-shared/dialogs.tsx";
import { CreateDialog } from "./create-dialog.tsx";
import { AddHostingDialog, EditDialog, missing } from "./dialogs.tsx";
import type { AppService } from "./model.ts";
import type { Route } from "./+types/route";
import { appServiceMessages } from "../../../platform/contract/messages.ts";

/*
 * The App Services screen's dialogs (route.tsx opens them by URL): a module of their own, loaded in
 * the browser only when one opens (lazyChart), so that the list and its Details tab load no form
 * code; the server draws them as before, with and without JavaScript.
 */

const words = { screen: "App Services", missing };
const subjectOf = (s: AppService | null) => (s ? { idField: "app_service_id", id: s.app_service_id, name: s.app_service_name } : null);

export function AppServiceDialogs({ dialog, loaderData, actionData }: { dialog: string; loaderData: Route.ComponentProps["loaderData"]; actionData: Route.ComponentProps["actionData"] }) {
  const { regions, groups, dialogService, contacts, resizeHostings, selected, deployment, draft, hostingLocation, constraints } = loaderData;
  const [params] = useSearchParams();
  const dialogId = params.get("id") ?? "";
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const latency = actionData && "latency" in actionData ? (actionData.latency as Record<string, unknown>) : null;
  const subject = subjectOf(dialogService);
  const c = constraints ?? undefined;
  return (
    <>
      {dialog === "create" && c ? (
        <CreateDialog key={`${deployment}?${params.get("draft") ?? ""}`} deployment={deployment} draft={draft} regions={regions} groups={groups} lastResult={result} constraint={c.create} />
      ) : null}
      {dialog === "rename" ? <NameDialog subject={subject} words={words} field="app_service_name" label="Name" lastResult={result} constraint={c?.rename} /> : null}
      {dialog === "describe" ? <DescriptionDialog subject={subject} words={words} description={dialogService?.description ?? ""} lastResult={result} constraint={c?.describe} /> : null}
      {dialog === "edit" && c ? <EditDialog service={dialogService} lastResult={result} constraint={c.edit} /> : null}
      {dialog === "contacts" ? (
        <ContactsDialog subject={subject} words={words} contacts={contacts} primary={dialogService?.primary_contact_id ?? null} secondary={dialogService?.secondary_contact_id ?? null} lastResult={result} constraint={c?.contacts} />
      ) : null}
      {dialog === "resize" ? (
        <ResizeDialog subject={subject} words={words} title="Resize App Service" blocked={dialogService?.deployment === "onprem" ? appServiceMessages.onpremResize : null} lastResult={result} constraint={c?.resize}>
          {(fields) => (
            <SelectField
              field={fields.hosting_id!}
              label="Hosting location"
              options={resizeHostings.map((h) => ({ value: h.hosting_id, label: `${h.service_provider} ${h.region || h.fqdn} (${h.size})` }))}
              placeholder="Select a hosting location"
            />
          )}
        </ResizeDialog>
      ) : null}
      {dialog === "latency" ? <LatencyDialog subject={subject} words={words} from="the nearest PoP" result={latency} /> : null}
      {dialog === "add-hosting" && c ? (
        <AddHostingDialog key={hostingLocation} service={selected} location={hostingLocation} regions={regions} groups={groups ?? []} lastResult={result} constraint={c.hosting} />
      ) : null}
      {dialog === "remove" ? (
        <ConfirmPhraseDialog name="remove" title="Delete App Service" phrase={dialogId} intent="remove" fields={{ app_service_id: dialogId }} lastResult={result} submitLabel="Delete">
          <p className="mb-2">
            {dialogService ? (
              <>
                Delete the App Service <strong>{dialogService.app_service_name}</strong> and its hostings?
          
    </>
              ) : (
                words.missing
              )}
            </p>
          </ConfirmPhraseDialog>
        ) : null}
        {dialog === "remove-hosting" && selected ? (
          <ConfirmPhraseDialog
            name="remove-hosting"
            title="Remove Hosting"
            phrase={dialogId}
            intent="remove-hosting"
            fields={{ app_service_id: selected.app_service_id, hosting_id: dialogId }}
            lastResult={result}
            submitLabel="Remove"
          >
            <p className="mb-2">Remove this hosting of {selected.app_service_name}?</p>
          </ConfirmPhraseDialog>
        ) : null}
    </>
  );
}
