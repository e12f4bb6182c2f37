import type { z } from "zod";
import { AuthLayout, AuthSwitch, NEW_PASSWORD_HINT, useAuthForm } from "../../components/auth-layout.tsx";
import { CheckboxField, ConformForm, formHasErrors, PasswordField, SubmitButton, TextField } from "../../components/forms.tsx";
import { callApi } from "../../lib/api.server.ts";
import { rememberedSubscriber } from "../../lib/auth.server.ts";
import { readForm } from "../../lib/csrf.server.ts";
import { detailOr, passRetryAfter, submitForm } from "../../lib/action.server.ts";
import { ErrorPage } from "../../root.tsx";
import type { Route } from "./+types/register";
import { authConstraints, registerSchema } from "./schemas.server.ts";
import { authMessages } from "../../../platform/contract/messages.ts";

/* /register (spec 3 §2.9, §3 Registration): 'Join us!' with email, password and the terms. */

const fieldLabels = { username: "Email", password: "Password", terms: "Terms" };

// A 429 (abuse limits) keeps its Retry-After on the page.
export const headers: Route.HeadersFunction = passRetryAfter();

export async function loader({ request }: Route.LoaderArgs) {
  return { subscriber: (await rememberedSubscriber(request)) ?? "", constraints: { register: authConstraints.register } };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  const remembered = await rememberedSubscriber(request);
  const subscriberOf = (v: { subscriber?: string | null }) => v.subscriber?.trim() || remembered;
  return submitForm(request, formData, {
    schema: registerSchema,
    call: async (v) => {
      const sub = subscriberOf(v);
      const body = { username: v.username, password: v.password, terms: true as const, ...(sub ? { subscriber: sub } : {}) };
      const result = await callApi(null, "POST", "register", { body, from: request });
      // 409 (the e-mail is taken) belongs beside the Email field; anything else by field or summary.
      if (!result.ok && result.status === 409 && typeof result.detail === "string") return { ...result, detail: [{ loc: ["username"], msg: result.detail }] };
      return result;
    },
    fields: Object.keys(fieldLabels),
    toast: detailOr(authMessages.registered),
    redirect: (_, v) => {
      const sub = subscriberOf(v);
      return sub ? `/login?subscriber=${encodeURIComponent(sub)}` : "/login";
    },
  });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { form, fields, pending } = useAuthForm<z.input<typeof registerSchema>>("register", actionData?.result);

  return (
    <AuthLayout
      heading="Join us!"
      title="Register"
      error={formHasErrors(form)}
      footer={
        <>
          <AuthSwitch question="Already have an account?" to="/login" subscriber={loaderData.subscriber}>
            Login
          </AuthSwitch>
          <Policies />
        </>
      }
    >
      <ConformForm form={form} className="flex flex-col gap-2">
        <input type="hidden" name="subscriber" value={loaderData.subscriber} />
        <TextField field={fields.username} label="Email" type="email" autoComplete="email" />
        <PasswordField field={fields.password} label="Password" autoComplete="new-password" hint={NEW_PASSWORD_HINT} />
        <CheckboxField field={fields.terms} marked>
          I agree to the{" "}
          <a className="link link-primary" href="#terms">
            terms of use
          </a>{" "}
          and the{" "}
          <a className="link link-primary" href="#privacy">
            privacy policy
          </a>
          .
        </CheckboxField>
        <SubmitButton pending={pending} className="btn btn-primary mt-2 w-full">
          Register
        </SubmitButton>
      </ConformForm>
    </AuthLayout>
  );
}

/** The texts the terms checkbox links to, on the same page so that they open without a round trip. */
function Policies() {
  return (
    <div className="text-base-content/80 mt-8 space-y-6 text-sm">
      <section id="terms" aria-labelledby="terms-title" tabIndex={-1} className="scroll-mt-4">
        <h2 id="terms-title" className="text-base-content mb-1 text-base font-semibold">
          Terms of use
        </h2>
        <p>
          The console is provided to manage and monitor the network services of your organisation. Keep your credentials to yourself,
          use the console only for services you are entitled to manage, and do not attempt to disrupt the service or reach data of
          other customers. Changes you make through the console and its API are recorded in the change log of your account.
        </p>
      </section>
      <section id="privacy" aria-labelledby="privacy-title" tabIndex={-1} className="scroll-mt-4">
        <h2 id="privacy-title" className="text-base-content mb-1 text-base font-semibold">
          Privacy policy
        </h2>
        <p>
          We keep your e-mail address, your account details and the data your devices report in order to provide the service. We use
          your e-mail address to send you sign-in codes, password links and service notices, and do not sell or share it. You can
          remove your account from Settings at any time.
        </p>
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}
