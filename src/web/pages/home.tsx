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
import { seg } from '../api.js';
import { call } from '../client.js';
import { Icon } from '../icons.js';
import { useLiveDevices } from '../live-devices.js';
import { Moods, SaveMood } from '../moods.js';
import { useMe } from '../people.js';
import { HomePresence } from '../presence.js';
import { Err, useAction, useHash, useLiveCollection, useLoad } from '../ui.js';
import { HomeState, RoomState, Rooms, useRoomOrder, zoneAndInside } from './rooms.js';
import { TimelineLink } from './timeline.js';

/** "Good evening" and the date and time, moved on each minute; the timeline's link unless `guest`. */
function Greeting({ guest = false }: { guest?: boolean }): JSX.Element {
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
      {guest ? null : <TimelineLink />}
    </header>
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
  const me = useMe();
  if (!me.data && !me.error) return <p class="muted">Loading…</p>;
  return me.data?.role === 'guest' ? <GuestHome /> : <FamilyHome />;
}

/**
 * A guest's home: their rooms' devices and their own presence, nothing that is not theirs to see
 * (no dashboards, no timeline, no family: each would be a refusal, and its channel a socket the
 * hub refuses again and again).
 */
function GuestHome(): JSX.Element {
  const devices = useLiveDevices(true);
  const zones = useLoad(() => call('zones', 'getZones').catch(() => ({}) as Record<string, ZoneView>));
  const shown = Object.values(devices.data ?? {}).filter((d) => !d.hidden);
  const room = /^#\/home\/room\/([^/?]+)/.exec(useHash())?.[1];
  if (room !== undefined) return <RoomPage id={decodeURIComponent(room)} devices={shown} zones={zones.data} guest />;
  return (
    <div class="home" data-testid="home">
      <Greeting guest />
      <HomePresence family={false} />
      <Err msg={devices.error} />
      <Rooms devices={shown} zones={zones.data} linked />
    </div>
  );
}

function FamilyHome(): JSX.Element {
  const dashboards = useLoad(() => call('dashboards', 'getDashboards'));
  useLiveCollection('dashboards', 'dashboard', dashboards);
  // A sign-in that may not read devices or zones sees the dashboards alone.
  const devices = useLiveDevices(true);
  const zones = useLoad(() => call('zones', 'getZones').catch(() => ({}) as Record<string, ZoneView>));
  // Marked once the dashboards and the devices are drawn (the web bench measures to it).
  const drawn = dashboards.data !== undefined && (devices.data !== undefined || devices.error !== undefined);
  useEffect(() => {
    if (drawn && performance.getEntriesByName('hearth:home-rendered').length === 0) performance.mark('hearth:home-rendered');
  }, [drawn]);
  // The family's order of the rooms, and whether they are arranging it now.
  const order = useRoomOrder();
  const [arranging, setArranging] = useState(false);
  const arrange = useAction();
  const move = (rooms: readonly string[], zone: string, by: -1 | 1): void => {
    const next = [...rooms];
    const at = next.indexOf(zone);
    next.splice(at, 1);
    next.splice(at + by, 0, zone);
    order.set(() => next);
    void arrange.run(() => call('zones', 'setOptionRoomOrder', { body: { value: next } }));
  };
  const boards = Object.values(dashboards.data ?? {});
  const shown = Object.values(devices.data ?? {}).filter((d) => !d.hidden);
  const room = /^#\/home\/room\/([^/?]+)/.exec(useHash())?.[1];
  if (room !== undefined) return <RoomPage id={decodeURIComponent(room)} devices={shown} zones={zones.data} />;
  return (
    <div class="home" data-testid="home">
      <Greeting />
      <HomePresence family />
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
      {shown.length > 1 ? (
        <p>
          <button type="button" aria-pressed={arranging} data-testid="arrange-rooms" onClick={() => setArranging(!arranging)}>
            {arranging ? 'Done arranging' : 'Arrange rooms'}
          </button>
        </p>
      ) : null}
      <Err msg={arrange.error} />
      <Moods zones={zones.data} />
      <Rooms devices={shown} zones={zones.data} linked order={order.data ?? []} {...(arranging ? { move } : {})} />
    </div>
  );
}

/** A room's own page: its devices and those of the rooms inside it, with the way back to the whole home. */
function RoomPage({
  id,
  devices,
  zones,
  guest = false,
}: {
  id: string;
  devices: readonly DeviceView[];
  zones: Readonly<Record<string, ZoneView>> | undefined;
  /** A guest's: no moods (not theirs to see), nothing to save. */
  guest?: boolean;
}): JSX.Element {
  const inside = zones ? zoneAndInside(zones, id) : new Set([id]);
  const here = devices.filter((d) => inside.has(d.zone));
  const name = zones?.[id]?.name;
  return (
    <div class="home" data-testid="room">
      <p>
        <a href="#/home">
          <Icon name="left" /> All rooms
        </a>
      </p>
      <h1>{name ?? (zones ? 'This room is gone' : 'Loading…')}</h1>
      {zones && !name ? <p class="muted">It was deleted or renamed away: go back to all rooms.</p> : null}
      {name && here.length === 0 ? <p class="muted">No devices here yet: pair them on the Devices page and put them in {name}.</p> : null}
      <RoomState devices={here} />
      {guest ? null : <Moods zone={id} />}
      <Rooms devices={here} zones={zones} here={id} />
      {guest || !name ? null : <SaveMood zone={id} />}
    </div>
  );
}
