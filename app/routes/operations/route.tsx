import { data, Link } from "react-router";
import { Card } from "../../components/card.tsx";
import { CopyButton } from "../../components/copy-button.tsx";
import { DialogActions, UrlDialog } from "../../components/dialog.tsx";
import { ButtonForm, ConformForm, SubmitButton, TextField, useForm, useIntentForm } from "../../components/forms.tsx";
import { useCanWrite, useIsPending } from "../../components/hooks.ts";
import { replyFor, Screen } from "../../components/screen.tsx";
import { SimpleTable, type SimpleColumn } from "../../components/simple-table.tsx";
import { failureReply, failureToasts, intentAction, validateForm } from "../../lib/action.server.ts";
import { apiGetOrThrow, apiPageOrThrow, apiPost } from "../../lib/api.server.ts";
import type { CallBody } from "../../../platform/contract/calls.ts";
import { formatTime } from "../../lib/format.ts";
import { redirectWithToast } from "../../lib/toast.server.ts";
import { deliveryCountText, LOG_SIZE, ROTATE_DIALOG, statusLabels, TITLE, type AccountOps, type OpsDelivery } from "./model.ts";
import { CHOOSE_DELIVERY, constraints, DeliverySchema, SettingsSchema } from "./schemas.server.ts";
import type { Route } from "./+types/route";

/* ------------------------------------------------------------------------------------------------
 * Operations (spec 2 §2 /operations, §3 Account operations settings, §7 Operations, §8): where the
 * account's events go (a webhook address and an e-mail), the signing secret (shown once, after the
 * save that made it or a rotation, confirmed first in a dialog by URL), and the delivery log with
 * 'Send test event' and 'Redeliver', all plain forms. A readonly user sees the settings and the
 * log, and no control that changes anything.
 * ---------------------------------------------------------------------------------------------- */

export async function loader({ request }: Route.LoaderArgs) {
  const [ops, log] = await Promise.all([
    apiGetOrThrow(request, "get-account-ops"),
    apiPageOrThrow(request, "list-account-ops-deliveries", { page: "1", size: String(LOG_SIZE) }),
  ]);
  return data({ ops: ops[0] ?? null, log, constraints });
}

/* Action: one function per intent -------------------------------------------------------------- */

/** The secret is in this answer only: never stored by a cache. */
const secretReply = (intent: string, message: string, secret: string) =>
  data({ intent, message, secret }, { headers: { "Cache-Control": "no-store" } });

async function settings(request: Request, formData: FormData) {
  const form = validateForm(formData, SettingsSchema);
  if (!form.ok) return form.reply;
  const res = await apiPost(request, "set-account-ops", form.value);
  if (!res.ok) return failureReply(request, res, { submission: form.submission, fields: ["webhook_url", "email"] });
  // The whole secret only after the save that made it (issue 63 item 9); a later save answers it masked.
  if (!res.data.signature_key_new) return redirectWithToast(request, "/operations", { type: "success", message: res.data.detail });
  return secretReply("settings", res.data.detail, res.data.signature_key);
}

async function rotate(request: Request) {
  const res = await apiPost(request, "rotate-account-ops-secret", {});
  if (!res.ok) return failureToasts(request, res, "/operations");
  return secretReply("rotate", res.data.detail, res.data.signature_key);
}

/** A button's call: its toast and back to the page (the platform's detail as persistent toasts on failure). */
type OpsButton = "send-account-ops-test-event" | "enable-account-ops-webhook" | "redeliver-account-ops-delivery";

async function button(request: Request, call: OpsButton, body: CallBody<OpsButton>) {
  const res = await apiPost(request, call, body);
  if (!res.ok) return failureToasts(request, res, "/operations");
  return redirectWithToast(request, "/operations", { type: "success", message: res.data.detail });
}

const test = (request: Request) => button(request, "send-account-ops-test-event", {});
const enable = (request: Request) => button(request, "enable-account-ops-webhook", {});

async function redeliver(request: Request, formData: FormData) {
  const form = validateForm(formData, DeliverySchema);
  if (!form.ok) return redirectWithToast(request, "/operations", { type: "error", message: CHOOSE_DELIVERY, persistent: true });
  return button(request, "redeliver-account-ops-delivery", { delivery_id: form.value.delivery_id });
}

export const action = intentAction({ settings, rotate, test, enable, redeliver });

/* Component ------------------------------------------------------------------------------------- */

export function SettingsForm({ ops, lastResult }: { ops: AccountOps | null; lastResult: ReturnType<typeof replyFor> }) {
  const { form, fields, pending } = useIntentForm("settings", {
    id: "ops-settings",
    lastResult,
    defaultValue: { webhook_url: ops?.webhook_url ?? "", email: ops?.email ?? "" },
  });
  return (
    <ConformForm form={form} intent="settings" className="flex max-w-xl flex-col gap-2">
      <TextField
        field={fields.webhook_url}
        label="Webhook address"
        type="url"
        placeholder="https://hooks.example.com/linkwise"
        hint="Events are POSTed here, signed (Standard Webhooks). https only; it must resolve to a public address. Leave it empty for no webhook."
      />
      <TextField field={fields.email} label="E-mail" type="email" autoComplete="email" hint="The same events by e-mail, grouped: at most one mail every 10 minutes." />
      <div>
        <SubmitButton pending={pending}>Save</SubmitButton>
      </div>
    </ConformForm>
  );
}

/** The secret of this answer, once: it is not in the page's data and is gone on the next load. */
function ShownSecret({ message, secret }: { message: string; secret: string }) {
  return (
    <div className="card border-success bg-base-100 border-2 shadow-sm">
      <div className="card-body gap-2">
        <p role="status" className="font-semibold">
          {message}
        </p>
        <label htmlFor="signing-secret" className="text-sm">
          Signing secret
        </label>
        <input id="signing-secret" readOnly value={secret} className="input input-sm w-full max-w-xl font-mono text-xs" aria-describedby="signing-secret-hint" />
        <p id="signing-secret-hint" className="text-sm">
          <strong>Copy it now: you will not see it again.</strong> This page shows it masked from now on. Receivers verify each delivery's webhook-signature header
          with it.
        </p>
        <div>
          <CopyButton text={secret} />
        </div>
      </div>
    </div>
  );
}

/**
 * 'Rotate secret', confirmed first (issue 63 item 9): the receiver verifies with the current secret,
 * which signs for 24 hours more. The form posts to the page without `?dialog`, so the new secret
 * is shown on the page, the dialog closed.
 */
function RotateDialog({ ops }: { ops: AccountOps }) {
  const [form] = useForm({ id: "rotate-secret-form" });
  const pending = useIsPending({ intent: "rotate" });
  return (
    <UrlDialog name={ROTATE_DIALOG} title="Rotate Signing Secret">
      <ConformForm form={form} intent="rotate" action="/operations">
        <p className="mb-2 wrap-anywhere">
          {ops.webhook_url ? (
            <>
              The receiver at <strong>{ops.webhook_url}</strong> verifies deliveries with the current secret.
            </>
          ) : (
            "No webhook address is set, so no receiver uses the current secret yet."
          )}
        </p>
        <p className="mb-2">
          A rotation makes a new secret, shown once. The current one goes on signing deliveries for 24 hours only: after that, a receiver that still verifies with it
          refuses every delivery.
        </p>
        <p>Do you want to rotate the signing secret?</p>
        <DialogActions>
          <SubmitButton className="btn btn-error" pending={pending}>
            Rotate secret
          </SubmitButton>
        </DialogActions>
      </ConformForm>
    </UrlDialog>
  );
}

const failedLast = (d: OpsDelivery) => d.status === "failed" || (d.status === "pending" && d.attempt > 0);

const logColumns = (canWrite: boolean): SimpleColumn<OpsDelivery>[] => [
  { id: "event_type", header: "Event", kind: "name", cell: (d) => <code className="text-xs">{d.event_type}</code> },
  { id: "time", header: "Time", cell: (d) => formatTime(d.last_attempt_at ?? d.created_at), className: "whitespace-nowrap" },
  { id: "attempt", header: "Attempt", cell: (d) => d.attempt },
  { id: "status", header: "Status", cell: (d) => (d.status === "pending" && d.attempt === 0 ? "Pending" : (statusLabels[d.status] ?? d.status)) },
  { id: "http_status", header: "HTTP status", cell: (d) => (d.http_status ?? (d.error ? <span className="text-error">{d.error}</span> : "")) },
  { id: "latency", header: "Latency", unit: "ms", cell: (d) => d.latency_ms ?? "" },
  { id: "next", header: "Next retry", cell: (d) => (d.status === "pending" ? formatTime(d.next_attempt_at) : ""), className: "whitespace-nowrap" },
  ...(canWrite
    ? [
        {
          id: "actions",
          header: "Actions",
          kind: "actions" as const,
          cell: (d: OpsDelivery) =>
            failedLast(d) ? <ButtonForm intent="redeliver" label="Redeliver" fields={{ delivery_id: d.delivery_id }} className="btn btn-xs" /> : null,
        },
      ]
    : []),
];

export default function Operations({ loaderData, actionData }: Route.ComponentProps) {
  const { ops, log } = loaderData;
  const canWrite = useCanWrite();
  const settingsReply = replyFor(actionData, "settings");
  const shown = actionData && "secret" in actionData ? actionData : null;
  const hasErrors = Boolean(settingsReply?.error && Object.values(settingsReply.error).some((e) => e && e.length > 0));

  return (
    <Screen title={TITLE} error={hasErrors}>
      {ops?.webhook_disabled_at ? (
        <div role="alert" className="alert alert-warning flex flex-col items-start gap-2">
          <p>
            Webhook deliveries are disabled since {formatTime(ops.webhook_disabled_at)}. {ops.webhook_disabled_reason}
          </p>
          {canWrite ? <ButtonForm intent="enable" label="Enable deliveries" /> : null}
        </div>
      ) : null}

      {shown ? <ShownSecret message={shown.message} secret={shown.secret} /> : null}

      <Card id="ops-settings-title" title="Event notifications">
        <p className="text-base-content/70 text-sm">
          Op state changes, outages and tickets of this account are sent to the webhook address and the e-mail below.
        </p>
        {ops?.email_refused_at ? (
          // Issue 63 item 7: a permanent refusal is not tried again, so the page says it once it happened.
          <div role="alert" className="alert alert-warning">
            <p className="break-words">
              The mail server refused the e-mail to {ops.email} on {formatTime(ops.email_refused_at)}: {ops.email_refused_answer}. It is not sent again; check the
              address.
            </p>
          </div>
        ) : null}
        {canWrite ? (
          <SettingsForm ops={ops} lastResult={settingsReply} />
        ) : (
          <dl className="grid max-w-xl grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">Webhook address</dt>
            <dd className="break-all">{ops?.webhook_url || "Not set"}</dd>
            <dt className="font-semibold">E-mail</dt>
            <dd className="break-all">{ops?.email || "Not set"}</dd>
          </dl>
        )}
      </Card>

      {ops ? (
        <Card id="ops-secret-title" title="Signing secret">
          <p className="text-sm">
            Current secret: <code className="break-all">{ops.signature_key}</code>
          </p>
          {ops.previous_key_expires_at ? (
            <p className="text-sm">Deliveries are also signed with the previous secret until {formatTime(ops.previous_key_expires_at)}.</p>
          ) : null}
          {canWrite ? (
            <div>
              <Link to={`/operations?dialog=${ROTATE_DIALOG}`} className="btn btn-sm" preventScrollReset>
                Rotate secret
              </Link>
              <RotateDialog ops={ops} />
            </div>
          ) : null}
        </Card>
      ) : null}

      <Card id="ops-log-title" title="Delivery log">
        <div className="flex flex-wrap items-center gap-2">
          {canWrite && ops?.webhook_url ? <ButtonForm intent="test" label="Send test event" className="btn btn-primary btn-sm" /> : null}
          <Link to="/operations" className="btn btn-sm btn-outline" preventScrollReset>
            Refresh
          </Link>
          <p className="text-base-content/70 text-sm">
            {deliveryCountText(log.total, { webhook: Boolean(ops?.webhook_url), canWrite })}
          </p>
        </div>
        {/* An empty log says so in the line above: a table reading 'No data' under it said it twice. */}
        {log.items.length > 0 ? <SimpleTable caption="Delivery log" columns={logColumns(canWrite)} rows={log.items} getRowId={(d) => d.delivery_id} emptyMessage="No data" /> : null}
      </Card>
    </Screen>
  );
}
