/**
 * Energy (`#/energy`): what the home uses now as one large number, what its meter sees and what
 * no device accounts for, a bar per room, today's or this month's use as a chart (used, made,
 * given back), the biggest users of that period, and the price per kWh. Live from the energy
 * channel (`live.update`); the period's report again each minute. Readable on a wall tablet and
 * a phone, light and dark.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { EnergyReport, LiveReport } from '../../managers/energy/contract.js';
import { homePower } from '../../managers/energy/home-power.js';
import { call, subscribe } from '../client.js';
import { ActionButton, Card, Err, useLoad } from '../ui.js';
import { EnergyChart, kWh } from './energy-chart.js';

/** Watts as a person reads them: 850 W, 2.4 kW. */
export function watts(W: number | null): string {
  if (W === null) return '–';
  return Math.abs(W) >= 1000 ? `${(W / 1000).toFixed(1)} kW` : `${Math.round(W)} W`;
}
const money = (v: number | null, symbol: string): string | null => (v === null ? null : `${symbol}${v.toFixed(2)}`);

/** The local date and month of now, as the reports are keyed (the browser's zone: the hub's, in a home). */
function today(): { date: string; month: string } {
  const d = new Date();
  const p = (n: number) => String(n).padStart(2, '0');
  return { date: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`, month: `${d.getFullYear()}-${p(d.getMonth() + 1)}` };
}

function Now({ live, symbol }: { live: LiveReport; symbol: string }): JSX.Element {
  const metered = live.totalCumulative.W !== null;
  const power = homePower(live);
  // What an hour at this rate costs: of what comes from the grid when there is a meter.
  const cost = money(metered ? live.totalCumulative.cost : live.totalConsumed.cost, symbol);
  return (
    <section class="card energy-now" aria-label="Now">
      <p class="muted">The home uses now</p>
      <p class="energy-big" data-testid="energy-now">
        {watts(power)}
      </p>
      {cost && power > 0 ? <p class="muted small">{cost} an hour at this rate</p> : null}
      <dl class="energy-facts">
        <div>
          <dt>Devices</dt>
          <dd data-testid="energy-devices">{watts(live.totalConsumed.W)}</dd>
        </div>
        {metered ? (
          <>
            <div>
              <dt>{(live.totalCumulative.W ?? 0) < 0 ? 'Back to the grid' : 'From the grid'}</dt>
              <dd>{watts(Math.abs(live.totalCumulative.W ?? 0))}</dd>
            </div>
            <div>
              <dt>Not accounted for</dt>
              <dd data-testid="energy-unaccounted">{watts(live.totalUnaccounted.W)}</dd>
            </div>
          </>
        ) : null}
        {(live.totalGenerated.W ?? 0) > 0 ? (
          <div>
            <dt>Made</dt>
            <dd>{watts(live.totalGenerated.W)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

function Rooms({ live }: { live: LiveReport }): JSX.Element | null {
  const rooms = live.items.filter((i) => i.type === 'zone' || (i.type === 'device' && !i.isGenerator)).sort((a, b) => (b.values.W ?? 0) - (a.values.W ?? 0));
  if (rooms.length === 0) return null;
  const top = Math.max(1, ...rooms.map((r) => r.values.W ?? 0));
  return (
    <Card title="By room">
      <ul class="plain energy-bars">
        {rooms.map((r) => (
          <li key={r.id} data-testid={`energy-room-${r.name}`}>
            <span class="energy-bar-name">
              {r.name}
              {r.approximated ? <span class="muted small"> (estimated)</span> : null}
            </span>
            <span class="energy-bar" aria-hidden="true">
              <span style={{ width: `${Math.max(0, ((r.values.W ?? 0) / top) * 100)}%` }} />
            </span>
            <span class="energy-bar-value">{watts(r.values.W)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** `version`: a price saved since: the report again, with its costs. */
function Period({ symbol, version }: { symbol: string; version: number }): JSX.Element {
  const [which, setWhich] = useState<'today' | 'month'>('today');
  const report = useLoad<EnergyReport>(() => {
    const t = today();
    return which === 'today'
      ? call('energy', 'getReportDay', { query: { date: t.date } })
      : call('energy', 'getReportMonth', { query: { yearMonth: t.month } });
  }, [which, version]);
  useEffect(() => {
    const timer = setInterval(() => report.reload(), 60_000);
    return () => clearInterval(timer);
  }, [report.reload]);
  const r = report.data;
  const e = r?.electricity;
  const biggest = e
    ? Object.entries(e.devices)
        .filter(([, d]) => (d.consumedPeriod ?? 0) > 0)
        .sort(([, a], [, b]) => (b.consumedPeriod ?? 0) - (a.consumedPeriod ?? 0))
        .slice(0, 5)
    : [];
  return (
    <Card title={which === 'today' ? 'Today' : 'This month'}>
      <fieldset class="inline energy-period">
        <legend class="visually-hidden">Period</legend>
        <button type="button" class={which === 'today' ? 'primary' : ''} aria-pressed={which === 'today'} onClick={() => setWhich('today')}>
          Today
        </button>
        <button type="button" class={which === 'month' ? 'primary' : ''} aria-pressed={which === 'month'} onClick={() => setWhich('month')}>
          This month
        </button>
      </fieldset>
      <Err msg={report.error} />
      {e && r ? (
        <>
          <p data-testid="energy-period-total">
            <b class="energy-mid">{kWh(e.consumedPeriod)}</b> used
            {e.costPeriod !== null ? <span class="muted"> · {money(e.costPeriod, symbol)}</span> : null}
            {e.generatedPeriod > 0 ? <span class="muted"> · {kWh(e.generatedPeriod)} made</span> : null}
            {e.importedPeriod !== null ? <span class="muted"> · {kWh(e.importedPeriod)} from the grid</span> : null}
          </p>
          <EnergyChart report={r} by={which === 'today' ? 'hour' : 'day'} />
          {biggest.length > 0 ? (
            <>
              <h3>Biggest users</h3>
              <ol class="energy-biggest">
                {biggest.map(([id, d]) => (
                  <li key={id} data-testid={`energy-user-${d.name}`}>
                    {d.name} <span class="muted">{kWh(d.consumedPeriod ?? 0)}</span>
                  </li>
                ))}
                {e.unaccountedPeriod !== null && e.unaccountedPeriod > 0 ? (
                  <li class="muted">
                    Not accounted for <span>{kWh(e.unaccountedPeriod)}</span>
                  </li>
                ) : null}
              </ol>
            </>
          ) : null}
        </>
      ) : null}
    </Card>
  );
}

function Price({ symbol, onSaved }: { symbol: string; onSaved: () => void }): JSX.Element {
  const price = useLoad(() => call('energy', 'getOptionElectricityPriceFixed'));
  const [text, setText] = useState<string | null>(null);
  const current = price.data?.value as { costs: Record<string, { value: number }> } | null | undefined;
  const perKWh = current ? Object.values(current.costs).reduce((s, c) => s + c.value, 0) : null;
  const save = async () => {
    const typed = text ?? (perKWh === null ? '' : String(perKWh));
    if (typed.trim() === '') await call('energy', 'unsetOptionElectricityPriceFixed');
    else
      await call('energy', 'setOptionElectricityPriceFixed', { body: { value: { costs: { user_fixed_base: { value: Number(typed.replace(',', '.')) } } } } });
    price.reload();
    onSaved();
  };
  return (
    <details class="card">
      <summary>Price</summary>
      <p class="muted small">What a kWh costs, to show what the home spends. Empty: no price.</p>
      <label class="inline">
        Per kWh ({symbol})
        <input
          type="number"
          min="0"
          step="0.01"
          inputMode="decimal"
          data-testid="energy-price"
          value={text ?? (perKWh === null ? '' : String(perKWh))}
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
      </label>{' '}
      <ActionButton label="Save" kind="primary" onRun={save} testId="energy-price-save" />
      <Err msg={price.error} />
    </details>
  );
}

export function EnergyPage(): JSX.Element {
  const live = useLoad(() => call('energy', 'getLiveReport', { query: {} }));
  const currency = useLoad(() => call('energy', 'getCurrency'));
  useEffect(() => subscribe('energy', () => live.reload(), live.reload), [live.reload]);
  const symbol = currency.data?.symbol ?? '';
  const [version, setVersion] = useState(0);
  return (
    <div class="energy">
      <h1>Energy</h1>
      <Err msg={live.error} />
      {live.data ? (
        <div class="energy-top">
          <Now live={live.data} symbol={symbol} />
          <Rooms live={live.data} />
        </div>
      ) : null}
      <Period symbol={symbol} version={version} />
      <Price
        symbol={symbol}
        onSaved={() => {
          live.reload();
          setVersion((v) => v + 1);
        }}
      />
    </div>
  );
}
