import type { ReactNode } from "react";
import { IntentForm, SubmitButton } from "../../components/forms.tsx";
import { useIsPending } from "../../components/hooks.ts";

/**
 * Approve and Reject of an endpoint (spec 1 §2; issue 27 item 15): one POST form whose `decision`
 * is the button pressed, for writers (the caller decides). App Services' Endpoints tab puts its
 * radio table above the buttons (`children`); the Endpoints screen names the endpoint in `fields`.
 */
export function DecisionForm({ intent, fields, className, children }: { intent: string; fields?: Record<string, string>; className?: string; children?: ReactNode }) {
  const pending = useIsPending({ intent });
  return (
    <IntentForm intent={intent} fields={fields} className={className}>
      {children}
      <div className={`flex gap-2 ${children ? "mt-2" : ""}`}>
        <SubmitButton name="decision" value="approve" className="btn btn-primary btn-sm" pending={pending}>
          Approve
        </SubmitButton>
        <SubmitButton name="decision" value="reject" className="btn btn-outline btn-error btn-sm" pending={pending}>
          Reject
        </SubmitButton>
      </div>
    </IntentForm>
  );
}
