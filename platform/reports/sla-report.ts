import { availabilityMessages, n3, recordNote, SLO_MONTH_MINUTES, uptimeText } from "../contract/availability.ts";
import type { AvailabilityFigures, SlaReport } from "../contract/availability.shapes.ts";
import { A4, openTaggedPdf, reportInk } from "./pdf.ts";
import { drawTable } from "./table.ts";
import { writeText } from "./text.ts";
import { reportMessages } from "../contract/messages.ts";

/**
 * The SLA report of a device or an entity for a calendar month, one A4 page a customer can be
 * handed: the availability excluding announced maintenance, with the minutes behind it, the SLO
 * line, each device's figures (an entity) and the outages that counted. The figures are the
 * platform's get_sla_report, printed as they are (3 decimals). Tagged tables (TH/TD), the reports'
 * embedded fonts (names in any script). What does not fit the page is counted and left to the CSV.
 */

const margin = 48;
const width = A4.width - 2 * margin;
const ink = reportInk;

/** Rows the tables may take so the page stays one page. */
const MAX_DEVICES = 10;
const MAX_OUTAGES = 12;

const utc = (iso: string | null) => (iso ? iso.replace("T", " ").replace(/(\.\d+)?Z$/, " UTC") : "under way");
const metText = (f: AvailabilityFigures) => (f.slo_met === null ? "not applicable" : f.slo_met ? "met" : "missed");

export async function renderSlaReportPdf(report: SlaReport, opts: { productName: string }): Promise<Buffer> {
  const what = report.scope === "entity" ? "entity" : "device";
  const { doc, done, root } = openTaggedPdf({
    margins: { top: margin, bottom: margin, left: margin, right: margin },
    info: {
      Title: `SLA report ${report.month}: ${report.name}`,
      Author: opts.productName,
      Subject: `Availability of the ${what} ${report.id} in ${report.month}`,
    },
  });
  const say = (tag: "H1" | "H2" | "P", s: string, size: number, color: string = ink.text, bold = false) =>
    root.add(doc.struct(tag, {}, [() => writeText(doc.fillColor(color), s, margin, doc.y, { size, weight: bold ? "bold" : "regular", width })]));
  /** `columns`: points, or "*" for an equal share of what is left. */
  const grid = (header: string[], rows: string[][], columns: (number | "*")[]) => {
    doc.moveDown(0.3);
    const fixed = columns.reduce<number>((sum, c) => sum + (c === "*" ? 0 : c), 0);
    const share = (width - fixed) / Math.max(1, columns.filter((c) => c === "*").length);
    drawTable(
      doc,
      root,
      header.map((text) => ({ text })),
      rows.map((r) => r.map((text) => ({ text }))),
      {
        x: margin,
        columns: columns.map((c) => (c === "*" ? share : c)),
        size: 8.5,
        padding: { x: 4, y: 3 },
        color: ink.text,
        headFill: ink.headerFill,
        rule: { color: ink.rule, width: 0.5 },
        grid: true,
      },
    );
  };
  const more = (left: number, what: string) => {
    if (left > 0) say("P", `and ${left} more ${what}: the CSV lists every one.`, 8.5, ink.muted);
  };

  say("H1", `SLA report: ${report.name}`, 20, ink.heading, true);
  say(
    "P",
    `${report.scope === "entity" ? "Entity" : report.devices[0]?.kind === "metro" ? "Metro Ethernet NID" : "Internet NID"} ${report.id}. Month ${report.month}: ${utc(report.start)} to ${utc(report.end)}. ${recordNote(report, utc)}${recordNote(report, utc) ? " " : ""}${opts.productName}, generated ${utc(report.generated_at)}.`,
    9,
    ink.muted,
  );
  doc.moveDown(0.8);
  say("P", `Availability ${uptimeText(report, true)} (${report.label})`, 18, report.slo_met === false ? ink.fail : ink.heading, true);
  say(
    "P",
    `${availabilityMessages.sloLine}: ${metText(report)} this month (budget ${n3(report.slo_budget_minutes)} minutes, ${n3(report.downtime_minutes)} used).`,
    10,
    report.slo_met === false ? ink.fail : ink.pass,
    true,
  );

  doc.moveDown(0.8);
  say("H2", "Figures", 13, ink.heading, true);
  grid(
    ["Figure", "Value"],
    [
      [`Availability (${report.label})`, uptimeText(report, true)],
      ["Downtime counted (minutes)", n3(report.downtime_minutes)],
      ["Outages counted", String(report.outages)],
      ["Announced maintenance (minutes)", n3(report.maintenance_minutes)],
      ["Minutes in the month counted", n3(report.window_minutes)],
      [`SLO ${report.slo_percent} % budget (minutes)`, n3(report.slo_budget_minutes)],
      [`SLO (${SLO_MONTH_MINUTES} minutes in an average month)`, metText(report)],
    ],
    [260, "*"],
  );

  if (report.scope === "entity") {
    doc.moveDown(0.8);
    say("H2", `Devices (${report.devices.length})`, 13, ink.heading, true);
    if (!report.devices.length) say("P", reportMessages.noDevices, 9.5, ink.muted);
    else
      grid(
        ["Device", "Availability", "Downtime (min)", "Outages", "Maintenance (min)"],
        report.devices.slice(0, MAX_DEVICES).map((d) => [`${d.name} (${d.node_id})`, uptimeText(d, true), n3(d.downtime_minutes), String(d.outages), n3(d.maintenance_minutes)]),
        ["*", 80, 80, 50, 90],
      );
    more(report.devices.length - MAX_DEVICES, "devices");
  }

  doc.moveDown(0.8);
  say("H2", `Outages (${report.outage_list.length})`, 13, ink.heading, true);
  if (!report.outage_list.length) say("P", reportMessages.noOutage, 9.5, ink.muted);
  else
    grid(
      ["Start", "End", "Counted (min)", report.scope === "entity" ? "Device" : "Self diagnosis"],
      report.outage_list
        .slice(0, MAX_OUTAGES)
        .map((o) => [utc(o.start_time), utc(o.end_time), `${n3(o.counted_minutes)}${o.announced ? " (maintenance)" : ""}`, report.scope === "entity" ? o.name : o.self_diagnosis]),
      [95, 95, 70, "*"],
    );
  more(report.outage_list.length - MAX_OUTAGES, "outages");

  doc.moveDown(1);
  say(
    "P",
    "Availability = (minutes counted - downtime - announced maintenance) / (minutes counted - announced maintenance). Minutes counted run from the start of the month, or the device's creation when later, to the end of the month or now. Downtime inside announced maintenance does not count.",
    8,
    ink.muted,
  );
  doc.end();
  return done;
}
