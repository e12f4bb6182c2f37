import { DetailsTable } from "../../components/details-table.tsx";
import { availabilityMessages, minutesText, n3, uptimeText, type AvailabilityFigures } from "../../../platform/contract/availability.ts";

/*
 * The availability figures as the console prints them (the SLA page, the health tab's block, the
 * CSV): one wording. Numbers as the platform gives them (3 decimals), never recomputed here.
 */

export { minutesText, n3, uptimeText };
/** Whether the window met the SLO, with the downtime used against what the SLO allows in it (as the PDF puts it). */
export const sloText = (f: AvailabilityFigures) => {
  if (f.slo_met === null) return "not applicable: no minutes counted in this window";
  // One unit for both figures, chosen by the larger: "0.5 of the 40 seconds", not "30 seconds of the 1.44 minutes".
  const seconds = Math.max(f.downtime_minutes, f.slo_budget_minutes) < 1 && f.slo_budget_minutes > 0;
  const [used, allowed, unit] = seconds ? [n3(f.downtime_minutes * 60), n3(f.slo_budget_minutes * 60), "seconds"] : [n3(f.downtime_minutes), n3(f.slo_budget_minutes), "minutes"];
  return f.slo_met
    ? `met: ${used} of the ${allowed} ${unit} of downtime it allows in this window`
    : `missed: ${used} ${unit} of downtime, over the ${allowed} it allows in this window`;
};

/** The headline figure and the minutes behind it. */
export function Figures({ figures, headingLevel = 3 }: { figures: AvailabilityFigures; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const missed = figures.slo_met === false;
  return (
    <div className="space-y-2" data-testid="availability-figures">
      <Heading className="text-lg font-semibold">Availability</Heading>
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className={`text-3xl font-semibold tabular-nums ${missed ? "text-error" : ""}`} data-testid="uptime-percent">
          {uptimeText(figures)}
        </span>
        <span className="text-sm text-base-content/70">{availabilityMessages.label}</span>
      </p>
      <DetailsTable
        items={[
          { label: "Downtime", value: minutesText(figures.downtime_minutes) },
          { label: "Outages", value: String(figures.outages) },
          { label: "Announced maintenance", value: minutesText(figures.maintenance_minutes) },
          { label: availabilityMessages.sloLine, value: sloText(figures) },
        ]}
      />
    </div>
  );
}
