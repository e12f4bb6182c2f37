import { area, line, stack } from "d3-shape";
import { axes, labelAnchor, PLOT_H, PLOT_W, Y_GUTTER, type Axes } from "./geometry.ts";
import { visibleBands, type ChartPoint, type ChartSeries, type ChartSpec } from "./model.ts";
import { DASHES, POINT_STYLES, seriesColorVar, type PointStyle } from "./palette.ts";

/*
 * The chart as the server draws it: one SVG whose text is never scaled. The series are drawn in
 * an inner SVG stretched to the figure's width (`preserveAspectRatio="none"`, strokes not
 * scaled); ticks, labels and point markers sit at percentages of the width, so a 320 px chart
 * has the same text size as a wide one and shows fewer x labels (geometry.ts chooses them per
 * width, app.css hides the rest). The y labels stand in a gutter left of the plot.
 */

const TOP = 34;
const HEIGHT = TOP + PLOT_H + 40;
const pct = (x: number) => `${((x / PLOT_W) * 100).toFixed(2)}%`;
const MARKERS_PER_SERIES = 8;

/** Marker shapes centred on 0,0, as chart.js draws its point styles. */
const MARKER: Record<PointStyle, string> = {
  circle: "M3.5,0A3.5,3.5,0,1,1,-3.5,0A3.5,3.5,0,1,1,3.5,0Z",
  rect: "M-3,-3H3V3H-3Z",
  triangle: "M0,-4L4,3H-4Z",
  rectRot: "M0,-4.2L4.2,0L0,4.2L-4.2,0Z",
  crossRot: "M-3.5,-3.5L3.5,3.5M3.5,-3.5L-3.5,3.5",
  cross: "M0,-4V4M-4,0H4",
};
const OPEN: ReadonlySet<PointStyle> = new Set(["crossRot", "cross"]);

type Defined = ChartPoint & { v: number };
const defined = (p: ChartPoint): p is Defined => p.v !== null;

export function ChartSvg({ spec, drawn, titleId, descId, idPrefix, description }: { spec: ChartSpec; drawn: ChartSeries[]; titleId: string; descId: string; idPrefix: string; description: string }) {
  const ax = axes(spec, drawn);
  return (
    <div className="chart-plot flex">
      {/* The y labels in a gutter of their own, beside the plot: never over a bar or a line. */}
      <svg aria-hidden="true" width={Y_GUTTER} height={HEIGHT} className="chart-y-labels block shrink-0 overflow-visible text-[0.75rem]" style={{ color: "var(--chart-text)" }}>
        <text x="0" y="12" fill="currentColor" fontWeight={600}>
          {spec.unit}
        </text>
        {ax.yTicks.map((t) => (
          <text key={t.value} x={Y_GUTTER - 5} y={TOP + ax.y(t.value) + 4} textAnchor="end" fill="currentColor">
            {t.label}
          </text>
        ))}
      </svg>
      <svg role="img" aria-labelledby={`${titleId} ${descId}`} width="100%" height={HEIGHT} className="chart-svg block min-w-0 flex-1 overflow-visible text-[0.75rem]" style={{ color: "var(--chart-text)" }}>
        <title id={titleId}>{spec.title}</title>
        <desc id={descId}>{description}</desc>
        <defs>
          {POINT_STYLES.map((s) => (
            <path key={s} id={`${idPrefix}-${s}`} d={MARKER[s]} strokeWidth={1.5} />
          ))}
        </defs>
        <YAxis ax={ax} />
        <svg x="0" y={TOP} width="100%" height={PLOT_H} viewBox={`0 0 ${PLOT_W} ${PLOT_H}`} preserveAspectRatio="none" className="overflow-visible">
          {ax.time ? <Bands ax={ax} spec={spec} /> : null}
          {spec.kind === "bar" ? <GroupedBars ax={ax} drawn={drawn} /> : null}
          {spec.kind === "stacked-bar" ? <StackedBars ax={ax} drawn={drawn} /> : null}
          {spec.kind === "line" || spec.kind === "area" ? drawn.map((s, i) => <Line key={`${i}-${s.name}`} ax={ax} s={s} i={i} fill={spec.kind === "area"} />) : null}
        </svg>
        {spec.kind === "line" || spec.kind === "area" || spec.kind === "scatter"
          ? drawn.map((s, i) => <Markers key={`${i}-${s.name}`} ax={ax} s={s} i={i} all={spec.kind === "scatter"} idPrefix={idPrefix} />)
          : null}
        <XAxis ax={ax} label={spec.xLabel ?? (ax.time ? "Time (UTC)" : "")} />
      </svg>
    </div>
  );
}

function YAxis({ ax }: { ax: Axes }) {
  return (
    <g className="chart-y-axis">
      {ax.yTicks.map((t) => {
        const y = TOP + ax.y(t.value);
        return (
          <g key={t.value} className="chart-y-tick">
            <line x1="0" x2="100%" y1={y} y2={y} style={{ stroke: "var(--chart-grid)" }} strokeWidth={1} />
          </g>
        );
      })}
      <line x1="0" x2="0" y1={TOP} y2={TOP + PLOT_H} stroke="currentColor" strokeWidth={1} />
    </g>
  );
}

/** The x labels: each hidden at the widths that leave it out (`chart-x-off-N`, app.css), so that none overlap. */
function XAxis({ ax, label }: { ax: Axes; label: string }) {
  const bottom = TOP + PLOT_H;
  const x = (v: number) => (ax.time ? ax.x(v) : v);
  return (
    <g className="chart-x-axis">
      <line x1="0" x2="100%" y1={bottom} y2={bottom} stroke="currentColor" strokeWidth={1} />
      {ax.xTicks.map((t) => {
        const p = x(t.value);
        return (
          <g key={t.value} className={["chart-x-tick", ...t.off.map((i) => `chart-x-off-${i}`)].join(" ")}>
            <line x1={pct(p)} x2={pct(p)} y1={bottom} y2={bottom + 5} stroke="currentColor" strokeWidth={1} />
            <text x={pct(p)} y={bottom + 17} textAnchor={labelAnchor(p, PLOT_W)} fill="currentColor">
              {t.label}
            </text>
          </g>
        );
      })}
      {label ? (
        <text x="50%" y={bottom + 35} textAnchor="middle" fill="currentColor" fontWeight={600}>
          {label}
        </text>
      ) : null}
    </g>
  );
}

/** The spec's bands as shaded spans the plot's full height, behind the series. */
function Bands({ ax, spec }: { ax: Axes; spec: ChartSpec }) {
  const bands = visibleBands(spec.bands, ax.xDomain);
  if (!bands.length) return null;
  return (
    <g className="chart-bands" aria-hidden="true">
      {bands.map((b) => (
        <rect key={`${b.start}-${b.end}`} className="chart-band" data-band={b.label} x={ax.x(b.start)} width={Math.max(1, ax.x(b.end) - ax.x(b.start))} y={0} height={PLOT_H} fill="currentColor" fillOpacity={0.14} />
      ))}
    </g>
  );
}

function Line({ ax, s, i, fill }: { ax: Axes; s: ChartSeries; i: number; fill: boolean }) {
  const x = (p: ChartPoint) => ax.x(p.t);
  const y = (p: ChartPoint) => ax.y(p.v ?? 0);
  const d = line<ChartPoint>().defined(defined).x(x).y(y).digits(0)(s.points) ?? "";
  const filled = fill ? (area<ChartPoint>().defined(defined).x(x).y0(ax.y(Math.max(ax.yDomain[0], 0))).y1(y).digits(0)(s.points) ?? "") : "";
  const color = seriesColorVar(i);
  return (
    <g className="chart-series" data-series={s.name}>
      {filled ? <path d={filled} style={{ fill: color }} fillOpacity={0.15} stroke="none" /> : null}
      <path d={d} fill="none" style={{ stroke: color }} strokeWidth={2} strokeDasharray={DASHES[i] || undefined} vectorEffect="non-scaling-stroke" strokeLinejoin="round" />
    </g>
  );
}

function Markers({ ax, s, i, all, idPrefix }: { ax: Axes; s: ChartSeries; i: number; all: boolean; idPrefix: string }) {
  const pts = s.points.filter(defined);
  const step = all ? 1 : Math.max(1, Math.floor(pts.length / MARKERS_PER_SERIES));
  // Offset per series, so markers of overlapping lines do not sit on each other.
  const offset = all ? 0 : Math.floor((step * i) / 6);
  const shape = POINT_STYLES[i] ?? "circle";
  const color = seriesColorVar(i);
  return (
    <g className="chart-markers" style={{ fill: OPEN.has(shape) ? "none" : color, stroke: color }} aria-hidden="true">
      {pts
        .filter((_, k) => k % step === offset % step)
        .map((p) => (
          <use key={String(p.t)} href={`#${idPrefix}-${shape}`} x={pct(ax.x(p.t))} y={TOP + ax.y(p.v)} />
        ))}
    </g>
  );
}

function GroupedBars({ ax, drawn }: { ax: Axes; drawn: ChartSeries[] }) {
  const w = ax.bandwidth / Math.max(1, drawn.length);
  return (
    <>
      {drawn.map((s, i) => (
        <g key={`${i}-${s.name}`} className="chart-series" data-series={s.name} style={{ fill: seriesColorVar(i) }}>
          {s.points.filter(defined).map((p) => {
            const y = ax.y(Math.max(p.v, 0));
            return <rect key={String(p.t)} x={ax.band(p.t) + i * w} width={w * 0.9} y={y} height={Math.max(0, ax.y(0) - y)} />;
          })}
        </g>
      ))}
    </>
  );
}

function StackedBars({ ax, drawn }: { ax: Axes; drawn: ChartSeries[] }) {
  const rows = ax.categories.map((t) => {
    const row: Record<string, number> = {};
    drawn.forEach((s, i) => (row[i] = s.points.find((p) => p.t === t)?.v ?? 0));
    return { t, row };
  });
  const layers = stack<{ t: string | number; row: Record<string, number> }>()
    .keys(drawn.map((_, i) => String(i)))
    .value((d, key) => d.row[key] ?? 0)(rows);
  return (
    <>
      {layers.map((layer, i) => (
        <g key={`${i}-${drawn[i]!.name}`} className="chart-series" data-series={drawn[i]!.name} style={{ fill: seriesColorVar(i) }}>
          {layer.map(([lo, hi], k) => (
            <rect key={String(rows[k]!.t)} x={ax.band(rows[k]!.t)} width={ax.bandwidth} y={ax.y(hi)} height={Math.max(0, ax.y(lo) - ax.y(hi))} />
          ))}
        </g>
      ))}
    </>
  );
}
