import { n3, uptimeText } from "../contract/availability.ts";
import type { AvailabilityFigures } from "../contract/availability.shapes.ts";
import type { ServiceReportData, ReportDevice } from "../domain/report-schedules-make.ts";
import { A4, openTaggedPdf, reportInk, writePageFeet } from "./pdf.ts";
import { drawTable } from "./table.ts";
import { writeText } from "./text.ts";

/**
 * The scheduled service report (issue 58), A4: a first page a manager reads (the overall
 * availability, the SLO met or not per device class, the three worst sites, what changed in the
 * scope), then a table per device class, the outages (duration, cause, path at failure, a link to
 * each outage record), the announced maintenance, the period's activation tests, and an appendix
 * defining every figure. The figures are deviceWindow's (domain/availability.ts), printed as the
 * SLA report prints them (3 decimals). Tagged for screen readers, page numbers below.
 *
 * The text and tables are written by `say` and `grid` only (the same two helpers as sla-report.ts),
 * so the reports' fonts are set in one place.
 */

const margin = { top: 48, bottom: 60, left: 44, right: 44 };
const width = A4.width - margin.left - margin.right;
const ink = reportInk;

/** An instant in UTC as the reports print it: '2026-11-01 05:00 UTC'. */
const utc = (ms: number | string | null) => (ms === null ? "under way" : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`);
/** An instant in the schedule's zone: '2026-11-01 00:00 (America/New_York)'. */
function local(ms: number, timeZone: string) {
  const f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}
const duration = (s: number) => {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h ? `${h} h ${m} min` : m ? `${m} min ${sec} s` : `${sec} s`;
};
const metText = (f: AvailabilityFigures | null) => (!f || f.slo_met === null ? "not applicable" : f.slo_met ? "met" : "missed");
const periodWords = (r: ServiceReportData) => (r.period.cadence === "monthly" ? `month ${r.period.label}` : `week ${r.period.label}`);
const scopeWords = (r: ServiceReportData) =>
  r.scope.kind === "account" ? `the whole account ${r.accountName}` : `the entity ${r.scope.name} and its children${r.scope.removed ? " (removed: nothing to report)" : ""}`;

/** The headline figures as one line each (the e-mail's plain text and the first page say the same). */
export function headline(r: ServiceReportData): string[] {
  const lines = [`Overall availability (excl. maintenance): ${uptimeText(r.overall, r.period.cadence === "monthly")}; SLO ${r.overall.slo_percent} %: ${metText(r.overall)}.`];
  for (const c of r.classes) if (c.figures) lines.push(`${c.label} (${c.devices.length}): ${uptimeText(c.figures, true)}, SLO ${metText(c.figures)}.`);
  if (r.worst.length) lines.push(`Worst sites: ${r.worst.map((d) => `${d.name} ${uptimeText(d.figures, true)}`).join("; ")}.`);
  const counted = r.outages.filter((o) => o.counted_minutes > 0).length;
  lines.push(`Outages: ${counted} counted (${n3(r.overall.downtime_minutes)} minutes of downtime).`);
  return lines;
}

export async function renderServiceReportPdf(r: ServiceReportData): Promise<Buffer> {
  const { doc, done, root } = openTaggedPdf({
    margins: margin,
    info: {
      Title: `Service report ${r.period.label}: ${r.scheduleName}`,
      Author: r.productName,
      Subject: `Availability, SLO, outages and maintenance of ${scopeWords(r)} in the ${periodWords(r)}`,
    },
  });
  const say = (tag: "H1" | "H2" | "H3" | "P", s: string, size: number, color: string = ink.text, bold = false, x = margin.left, w = width) =>
    root.add(
      doc.struct(tag, {}, [
        () => writeText(doc.fillColor(color), s.replace(/≈/g, "~"), x, doc.y, { size, weight: bold ? "bold" : "regular", width: w }),
      ]),
    );
  type Cell = string | { text: string; link?: string };
  /** `columns`: points, or "*" for an equal share of what is left. */
  const grid = (header: string[], rows: Cell[][], columns: (number | "*")[]) => {
    doc.moveDown(0.3);
    const fixed = columns.reduce<number>((sum, c) => sum + (c === "*" ? 0 : c), 0);
    const share = (width - fixed) / Math.max(1, columns.filter((c) => c === "*").length);
    const cell = (c: Cell) => (typeof c === "string" ? { text: c } : { text: c.text, ...(c.link ? { link: c.link, color: ink.heading } : {}) });
    drawTable(doc, root, header.map((text) => ({ text })), rows.map((row) => row.map(cell)), {
      x: margin.left,
      columns: columns.map((c) => (c === "*" ? share : c)),
      size: 8,
      padding: { x: 4, y: 3 },
      color: ink.text,
      headFill: ink.headerFill,
      rule: { color: ink.rule, width: 0.5 },
    });
    doc.x = margin.left;
  };
  const section = (title: string, newPage = false) => {
    if (newPage || doc.y > A4.height - margin.bottom - 120) doc.addPage();
    else doc.moveDown(1);
    say("H2", title, 14, ink.heading, true);
  };
  const deviceRow = (d: ReportDevice): string[] => [
    `${d.name}${d.detail ? ` (${d.detail})` : ""}\n${d.id}`,
    d.entity_name,
    d.created_in_period ? `${utc(d.counted_from)} *` : utc(d.counted_from),
    uptimeText(d.figures, true),
    n3(d.figures.downtime_minutes),
    String(d.figures.outages),
    n3(d.figures.maintenance_minutes),
    metText(d.figures),
  ];

  // ---- Page 1: what a manager reads ----
  if (r.logo) {
    try {
      doc.image(r.logo, A4.width - margin.right - 120, margin.top - 8, { fit: [120, 48], align: "right" });
    } catch {
      // A logo pdfkit cannot read is left out: the report is still the report.
    }
  }
  say("H1", "Service report", 22, ink.heading, true, margin.left, width - 130);
  say("P", r.scheduleName, 14, ink.heading, true, margin.left, width - 130);
  doc.moveDown(0.3);
  say(
    "P",
    `${r.accountName}: ${scopeWords(r)}. The ${periodWords(r)}, ${r.period.firstDay} to ${r.period.lastDay} in ${r.period.timeZone} (${local(r.period.start, r.period.timeZone)} to ${local(r.period.end, r.period.timeZone)} local, ${utc(r.period.start)} to ${utc(r.period.end)}). ${r.productName}, made ${utc(r.generatedAt)}.`,
    9,
    ink.muted,
  );
  doc.moveDown(0.8);
  say("P", `Availability ${uptimeText(r.overall, r.period.cadence === "monthly")} (excl. maintenance)`, 20, r.overall.slo_met === false ? ink.fail : ink.heading, true);
  say(
    "P",
    `SLO ${r.overall.slo_percent} %: ${metText(r.overall)} (budget ${n3(r.overall.slo_budget_minutes)} minutes, ${n3(r.overall.downtime_minutes)} used, ${r.overall.outages} outage${r.overall.outages === 1 ? "" : "s"} counted).`,
    11,
    r.overall.slo_met === false ? ink.fail : ink.pass,
    true,
  );
  section("SLO per device class");
  grid(
    ["Device class", "Devices", "Availability", "Downtime (min)", "SLO budget (min)", "SLO"],
    r.classes.map((c) => [c.label, String(c.devices.length), c.figures ? uptimeText(c.figures, true) : "none in scope", c.figures ? n3(c.figures.downtime_minutes) : "-", c.figures ? n3(c.figures.slo_budget_minutes) : "-", metText(c.figures)]),
    ["*", 50, 80, 80, 85, 70],
  );
  section("The worst three sites");
  if (!r.worst.length) say("P", "No site had a figure to rank in this period.", 9.5, ink.muted);
  else
    grid(
      ["Site", "Class", "Availability", "Downtime (min)", "Outages", "SLO"],
      r.worst.map((d) => [`${d.name}\n${d.id}`, r.classes.find((c) => c.kind === d.cls)!.one, uptimeText(d.figures, true), n3(d.figures.downtime_minutes), String(d.figures.outages), metText(d.figures)]),
      ["*", 95, 75, 75, 50, 60],
    );
  const created = r.classes.flatMap((c) => c.devices).filter((d) => d.created_in_period);
  if (created.length || r.removed.length) section("Changes in the period");
  if (created.length)
    say("P", `Created during the period, counted from their creation (marked * in the tables): ${created.map((d) => `${d.name} (${d.id}) from ${utc(d.counted_from)}`).join("; ")}.`, 9.5);
  if (r.removed.length) {
    doc.moveDown(0.3);
    say("P", `Removed since the previous report (not in this one): ${r.removed.join("; ")}.`, 9.5);
  }

  // ---- A table per device class ----
  let first = true;
  for (const c of r.classes) {
    if (!c.devices.length) continue;
    section(`${c.label} (${c.devices.length})`, first);
    first = false;
    say("P", `Together: ${uptimeText(c.figures!, true)}, ${n3(c.figures!.downtime_minutes)} minutes of downtime, SLO ${metText(c.figures)}.`, 9, ink.muted);
    grid(["Device", "Entity", "Counted from", "Availability", "Downtime (min)", "Outages", "Maint. (min)", "SLO"], c.devices.map(deviceRow), ["*", 66, 78, 60, 55, 46, 50, 45]);
  }
  if (first) section("Devices", true);
  if (first) say("P", "There are no devices in this scope.", 9.5, ink.muted);

  if (r.content.has("outages")) {
    section(`Outages (${r.outages.length})`);
    if (!r.outages.length) say("P", "No outage in this period.", 9.5, ink.muted);
    else
      grid(
        ["Device", "Start / end", "Duration", "Counted (min)", "Cause", "Path at failure", "Record"],
        r.outages.map((o) => [
          o.device_name,
          `${utc(o.start)}\n${utc(o.end)}`,
          duration(o.duration_s),
          `${n3(o.counted_minutes)}${o.announced ? " (maintenance)" : ""}`,
          o.cause,
          o.path_at_failure,
          o.link ? { text: o.outage_id, link: o.link } : o.outage_id,
        ]),
        [70, 78, 50, 50, 62, "*", 70],
      );
  }
  if (r.content.has("maintenance")) {
    section(`Announced maintenance (${r.maintenance.length})`);
    if (!r.maintenance.length) say("P", "No maintenance was announced in this period.", 9.5, ink.muted);
    else grid(["Device", "Start", "End", "Minutes in the period"], r.maintenance.map((m) => [`${m.device_name} (${m.device_id})`, utc(m.start), utc(m.end), n3(m.minutes)]), ["*", 100, 100, 90]);
  }
  if (r.content.has("activation_tests")) {
    section(`Activation tests (${r.activationTests.length})`);
    if (!r.activationTests.length) say("P", "No activation test was run in this period.", 9.5, ink.muted);
    else
      grid(
        ["Device", "Started", "Finished", "Verdict"],
        r.activationTests.map((t) => [`${t.device_name} (${t.device_id})`, utc(t.started_at), t.finished_at ? utc(t.finished_at) : "-", t.result ? t.result.toUpperCase() : t.status]),
        ["*", 100, 100, 70],
      );
  }

  // ---- Appendix ----
  section("Appendix: what the figures mean", true);
  for (const [term, meaning] of [
    ["Period", `A calendar ${r.period.cadence === "monthly" ? "month" : "week (Monday to Sunday)"} in ${r.period.timeZone}, from the first instant of its first day to the first instant of the next ${r.period.cadence === "monthly" ? "month" : "week"}: days of 23 or 25 hours (daylight-saving changes) count as long as they are.`],
    ["Minutes counted", "From the start of the period, or the device's creation (a node's registration) when later, to the end of the period."],
    ["Downtime", "The outages' time inside the period that falls outside announced maintenance."],
    ["Availability (excl. maintenance)", "(minutes counted - downtime - announced maintenance) / (minutes counted - announced maintenance), 3 decimals. A device class, an entity or the account adds its devices' minutes. N/A when nothing was counted."],
    ["SLO", `${r.overall.slo_percent} % availability. Its budget is ${(100 - r.overall.slo_percent).toFixed(1)} % of the period's minutes less announced maintenance (for a device created during the period, of the whole period's); met when the downtime is within it.`],
    ["Outage counted", "An outage with time outside announced maintenance. An outage that began inside announced maintenance raised no alert and counts only for its time outside it."],
    ["Same figures", "The SLA report page and its CSV compute these figures with the same function; for a period in UTC they are equal to the second."],
  ] as const) {
    say("H3", term, 10, ink.heading, true);
    say("P", meaning, 9);
    doc.moveDown(0.4);
  }

  writePageFeet(doc, (page, count) =>
    writeText(doc.fillColor(ink.muted), `${r.productName} - ${r.scheduleName} - ${r.period.label} - page ${page} of ${count}`, margin.left, A4.height - margin.bottom + 24, {
      size: 8,
      width,
      align: "center",
      wrap: false,
    }),
  );
  doc.end();
  return done;
}

/* ---- The CSV attachment: the tables' figures, one row per scope, class and device ---- */

/** One cell as app/lib/csv.ts writes it (RFC 4180; a formula-like text gets a leading apostrophe). */
function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value !== "number" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const serviceCsvHeader = [
  "Row",
  "Class",
  "ID",
  "Name",
  "Entity",
  "Period",
  "Counted From (UTC)",
  "Counted To (UTC)",
  "Availability excl. maintenance (%)",
  "Downtime (minutes)",
  "Outages",
  "Announced Maintenance (minutes)",
  "Minutes Counted",
  "SLO (%)",
  "SLO Budget (minutes)",
  "SLO Met",
  "Created During Period",
] as const;

/** The CSV (UTF-8 with BOM, CRLF lines): the whole scope, each device class, then each device. */
export function renderServiceReportCsv(r: ServiceReportData): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const figures = (f: AvailabilityFigures) => [f.uptime_percent, f.downtime_minutes, f.outages, f.maintenance_minutes, f.window_minutes, f.slo_percent, f.slo_budget_minutes, f.slo_met === null ? "" : f.slo_met ? "yes" : "no"];
  const rows: (string | number | null)[][] = [];
  const scopeName = r.scope.kind === "account" ? r.accountName : r.scope.name;
  rows.push(["scope", r.scope.kind, "", scopeName, r.scope.kind === "entity" ? r.scope.name : "", r.period.label, iso(r.period.start), iso(r.period.end), ...figures(r.overall), ""]);
  for (const c of r.classes) if (c.figures) rows.push(["class", c.kind, "", c.label, "", r.period.label, iso(r.period.start), iso(r.period.end), ...figures(c.figures), ""]);
  for (const c of r.classes)
    for (const d of c.devices) rows.push(["device", c.kind, d.id, d.name, d.entity_name, r.period.label, iso(d.counted_from), iso(r.period.end), ...figures(d.figures), d.created_in_period ? "yes" : "no"]);
  return `\uFEFF${[serviceCsvHeader as readonly (string | number | null)[], ...rows].map((row) => `${row.map(csvCell).join(",")}\r\n`).join("")}`;
}
