import { useCanWrite } from "../../components/hooks.ts";
import { DecisionForm } from "../services-shared/decision.tsx";
import type { EndpointDetail } from "./model.ts";

/**
 * Approve and Reject act on the single selected endpoint (spec 1 §2; issue 27 item 15), as on App
 * Services' Endpoints tab: a plain POST form (works without JavaScript), writers only; everyone
 * sees the approval status.
 */
export function EndpointDecision({ ep }: { ep: EndpointDetail }) {
  const canWrite = useCanWrite();
  return (
    <section aria-labelledby="ep-approval" className="card bg-base-100 mb-3 shadow-sm">
      <div className="card-body flex-row flex-wrap items-center gap-3 p-4">
        <h2 id="ep-approval" className="font-semibold">
          Approval of {ep.ep_name}: <span className="font-normal">{ep.approval_status}</span>
        </h2>
        {canWrite ? <DecisionForm intent="decision" fields={{ ep_id: ep.ep_id }} /> : null}
      </div>
    </section>
  );
}
