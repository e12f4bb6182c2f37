import { Form } from "react-router";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { SubmitButton } from "../../components/forms.tsx";
import { useCanWrite, useIsPending } from "../../components/hooks.ts";
import type { EndpointDetail } from "./model.ts";

/**
 * Approve and Reject act on the single selected endpoint (spec 1 §2; issue 27 item 15), as on App
 * Services' Endpoints tab: a plain POST form (works without JavaScript), writers only; everyone
 * sees the approval status.
 */
export function EndpointDecision({ ep }: { ep: EndpointDetail }) {
  const canWrite = useCanWrite();
  const pending = useIsPending({ intent: "decision" });
  return (
    <section aria-labelledby="ep-approval" className="card bg-base-100 mb-3 shadow-sm">
      <div className="card-body flex-row flex-wrap items-center gap-3 p-4">
        <h2 id="ep-approval" className="font-semibold">
          Approval of {ep.ep_name}: <span className="font-normal">{ep.approval_status}</span>
        </h2>
        {canWrite ? (
          <Form method="post" preventScrollReset className="flex gap-2">
            <AuthenticityTokenInput name="csrf" />
            <input type="hidden" name="intent" value="decision" />
            <input type="hidden" name="ep_id" value={ep.ep_id} />
            <SubmitButton name="decision" value="approve" className="btn btn-primary btn-sm" pending={pending}>
              Approve
            </SubmitButton>
            <SubmitButton name="decision" value="reject" className="btn btn-outline btn-error btn-sm" pending={pending}>
              Reject
            </SubmitButton>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
