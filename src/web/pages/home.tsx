/**
 * Home: the first screen, made for a wall tablet or a phone in a hand. The time of day, the
 * home's dashboards as large tiles, and its devices by zone, each a large button that switches
 * it (a device with on/off) or shows what it measures (a tap opens Devices, with all its controls).
 * An empty home says what to do next, in three large steps. Everything stays live.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DeviceView } from '../../managers/devices/views.js';
import type { ZoneView } from '../../managers/zones/contract.js';
import { describe, seg } from '../api.js';
import { call } from '../client.js';
import { DeviceIcon } from '../device-icon.js';
import { lookOf, type Unusual, unusualOf } from '../device-look.js';
import { Icon } from '../icons.js';
import { useLiveDevices } from '../live-devices.js';
import type { App } from '../types.js';
import { Err, useLiveCollection, useLoad } from '../ui.js';
import { DeviceTile } from './device-tile.js';

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
 * A device's full controls in a sheet over the home (a modal dialog: Escape or Close shuts it,
 * focus stays inside), live as the tile is.
 */
function DeviceSheet({ device, onClose }: { device: DeviceView; onClose: () => void }): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} class="sheet" aria-label={device.name} data-testid="device-sheet" onClose={onClose}>
      <DeviceTile
        device={device}
        menu={
          <button type="button" class="ghost" aria-label="Close" onClick={() => ref.current?.close()}>
            <Icon name="close" />
          </button>
        }
      />
    </dialog>
  );
}

function DeviceButton({ device }: { device: DeviceView }): JSX.Element {
  const [error, setError] = useState<string | null>(null);
  const [sheet, setSheet] = useState(false);
  const look = lookOf(device);
  const classes = ['home-device', look.on ? 'on' : '', look.alert ? 'alert' : '', device.available ? '' : 'unavailable'].filter(Boolean).join(' ');
  // A lit light in its own colour; its brightness as a bar along the tile's foot.
  const style = { ...(look.tint ? { '--tint': look.tint } : {}), ...(look.level !== null ? { '--level': String(look.level) } : {}) };
  const body = (
    <>
      <DeviceIcon device={device} />
      <span class="name">{device.name}</span>
      <span class="state" data-testid="home-device-state">
        {look.state}
      </span>
      {look.details.length > 0 ? <span class="details">{look.details.join(' · ')}</span> : null}
      {!device.available && device.unavailableMessage ? <span class="details reason">{device.unavailableMessage}</span> : null}
      {look.level !== null ? <span class="level" aria-hidden="true" /> : null}
    </>
  );
  return (
    <div class={classes} style={style} data-testid={`home-device-${device.name}`}>
      {look.switchable ? (
        <button
          type="button"
          aria-pressed={look.on}
          disabled={!device.available}
          onClick={() => {
            setError(null);
            call('devices', 'setCapabilityValue', { params: { deviceId: device.id, capabilityId: 'onoff' }, body: { value: !look.on } }).catch((e: unknown) =>
              setError(describe(e)),
            );
          }}
        >
          {body}
        </button>
      ) : (
        <button type="button" aria-haspopup="dialog" onClick={() => setSheet(true)}>
          {body}
        </button>
      )}
      {look.switchable ? (
        // The second tap target of a switch: its brightness, colour and the rest.
        <button type="button" class="more" aria-haspopup="dialog" aria-label={`All controls of ${device.name}`} onClick={() => setSheet(true)}>
          <Icon name="menu" />
        </button>
      ) : null}
      {sheet ? <DeviceSheet device={device} onClose={() => setSheet(false)} /> : null}
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

/**
 * What is unusual in the home, one line each with the way to see to it: a door open, an alarm, a
 * battery low, a device out of reach, an app that stopped by itself, a backup that failed. What a
 * sign-in may not read is left out, not an error.
 */
export function HomeState({ devices }: { devices: readonly DeviceView[] }): JSX.Element | null {
  const apps = useLoad(() => call('apps', 'getApps').catch(() => ({}) as Record<string, App>));
  useLiveCollection('apps', 'app', apps);
  const backup = useLoad(() => call('backup', 'getState').catch(() => null));
  const lines: Unusual[] = devices.flatMap(unusualOf);
  for (const app of Object.values(apps.data ?? {})) {
    if (app.enabled && app.crashed && app.state !== 'running')
      lines.push({ key: `app:${app.id}`, text: `The app ${app.name} stopped${app.crashedMessage ? `: ${app.crashedMessage}` : ''}`, href: '#/apps' });
  }
  const failed = backup.data?.lastError;
  if (failed && (!backup.data?.lastSuccessfulBackup || backup.data.lastSuccessfulBackup < failed.at))
    lines.push({ key: 'backup', text: `The last backup failed: ${failed.message}`, href: '#/system' });
  if (lines.length === 0) return null;
  return (
    <section class="home-state" aria-labelledby="home-state" data-testid="home-state">
      <h2 id="home-state">Needs a look</h2>
      <ul>
        {lines.map((l) => (
          <li key={l.key}>
            <a href={l.href}>{l.text}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The home's devices room by room, each room a section of tiles, devices by name. */
export function Rooms({ devices, zones }: { devices: readonly DeviceView[]; zones: Readonly<Record<string, ZoneView>> | undefined }): JSX.Element {
  const byZone = new Map<string, DeviceView[]>();
  for (const d of [...devices].sort((a, b) => a.name.localeCompare(b.name))) byZone.set(d.zone, [...(byZone.get(d.zone) ?? []), d]);
  const zoneName = (id: string): string => zones?.[id]?.name ?? 'Home';
  return (
    <>
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
    </>
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
  return (
    <div class="home" data-testid="home">
      <Greeting />
      {devices.data ? <HomeState devices={shown} /> : null}
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
      <Rooms devices={shown} zones={zones.data} />
    </div>
  );
}
