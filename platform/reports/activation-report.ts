import { durationText } from "../contract/devices.ts";
import type { ActivationReport } from "../contract/devices.shapes.ts";
import { A4, openTaggedPdf, reportInk, writePageFeet } from "./pdf.ts";
import { textHeight, writeText } from "./text.ts";
import { reportMessages } from "../contract/messages.ts";

/**
 * The activation test report (ITU-T Y.1564) of a CPE or a metro, A4: a header (device, product,
 * peer, MEG level, UTC start and end, what the circuit was sold as), the overall verdict, the
 * service configuration test table (one row per step: throughput and delay), the service
 * performance test table (15 min, 2 h or 24 h, as chosen), the link speed table (spec 3 §9: the
 * samples of what was sent and received, per step and per interval of the performance test) and the
 * acceptance criteria, so a customer sees at once whether the circuit delivers what was bought. A
 * test the simulated network ran faster than real time (tests) says so under the verdict. The reports' embedded fonts (names in any script), tagged for screen readers, page numbers below.
 */

const margin = { top: 56, bottom: 64, left: 48, right: 48 };
const contentWidth = A4.width - margin.left - margin.right;
const colors = reportInk;

const utc = (iso: string | null) => (iso ? iso.replace("T", " ").replace(/\.\d+Z$/, " UTC").replace(/Z$/, " UTC") : "not finished");
const n3 = (v: number) => (Math.round(v * 1000) / 1000).toLocaleString("en-US", { maximumFractionDigits: 3 });
const mbps = (v: number) => `${n3(v)} Mbps`;
const verdict = (v: "pass" | "fail" | null) => (v === null ? "-" : v.toUpperCase());
/** A time with its milliseconds (an accelerated test's samples are fractions of a second apart). */
const utcMs = (iso: string) => iso.replace("T", " ").replace(/Z$/, " UTC");
/** A real-time length: "3 s", "7.2 min", "4.8 h". */
const took = (seconds: number) => (seconds < 120 ? `${n3(Math.round(seconds * 10) / 10)} s` : seconds < 7200 ? `${n3(Math.round(seconds / 6) / 10)} min` : `${n3(Math.round(seconds / 360) / 10)} h`);
/** What the simulated network did to the clock, in words (null: real time). */
export function accelerationText(report: Pick<ActivationReport, "accelerated" | "performance_duration_s">): string | null {
  const a = report.accelerated;
  if (!a) return null;
  const times = (x: number) => (x === 1 ? "in real time" : `${n3(x)} times faster`);
  return (
    `Accelerated test: the simulated network ran this test faster than real time, ` +
    `the link checks and the service configuration test ${times(a.configuration)} and ` +
    `the ${durationText(report.performance_duration_s)} service performance test ${times(a.performance)} (it took ${took(report.performance_duration_s / a.performance)}). ` +
    `Its figures stand for the whole ${durationText(report.performance_duration_s)}; its times are the real ones.`
  );
}

type Cell = { text: string; tone?: "pass" | "fail"; bold?: boolean };

export async function renderActivationReportPdf(report: ActivationReport, opts: { productName: string; generatedAt: Date }): Promise<Buffer> {
  const product = opts.productName;
  const { doc, done, root } = openTaggedPdf({
    margins: margin,
    info: { Title: `Service activation test report: ${report.device_name}`, Author: product, Subject: `ITU-T Y.1564 test ${report.sse_id} of ${report.device_id}` },
  });
  const bottom = A4.height - margin.bottom;
  const ensure = (h: number) => {
    if (doc.y + h > bottom) {
      doc.addPage();
      doc.y = margin.top;
    }
  };
  const text = (tag: "H1" | "H2" | "P", s: string, style: { size: number; color?: string; bold?: boolean }) => {
    root.add(
      doc.struct(tag, {}, [
        () => {
          writeText(doc.fillColor(style.color ?? colors.text), s, margin.left, doc.y, { size: style.size, weight: style.bold ? "bold" : "regular", width: contentWidth });
        },
      ]),
    );
  };
  const heading = (s: string) => {
    ensure(60);
    doc.moveDown(0.8);
    text("H2", s, { size: 13, color: colors.heading, bold: true });
    doc.moveDown(0.3);
  };

  /** A table with a header row (repeated on each page it runs onto) and proportional column widths; rows never split across pages. */
  const table = (header: string[] | null, widths: number[], rows: Cell[][], size = 8.5) => {
    const total = widths.reduce((a, b) => a + b, 0);
    const w = widths.map((x) => (x / total) * contentWidth);
    const padX = 4;
    const padY = 3.5;
    const heightOf = (cells: Cell[]) =>
      Math.max(...cells.map((c, i) => textHeight(doc, c.text, { size, weight: c.bold ? "bold" : "regular", width: w[i]! - 2 * padX }))) + 2 * padY;
    const draw = (cells: Cell[], fill: string | null, bold: boolean) => {
      const h = heightOf(cells.map((c) => ({ ...c, bold: bold || c.bold })));
      if (doc.y + h > bottom) {
        // Inside the table's marked content: closed on this page and opened again on the next.
        doc.continueOnNewPage();
        doc.y = margin.top;
        if (header && !bold) drawHeader();
      }
      const y = doc.y;
      if (fill) doc.save().rect(margin.left, y, contentWidth, h).fill(fill).restore();
      let x = margin.left;
      cells.forEach((c, i) => {
        writeText(doc.fillColor(c.tone ? colors[c.tone] : colors.text), c.text, x + padX, y + padY, {
          size,
          weight: bold || c.bold || c.tone ? "bold" : "regular",
          width: w[i]! - 2 * padX,
        });
        x += w[i]!;
      });
      doc.save().moveTo(margin.left, y + h).lineTo(margin.left + contentWidth, y + h).lineWidth(0.5).strokeColor(colors.rule).stroke().restore();
      doc.y = y + h;
      doc.x = margin.left;
    };
    const drawHeader = () =>
      draw(
        (header ?? []).map((t) => ({ text: t })),
        colors.headerFill,
        true,
      );
    root.add(
      doc.struct("Table", {}, [
        () => {
          if (header) drawHeader();
          rows.forEach((r, i) => draw(r, i % 2 ? colors.zebra : null, false));
        },
      ]),
    );
  };

  // Title and verdict
  doc.y = margin.top;
  text("H1", "Service Activation Test Report", { size: 20, color: colors.heading, bold: true });
  text("P", `ITU-T Y.1564 service configuration and service performance tests. ${product}, generated ${utc(opts.generatedAt.toISOString())}.`, { size: 9, color: colors.muted });
  doc.moveDown(0.6);
  const overall = report.result;
  text("P", `Overall verdict: ${verdict(overall)}${report.status === "running" ? " (the test is still running)" : ""}`, {
    size: 15,
    bold: true,
    color: overall === "pass" ? colors.pass : overall === "fail" ? colors.fail : colors.text,
  });
  const acceleration = accelerationText(report);
  if (acceleration) {
    doc.moveDown(0.3);
    text("P", acceleration, { size: 9.5, bold: true });
  }
  doc.moveDown(0.4);

  heading("Circuit and test");
  const kindName = report.kind === "cpe" ? "Internet NID" : "Metro Ethernet NID";
  table(
    null,
    [1, 2.4],
    [
      [{ text: "Device", bold: true }, { text: `${report.device_name} (${report.device_id}), ${kindName}` }],
      [{ text: "Product", bold: true }, { text: report.prod_code }],
      [{ text: "Sold as", bold: true }, { text: `CIR ${mbps(report.cir_mbps)}, EIR ${mbps(report.eir_mbps)} (CIR + EIR ${mbps(report.cir_mbps + report.eir_mbps)})` }],
      [{ text: "Peer", bold: true }, { text: report.peer }],
      [{ text: "MEG level", bold: true }, { text: report.meg_level === null ? "not applicable (no Ethernet OAM on this device)" : String(report.meg_level) }],
      [{ text: "Start (UTC)", bold: true }, { text: utc(report.started_at) }],
      [{ text: "End (UTC)", bold: true }, { text: utc(report.finished_at) }],
      [{ text: "Service performance test", bold: true }, { text: `${durationText(report.performance_duration_s)} at CIR (ITU-T Y.1564 names 15 min, 2 h and 24 h)` }],
      [{ text: "Clock", bold: true }, { text: acceleration ? "Accelerated (see above)" : "Real time" }],
      [{ text: "Test id", bold: true }, { text: report.sse_id }],
      [
        { text: "Acceptance criteria", bold: true },
        {
          text: `FTD <= ${n3(report.criteria.ftd_max_ms)} ms, FDV <= ${n3(report.criteria.fdv_max_ms)} ms, FLR <= ${n3(report.criteria.flr_max_pct)} %, availability >= ${n3(report.criteria.availability_min_pct)} %; CIR + EIR and overshoot steps: CIR x (1 - FLR) <= IR <= CIR + EIR`,
        },
      ],
    ],
  );

  if (report.detail) {
    doc.moveDown(0.6);
    text("P", `The test could not run: ${report.detail}.`, { size: 10, color: colors.fail, bold: true });
  }

  heading("Service configuration test");
  if (report.configuration.length === 0) {
    text("P", reportMessages.noStep, { size: 9.5, color: colors.muted });
  } else {
    table(
      ["Step", "Offered", "IR", "FLR", "FTD min / avg / max (ms)", "FDV (ms)", "Verdict"],
      [2.6, 1.05, 1.25, 0.85, 2, 0.75, 0.75],
      report.configuration.map((s) => [
        { text: s.label },
        { text: mbps(s.offered_mbps) },
        { text: mbps(s.ir_mbps) },
        { text: `${n3(s.flr_pct)} %` },
        { text: `${n3(s.ftd_min_ms)} / ${n3(s.ftd_avg_ms)} / ${n3(s.ftd_max_ms)}` },
        { text: n3(s.fdv_ms) },
        { text: verdict(s.result), tone: s.result },
      ]),
    );
    const reasons = report.configuration.filter((s) => s.reasons.length);
    for (const s of reasons) {
      doc.moveDown(0.3);
      text("P", `${s.label}: ${s.reasons.join("; ")}.`, { size: 8.5, color: colors.fail });
    }
  }

  heading("Service performance test");
  const p = report.performance;
  if (!p) {
    text("P", "Not run.", { size: 9.5, color: colors.muted });
  } else {
    table(
      ["Duration", "IR", "FLR", "FTD min / avg / max (ms)", "FDV (ms)", "Availability", "Verdict"],
      [0.9, 1.2, 0.85, 2, 0.75, 1, 0.8],
      [
        [
          { text: durationText(p.duration_s) },
          { text: mbps(p.ir_mbps) },
          { text: `${n3(p.flr_pct)} %` },
          { text: `${n3(p.ftd_min_ms)} / ${n3(p.ftd_avg_ms)} / ${n3(p.ftd_max_ms)}` },
          { text: n3(p.fdv_ms) },
          { text: `${n3(p.availability_pct)} %` },
          { text: verdict(p.result), tone: p.result },
        ],
      ],
    );
    if (p.reasons.length) {
      doc.moveDown(0.3);
      text("P", `${p.reasons.join("; ")}.`, { size: 8.5, color: colors.fail });
    }
  }

  heading("Link speed");
  if (report.link_speed.length === 0) {
    text("P", reportMessages.noSample, { size: 9.5, color: colors.muted });
  } else {
    text("P", "What the device sent towards the peer (TX) and received back (RX): one sample per configuration step, then one per interval of the service performance test.", { size: 8.5, color: colors.muted });
    doc.moveDown(0.3);
    table(
      ["Time (UTC)", "During", "TX (Mbps)", "RX (Mbps)"],
      [1.9, 2.9, 0.9, 0.9],
      report.link_speed.map((x) => [{ text: acceleration ? utcMs(x.timestamp) : utc(x.timestamp) }, { text: x.phase }, { text: n3(x["tx.mbps"]) }, { text: n3(x["rx.mbps"]) }]),
    );
  }

  heading("Summary");
  const delivered = report.performance ? `carried ${mbps(report.performance.ir_mbps)} at CIR with ${n3(report.performance.availability_pct)} % availability` : "was not measured";
  text(
    "P",
    overall === "pass"
      ? `The circuit sold as CIR ${mbps(report.cir_mbps)} + EIR ${mbps(report.eir_mbps)} delivers what was bought: every step passed and it ${delivered}.`
      : `The circuit sold as CIR ${mbps(report.cir_mbps)} + EIR ${mbps(report.eir_mbps)} did not pass: ${report.detail ?? "see the steps marked FAIL"}. It ${delivered}.`,
    { size: 10 },
  );

  // Footer on every page
  writePageFeet(doc, (page, count) =>
    writeText(doc.fillColor(colors.muted), `${product} - ${report.device_name} - ${report.sse_id} - page ${page} of ${count}`, margin.left, A4.height - margin.bottom + 24, {
      size: 8,
      width: contentWidth,
      align: "center",
      wrap: false,
    }),
  );
  doc.end();
  return done;
}
