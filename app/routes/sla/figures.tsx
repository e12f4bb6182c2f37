import { DetailsTable } from "../../components/details-table.tsx";
import { availabilityMessages, n3, uptimeText, type AvailabilityFigures } from "../../../platform/contract/availability.ts";

/*
 * The availability figures as the console prints them (the SLA page, the health tab's block, the
 * CSV): one wording. Numbers as the platform gives them (3 decimals), never recomputed here.
 */

export { n3, uptimeText };
/** Whether the window met the SLO, with the downtime used against what the SLO allows in it (as the PDF puts it). */
export const sloText = (f: AvailabilityFigures) => {
  if (f.slo_met === null) return "not applicable: no minutes counted in this window";
  const used = n3(f.downtime_minutes);
  const allowed = n3(f.slo_budget_minutes);
  return f.slo_met
    ? `met: ${used} of the ${allowed} minutes of downtime it allows in this window`
    : `missed: ${used} minutes of downtime, over the ${allowed} it allows in this window`;
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
          { label: "Downtime", value: `${n3(figures.downtime_minutes)} minutes` },
          { label: "Outages", value: String(figures.outages) },
          { label: "Announced maintenance", value: `${n3(figures.maintenance_minutes)} minutes` },
          { label: availabilityMessages.sloLine, value: sloText(figures) },
        ]}
      />
    </div>
  );
}
