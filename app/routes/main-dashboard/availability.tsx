import { Link } from "react-router";
import { monthOf, type Availability } from "../../../platform/contract/availability.ts";
import { Figures } from "../sla/figures.tsx";

/*
 * The uptime block the WAN Link Health tab renders (published in coord.md): the device's
 * availability over the tab's range, announced maintenance excluded, with the minutes, the
 * outages, the SLO line and a link to this month's SLA report. Server-rendered; no client code.
 * Its data: `loadAvailability(request, nodeId, range)` (app/routes/sla/data.server.ts).
 */

export interface AvailabilityBlockProps {
  availability: Availability | null;
  /** The call's message when it failed: shown in the block's place. */
  error?: string | null;
}

export function AvailabilityBlock({ availability, error }: AvailabilityBlockProps) {
  if (!availability) {
    return (
      <section aria-label="Availability" className="rounded-box bg-base-100 p-4 shadow-sm">
        <p className="text-sm text-error">{error ?? "No data"}</p>
      </section>
    );
  }
  const report = `/sla?node_id=${encodeURIComponent(availability.id)}&month=${monthOf(Date.parse(availability.end))}`;
  return (
    <section aria-label="Availability" className="min-w-0 space-y-2 rounded-box bg-base-100 p-4 shadow-sm" data-testid="availability-block">
      <Figures figures={availability} />
      <p className="text-sm">
        <Link to={report} className="link link-primary">
          SLA report for this month
        </Link>
      </p>
    </section>
  );
}
