import { redirect } from "react-router";
import { z } from "zod";
import { AuthLayout, Notice } from "../../components/auth-layout.tsx";
import { ConformForm, formHasErrors, HiddenFields, SubmitButton, useForm } from "../../components/forms.tsx";
import { formFailure, validateForm } from "../../lib/action.server.ts";
import { requestForm } from "../../lib/form-fields.server.ts";
import { ConfirmRecipientBody } from "../../../platform/contract/report-schedules.shapes.ts";
import { callApi } from "../../lib/api.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { ErrorPage } from "../../root.tsx";
import { reportMessages } from "./model.ts";
import type { Route } from "./+types/confirm";

/*
 * /reports/confirm?token=…, public: the link a report recipient is e-mailed. Opening it confirms
 * nothing (mail scanners open links): the page asks, and the Confirm button posts the token to
 * the platform's confirm_report_recipient. No sign-in, no JavaScript needed.
 */

/** confirm_report_recipient's request (its words: the invalid link's sentence for a blank or long token). */
const ConfirmSchema = requestForm(z.object(ConfirmRecipientBody.shape));

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  return { token: params.get("token") ?? "", done: params.get("confirmed") === "1" };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const form = validateForm(formData, ConfirmSchema);
  if (!form.ok) return form.reply;
  const result = await callApi(null, "POST", "confirm_report_recipient", { body: { token: form.value.token }, from: request });
  if (result.ok) throw redirect("/reports/confirm?confirmed=1", { status: 303 });
  return formFailure(form.submission, result, { fields: [] });
}

export default function ConfirmRecipient({ loaderData, actionData }: Route.ComponentProps) {
  const [form] = useForm({ id: "confirm-report-recipient", lastResult: actionData?.result });
  const title = "Service reports";
  if (loaderData.done) {
    return (
      <AuthLayout heading="Address confirmed" title={title}>
        <Notice tone="success">{reportMessages.confirmed}</Notice>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout heading="Confirm your address" title={title} error={formHasErrors(form)}>
      {loaderData.token ? (
        <>
          <p>Service reports were set up to be e-mailed to this address. Confirm that you want to receive them.</p>
          <ConformForm form={form} className="flex flex-col gap-2">
            <HiddenFields fields={{ token: loaderData.token }} />
            <SubmitButton className="btn btn-primary mt-2 w-full">Confirm</SubmitButton>
          </ConformForm>
        </>
      ) : (
        <Notice tone="error">{reportMessages.confirmInvalid}</Notice>
      )}
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

export const meta = () => [{ title: "Service reports" }];
