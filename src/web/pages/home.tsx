/**
 * Home: the first screen, made for a wall tablet or a phone in a hand. The time of day, the
 * home's dashboards as large tiles, and its devices by zone, each a large button that switches
 * it (a device with on/off) or shows what it measures (a tap opens Devices, with all its controls).
 * An empty home says what to do next, in three large steps. Everything stays live.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DeviceView } from '../../managers/devices/views.js';
import type { ZoneView } from '../../managers/zones/contract.js';
import { describe, seg } from '../api.js';
import { call } from '../client.js';
import { Icon } from '../icons.js';
import { useLiveDevices } from '../live-devices.js';
import { readout } from '../readout.js';
import { Err, useLiveCollection, useLoad } from '../ui.js';

type Cap = DeviceView['capabilitiesObj'][string];

/** "Good evening" and the date and time, moved on each minute. */
function Greeting(): JSX.Element {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = window.setInterval(() => setNow(new Date()), 30_000);
    return () => window.clearInterval(t);
  }, []);
  const h = now.getHours();
  const part = h < 5 ? 'Good night' : h < 12 ? 'Good morning' : h < 18 ? 'Good afternoon' : 'Good evening';
  const day = now.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
  const time = now.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return (
    <header class="home-head">
      <h1>{part}</h1>
      <p>
        {day} · <time dateTime={now.toISOString()}>{time}</time>
      </p>
    </header>
  );
}

/**
 * The capability a device's big button shows: on/off when it has it, else the first measurement
 * (a thermostat shows the room's temperature, not its target), else the first reading.
 */
function mainCap(d: DeviceView): Cap | undefined {
  const caps = d.capabilities.map((id) => d.capabilitiesObj[id]).filter((c): c is Cap => c !== undefined);
  const reading = (c: Cap): boolean => c.getable && c.value !== null;
  return (
    caps.find((c) => c.id === 'onoff' && c.setable) ??
    caps.find((c) => reading(c) && c.id.startsWith('measure_') && c.id !== 'measure_battery') ??
    caps.find(reading) ??
    caps[0]
  );
}

function DeviceButton({ device }: { device: DeviceView }): JSX.Element {
  const [error, setError] = useState<string | null>(null);
  const cap = mainCap(device);
  const switchable = cap?.id === 'onoff' && cap.setable;
  const on = switchable && cap.value === true;
  const state = !device.available ? 'unavailable' : cap ? (switchable ? (on ? 'On' : 'Off') : readout(cap)) : '';
  const body = (
    <>
      <span class="name">{device.name}</span>
      <span class="state">{state}</span>
    </>
  );
  return (
    <div class={`home-device${on ? ' on' : ''}`} data-testid={`home-device-${device.name}`}>
      {switchable ? (
        <button
          type="button"
          aria-pressed={on}
          disabled={!device.available}
          onClick={() => {
            setError(null);
            call('devices', 'setCapabilityValue', { params: { deviceId: device.id, capabilityId: 'onoff' }, body: { value: !on } }).catch((e: unknown) =>
              setError(describe(e)),
            );
          }}
        >
          {body}
        </button>
      ) : (
        <a href="#/devices">{body}</a>
      )}
      {error ? (
        // A family sentence; the app's own words ("connect ECONNREFUSED ...") behind it, for whoever looks after the hub.
        <div class="error small" role="alert" data-testid="home-device-error">
          {device.name} did not respond. Try again in a moment.
          <details>
            <summary>Details</summary>
            {error}
          </details>
        </div>
      ) : null}
    </div>
  );
}

function EmptyHome(): JSX.Element {
  const steps: Array<[string, string, string, 'apps' | 'devices' | 'dashboard']> = [
    ['#/apps', 'Get apps', 'Apps bring devices, widgets and flow cards: install the ones for your home.', 'apps'],
    ['#/devices', 'Add your devices', 'Lights, plugs, sensors: pair them through their app.', 'devices'],
    ['#/dashboards', 'Make a dashboard', 'Put the widgets you look at every day on one screen.', 'dashboard'],
  ];
  return (
    <section class="card home-empty" data-testid="home-empty">
      <h2>Your home is empty so far</h2>
      <p class="muted">Three steps make it yours:</p>
      <ol class="home-steps">
        {steps.map(([href, title, text, icon]) => (
          <li key={href}>
            <a href={href} class="home-tile">
              <Icon name={icon} size={28} />
              <span class="name">{title}</span>
              <span class="muted small">{text}</span>
            </a>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function HomePage(): JSX.Element {
  const dashboards = useLoad(() => call('dashboards', 'getDashboards'));
  useLiveCollection('dashboards', 'dashboard', dashboards);
  // A sign-in that may not read devices or zones sees the dashboards alone.
  const devices = useLiveDevices(true);
  const zones = useLoad(() => call('zones', 'getZones').catch(() => ({}) as Record<string, ZoneView>));
  useEffect(() => {
    if (dashboards.data && performance.getEntriesByName('hearth:home-rendered').length === 0) performance.mark('hearth:home-rendered');
  }, [dashboards.data !== undefined]);
  const boards = Object.values(dashboards.data ?? {});
  const shown = Object.values(devices.data ?? {}).filter((d) => !d.hidden);
  const byZone = new Map<string, DeviceView[]>();
  for (const d of shown.sort((a, b) => a.name.localeCompare(b.name))) byZone.set(d.zone, [...(byZone.get(d.zone) ?? []), d]);
  const zoneName = (id: string): string => zones.data?.[id]?.name ?? 'Home';
  return (
    <div class="home" data-testid="home">
      <Greeting />
      <Err msg={dashboards.error} />
      {!dashboards.data ? <p class="muted">Loading…</p> : null}
      {dashboards.data && boards.length === 0 && shown.length === 0 ? <EmptyHome /> : null}
      {boards.length > 0 ? (
        <section aria-labelledby="home-dashboards">
          <h2 id="home-dashboards">Dashboards</h2>
          <div class="home-tiles">
            {boards.map((b) => (
              <a key={b.id} class="home-tile" href={`#/dashboards/${seg(b.id)}`} data-testid={`home-dashboard-${b.name}`}>
                <Icon name="dashboard" size={28} />
                <span class="name">{b.name}</span>
                <span class="muted small">{b.columns.reduce((n, c) => n + c.widgets.length, 0)} widgets</span>
              </a>
            ))}
          </div>
        </section>
      ) : null}
      {boards.length > 0 && devices.data && shown.length === 0 ? (
        <section aria-labelledby="home-devices">
          <h2 id="home-devices">Devices</h2>
          <div class="home-tiles">
            <a class="home-tile" href="#/devices" data-testid="home-add-devices">
              <Icon name="devices" size={28} />
              <span class="name">Add your devices</span>
              <span class="muted small">They show here, to switch with one tap.</span>
            </a>
          </div>
        </section>
      ) : null}
      {[...byZone].map(([zone, list]) => (
        <section key={zone} aria-label={zoneName(zone)}>
          <h2>{zoneName(zone)}</h2>
          <div class="home-tiles">
            {list.map((d) => (
              <DeviceButton key={d.id} device={d} />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
