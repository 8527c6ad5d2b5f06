/**
 * The energy chart: a report's parts (hours of a day, days of a month) as bars of kWh used, and
 * made and given back when the home has those, in uPlot (loaded when first drawn, as the
 * Insights page does). Readable at a phone's width; the colours are the theme's.
 */
import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type uPlotType from 'uplot';
import type { EnergyReport } from '../../managers/energy/contract.js';
import { chartHeight, type Heights, themedAxis, useChartBox } from '../chart.js';

/** The chart's height on a phone and wider. */
const HEIGHTS: Heights = [200, 260];
const SERIES = [
  { key: 'consumedPeriod', label: 'Used', color: '#2563eb' },
  { key: 'generatedPeriod', label: 'Made', color: '#16a34a' },
  { key: 'exportedPeriod', label: 'Back to the grid', color: '#ca8a04' },
] as const;

/** Energy as a person reads it: 350 Wh, 2.40 kWh, 31.5 kWh. */
export function kWh(v: number | null | undefined): string {
  if (v === null || v === undefined) return '–';
  if (v < 1) return `${Math.round(v * 1000)} Wh`;
  return `${v < 10 ? v.toFixed(2) : v.toFixed(1)} kWh`;
}

export function EnergyChart({ report, by }: { report: EnergyReport; by: 'hour' | 'day' }): JSX.Element {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlotType | null>(null);
  useEffect(() => {
    let live = true;
    void import('uplot').then(({ default: uPlot }) => {
      const el = box.current;
      if (!live || !el) return;
      const parts = Object.entries(report.subReports);
      const xs = parts.map(([k]) => Date.parse(by === 'hour' ? k : `${k}T12:00:00`) / 1000);
      // A column only when the home has it: no empty "made" bars in a home without panels.
      const shown = SERIES.filter((s) => parts.some(([, p]) => (p.electricity[s.key] ?? 0) > 0) || s.key === 'consumedPeriod');
      // Parts still to come have no bar (not a bar of nothing).
      const now = Date.now() / 1000;
      const data = [
        xs,
        ...shown.map((s) => parts.map(([, p], i) => (xs[i]! - (by === 'hour' ? 0 : 43_200) > now ? null : (p.electricity[s.key] ?? null)))),
      ] as uPlotType.AlignedData;
      const width = el.clientWidth || 600;
      const series: uPlotType.Series[] = [
        {},
        ...shown.map((s, i) => ({
          label: s.label,
          stroke: s.color,
          fill: `${s.color}cc`,
          width: 0,
          points: { show: false },
          paths: uPlot.paths.bars!({ size: [0.8 / shown.length, 60], gap: 1, align: shown.length === 1 ? 0 : i === 0 ? -1 : 1 }),
          value: (_u: uPlotType, v: number | null) => kWh(v),
        })),
      ];
      const step = by === 'hour' ? 3600 : 86_400;
      const opts: uPlotType.Options = {
        width,
        height: chartHeight(width, HEIGHTS),
        series,
        scales: { x: { time: true, range: (_u, min, max) => [min - step / 2, max + step / 2] }, y: { range: (_u, _min, max) => [0, Math.max(max, 0.1)] } },
        axes: [themedAxis(el), themedAxis(el, { label: 'kWh', size: 50 })],
        legend: { live: true },
      };
      plot.current?.destroy();
      el.textContent = '';
      plot.current = new uPlot(opts, data, el);
      // What the chart holds, for people (tooltip) and the browser tests.
      el.dataset.parts = String(parts.length);
      el.dataset.series = shown.map((s) => s.label).join(',');
    });
    return () => {
      live = false;
    };
  }, [report, by]);
  useChartBox(box, plot, HEIGHTS);
  return <div class="chart energy-chart" ref={box} data-testid="energy-chart" role="img" aria-label={`kWh used by ${by}`} />;
}
