/**
 * Insights: pick logs and a resolution, see them in one uPlot chart (number logs as lines on an
 * axis per unit, boolean logs as filled bands), with last values and the chart kept live from
 * the insights namespace. uPlot is loaded only when this page opens (a separate chunk), so the
 * first page stays small.
 */

import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type uPlotType from 'uplot';
import { shownScale } from '../../home/fraction-capabilities.js';
import { describe } from '../api.js';
import { chartHeight, type Heights, themedAxis, useChartBox } from '../chart.js';
import { call, subscribe } from '../client.js';
import type { App, Entries, Log } from '../types.js';
import { Card, Err, formatTime, useLoad } from '../ui.js';

/** The hub's resolution ids with what a person reads in the picker. */
const RESOLUTIONS: ReadonlyArray<[string, string]> = [
  ['lastHour', 'Last hour'],
  ['last6Hours', 'Last 6 hours'],
  ['last24Hours', 'Last 24 hours'],
  ['last3Days', 'Last 3 days'],
  ['last7Days', 'Last 7 days'],
  ['last14Days', 'Last 14 days'],
  ['last31Days', 'Last 31 days'],
  ['last3Months', 'Last 3 months'],
  ['last6Months', 'Last 6 months'],
  ['last2Years', 'Last 2 years'],
  ['today', 'Today'],
  ['yesterday', 'Yesterday'],
  ['thisWeek', 'This week'],
  ['lastWeek', 'Last week'],
  ['thisMonth', 'This month'],
  ['lastMonth', 'Last month'],
  ['thisYear', 'This year'],
  ['lastYear', 'Last year'],
];

/**
 * Whose log it is, in names: the app's name (`homey:app:<id>`), the device's (`homey:device:<id>`),
 * or the hub; the id only when the page may not read the apps or devices.
 */
function ownerOf(uri: string, apps: Record<string, App> | undefined, devices: Record<string, { name: string }> | undefined): string {
  const app = /^(?:hearth|homey):app:(.+)$/.exec(uri)?.[1];
  if (app !== undefined) return apps?.[app]?.name ?? app;
  const device = /^homey:device:(.+)$/.exec(uri)?.[1];
  if (device !== undefined) return devices?.[device]?.name ?? 'a device';
  return /^(?:hearth|homey):manager:/.test(uri) ? 'the hub' : uri;
}

/** The logs this browser charted last, by key. */
const PICKED_KEY = 'hearth.insights.picked';
function rememberedPicks(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(PICKED_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}
/** The chart's height on a phone and wider. */
const HEIGHTS: Heights = [240, 320];
const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'];
const key = (l: Log): string => l.id;

/**
 * A value as a person reads it, the Devices page's way: a device's fraction (dim 0.9) as a
 * percentage (90 %). `charted`: the value is already scaled (it is the chart's).
 */
function fmt(l: Log, v: number | boolean | null, charted = false): string {
  if (v === null || v === undefined) return '–';
  if (l.type === 'boolean') return v === true || v === 1 ? (l.titleTrue ?? 'on') : (l.titleFalse ?? 'off');
  const scale = shownScale(l);
  const n = (typeof v === 'number' ? v : Number(v)) * (charted ? 1 : scale);
  const decimals = scale === 1 ? l.decimals : 0;
  return `${decimals !== null ? n.toFixed(decimals) : String(n)}${l.units ? ` ${l.units}` : ''}`;
}

/** Aligns every log's buckets on one time axis (seconds, as uPlot wants). */
function align(logs: Log[], entries: Entries[]): uPlotType.AlignedData {
  const times = new Set<number>();
  for (const e of entries) for (const p of e.values) times.add(Date.parse(p.t) / 1000);
  const xs = [...times].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const cols = logs.map((l, li) => {
    const col: Array<number | null> = new Array(xs.length).fill(null);
    for (const p of entries[li]?.values ?? []) {
      const v = p.v === null ? null : l.type === 'boolean' ? (p.v === true || p.v === 1 ? 1 : 0) : Number(p.v) * shownScale(l);
      col[index.get(Date.parse(p.t) / 1000)!] = v;
    }
    return col;
  });
  return [xs, ...cols] as uPlotType.AlignedData;
}

/**
 * One y-axis per unit, every one drawn and labelled: the first on the left with the grid, the
 * others alternating right and left (uPlot stacks axes on one side outwards). A scale without a
 * unit is labelled with its logs' titles; an axis of one log takes that log's colour.
 */
function unitAxes(logs: Log[], units: string[]): uPlotType.Axis[] {
  return units.map((u, i) => {
    const on = logs.map((l, li) => ({ l, li })).filter(({ l }) => l.type === 'number' && (l.units ?? '') === u);
    const titles = on.map(({ l }) => l.title).join(', ');
    const label = u !== '' ? u : titles.length > 32 ? `${titles.slice(0, 31)}…` : titles;
    const only = on.length === 1 ? COLORS[on[0]!.li % COLORS.length] : undefined;
    return {
      scale: u,
      side: i % 2 === 0 ? 3 : 1,
      label,
      labelSize: 18,
      ...(only ? { stroke: only } : {}),
      grid: { show: i === 0 },
    };
  });
}

function Chart({ logs, resolution, tick }: { logs: Log[]; resolution: string; tick: number }): JSX.Element {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlotType | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const ids = logs.map(key).join(',');
  useEffect(() => {
    let live = true;
    setLoading(true);
    Promise.all([
      import('uplot').then((m) => m.default),
      Promise.all(logs.map((l) => call('insights', 'getLogEntries', { params: { uri: l.uri, id: l.ownerId }, query: { resolution } }))),
    ]).then(
      ([uPlot, entries]) => {
        if (!live || !box.current) return;
        setError(null);
        setLoading(false);
        const data = align(logs, entries);
        const units = [...new Set(logs.filter((l) => l.type === 'number').map((l) => l.units ?? ''))];
        const series: uPlotType.Series[] = [{}];
        logs.forEach((l, i) => {
          const color = COLORS[i % COLORS.length]!;
          if (l.type === 'boolean') {
            series.push({
              label: l.title,
              scale: 'bool',
              stroke: color,
              width: 0,
              fill: `${color}33`,
              paths: uPlot.paths.stepped!({ align: 1 }),
              value: (_u, v) => fmt(l, v),
            });
          } else {
            // Sparse logs (a hub just started, or samples far apart) would draw nothing as a bare line.
            const count = entries[i]?.values.filter((p) => p.v !== null).length ?? 0;
            series.push({
              label: l.title,
              scale: l.units ?? '',
              stroke: color,
              width: 2,
              spanGaps: false,
              value: (_u, v) => fmt(l, v, true),
              points: { show: count <= 60, size: 6, fill: color },
            });
          }
        });
        const axes: uPlotType.Axis[] = [themedAxis(box.current), ...unitAxes(logs, units).map((a) => themedAxis(box.current!, a))];
        const scales: uPlotType.Scales = { x: { time: true }, bool: { range: [0, 1] } };
        const width = box.current.clientWidth || 600;
        const opts: uPlotType.Options = { width, height: chartHeight(width, HEIGHTS), series, axes, scales, legend: { live: true } };
        plot.current?.destroy();
        box.current.textContent = '';
        plot.current = new uPlot(opts, data, box.current);
        // How many values the chart holds, for people (tooltip) and the browser tests.
        const points = data.slice(1).reduce((n, col) => n + (col as Array<number | null>).filter((v) => v !== null).length, 0);
        box.current.dataset.points = String(points);
        // The y-axes drawn (uPlot draws on the canvas), for the browser tests: label and side.
        box.current.dataset.axes = JSON.stringify(axes.slice(1).map((a) => ({ label: a.label, side: a.side === 1 ? 'right' : 'left' })));
        box.current.title = `${points} values`;
      },
      (e: unknown) => {
        if (!live) return;
        setError(describe(e));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [ids, resolution, tick]);
  useChartBox(box, plot, HEIGHTS);
  return (
    <div>
      {loading ? <progress class="thin" /> : null}
      <Err msg={error} />
      <div ref={box} class="chart" data-testid="chart" />
    </div>
  );
}

export function InsightsPage(): JSX.Element {
  const logs = useLoad(() => call('insights', 'getLogs'));
  // For app names in the log titles; a token without the apps scope sees the app ids instead.
  const apps = useLoad(() => call('apps', 'getApps').catch(() => ({})));
  const devices = useLoad(() => call('devices', 'getDevices').catch(() => ({})));
  const [picked, setPickedHere] = useState<string[]>(rememberedPicks);
  const setPicked = (f: (p: string[]) => string[]): void =>
    setPickedHere((p) => {
      const next = f(p);
      localStorage.setItem(PICKED_KEY, JSON.stringify(next));
      return next;
    });
  // Opening the page shows a chart: what was charted last time here, else the first log with a value.
  useEffect(() => {
    const data = logs.data;
    if (!data) return;
    setPickedHere((p) => {
      const there = p.filter((k) => data[k] !== undefined);
      if (there.length > 0) return there;
      const first = Object.values(data).find((l) => l.lastValue !== null) ?? Object.values(data)[0];
      return first ? [key(first)] : [];
    });
  }, [logs.data === undefined]);
  const [resolution, setResolution] = useState('lastHour');
  const [tick, setTick] = useState(0);
  const refetch = useRef<number | undefined>(undefined);
  const pickedRef = useRef(picked);
  pickedRef.current = picked;
  useEffect(
    () =>
      subscribe('insights', ({ name: event, args }) => {
        if (event !== 'log.create' && event !== 'log.update' && event !== 'log.delete') return;
        const log = args[0];
        logs.set((prev) => {
          if (!prev) return prev;
          const next = { ...prev };
          if (event === 'log.delete') delete next[key(log)];
          else next[key(log)] = log;
          return next;
        });
        // New entries in a shown log: re-read the buckets, at most once a second.
        if (event === 'log.update' && pickedRef.current.includes(key(log)) && refetch.current === undefined) {
          refetch.current = window.setTimeout(() => {
            refetch.current = undefined;
            setTick((n) => n + 1);
          }, 1000);
        }
      }),
    [],
  );
  useEffect(() => () => window.clearTimeout(refetch.current), []);
  const all = Object.values(logs.data ?? {});
  const shown = picked.map((k) => logs.data?.[k]).filter((l): l is Log => l !== undefined);
  const toggle = (k: string): void => setPicked((p) => (p.includes(k) ? p.filter((x) => x !== k) : [...p, k]));
  return (
    <>
      <Card
        title="Insights"
        actions={
          <label class="inline">
            <span>Period</span>
            <select value={resolution} data-testid="resolution" onChange={(e) => setResolution((e.target as HTMLSelectElement).value)}>
              {RESOLUTIONS.map(([id, words]) => (
                <option key={id} value={id}>
                  {words}
                </option>
              ))}
            </select>
          </label>
        }
      >
        <Err msg={logs.error} />
        {shown.length > 0 ? <Chart logs={shown} resolution={resolution} tick={tick} /> : <p class="muted">Pick one or more logs below to chart them.</p>}
      </Card>
      <Card title="Logs">
        {!logs.data && !logs.error ? <p class="muted">Loading…</p> : null}
        {logs.data && all.length === 0 ? <p class="muted">No logs yet.</p> : null}
        <table class="logs-table">
          <tbody>
            {all.map((l) => (
              <tr key={key(l)}>
                <td>
                  <label class="check">
                    <input type="checkbox" checked={picked.includes(key(l))} data-testid={`log-${key(l)}`} onChange={() => toggle(key(l))} />
                    <span>{l.title}</span>
                  </label>
                  <div class="muted small" title={l.uri} data-testid={`owner-${key(l)}`}>
                    {ownerOf(l.uri, apps.data, devices.data)}
                  </div>
                </td>
                <td class="num" data-testid={`last-${key(l)}`}>
                  {fmt(l, l.lastValue)}
                </td>
                <td class="muted small hide-narrow" data-testid={`updated-${key(l)}`}>
                  {formatTime(l.lastUpdated)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </>
  );
}
