/**
 * The home's rooms as tiles, shared by the home, a room's page and the wall: each device a tile
 * that draws it as a family reads it (device-look.ts) and switches it with a tap, its full
 * controls in a sheet, and what needs a look in the home, first.
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
import type { App } from '../types.js';
import { type Loaded, useLiveCollection, useLoad } from '../ui.js';
import { DeviceTile } from './device-tile.js';

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

/** What needs a look, one line each: a link to where to see to it, or words alone (the wall administers nothing). */
function NeedsALook({ lines, links }: { lines: readonly Unusual[]; links: boolean }): JSX.Element | null {
  if (lines.length === 0) return null;
  return (
    <section class="home-state" aria-labelledby="home-state" data-testid="home-state">
      <h2 id="home-state">Needs a look</h2>
      <ul>
        {lines.map((l) => (
          <li key={l.key}>{links ? <a href={l.href}>{l.text}</a> : <span>{l.text}</span>}</li>
        ))}
      </ul>
    </section>
  );
}

/**
 * What is unusual in the home: a door open, an alarm, a battery low, a device out of reach, an
 * app that stopped by itself, a backup that failed. What a sign-in may not read is left out, not
 * an error.
 */
export function HomeState({ devices, links = true }: { devices: readonly DeviceView[]; links?: boolean }): JSX.Element | null {
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
  return <NeedsALook lines={lines} links={links} />;
}

/** What is unusual in a room: its devices' alone (the apps and backups are the home's, and are not asked for). */
export function RoomState({ devices }: { devices: readonly DeviceView[] }): JSX.Element | null {
  return <NeedsALook lines={devices.flatMap(unusualOf)} links />;
}

/** The family's order of the rooms (the zones manager's option roomOrder); empty while unset or unreadable. */
export function useRoomOrder(): Loaded<string[]> {
  return useLoad(() =>
    call('zones', 'getOptionRoomOrder').then(
      (o) => (Array.isArray(o.value) ? o.value.filter((v): v is string => typeof v === 'string') : []),
      () => [],
    ),
  );
}

/** A zone and every zone inside it. */
export function zoneAndInside(zones: Readonly<Record<string, ZoneView>>, id: string): Set<string> {
  const inside = new Set([id]);
  // Each pass takes in the children of what is in; a tree is done in as many passes as it is deep (bounded by its size).
  for (let grew = true, passes = 0; grew && passes < Object.keys(zones).length; passes++) {
    grew = false;
    for (const z of Object.values(zones)) {
      if (z.parent !== null && inside.has(z.parent) && !inside.has(z.id)) {
        inside.add(z.id);
        grew = true;
      }
    }
  }
  return inside;
}

/**
 * The home's devices room by room, each room a section of tiles, devices by name. With `linked`,
 * each room's name opens its own page (#/home/room/<zone>).
 */
export function Rooms({
  devices,
  zones,
  linked = false,
  here,
  order = [],
  move,
}: {
  devices: readonly DeviceView[];
  zones: Readonly<Record<string, ZoneView>> | undefined;
  linked?: boolean;
  /** The room whose page this is: its own devices come first, under no second heading. */
  here?: string;
  /** The family's order of the rooms (zone ids); a room not in it follows, by name. */
  order?: readonly string[];
  /** While the family arranges the rooms: moves one a place up (-1) or down (1). */
  move?: (rooms: readonly string[], zone: string, by: -1 | 1) => void;
}): JSX.Element {
  const byZone = new Map<string, DeviceView[]>(here === undefined ? [] : [[here, []]]);
  for (const d of [...devices].sort((a, b) => a.name.localeCompare(b.name))) byZone.set(d.zone, [...(byZone.get(d.zone) ?? []), d]);
  const zoneName = (id: string): string => zones?.[id]?.name ?? 'Home';
  const rank = (id: string): number => (id === here ? -1 : order.includes(id) ? order.indexOf(id) : order.length);
  const rooms = [...byZone].filter(([, list]) => list.length > 0).sort(([a], [b]) => rank(a) - rank(b) || zoneName(a).localeCompare(zoneName(b)));
  const ids = rooms.map(([zone]) => zone);
  return (
    <>
      {rooms.map(([zone, list], i) => (
        <section key={zone} aria-label={zoneName(zone)}>
          {zone === here ? null : (
            <h2 class="room-head">
              {linked ? <a href={`#/home/room/${seg(zone)}`}>{zoneName(zone)}</a> : zoneName(zone)}
              {move ? (
                <span class="inline">
                  <button type="button" class="ghost" aria-label={`Move ${zoneName(zone)} up`} disabled={i === 0} onClick={() => move(ids, zone, -1)}>
                    <Icon name="up" />
                  </button>
                  <button
                    type="button"
                    class="ghost"
                    aria-label={`Move ${zoneName(zone)} down`}
                    disabled={i === rooms.length - 1}
                    onClick={() => move(ids, zone, 1)}
                  >
                    <Icon name="down" />
                  </button>
                </span>
              ) : null}
            </h2>
          )}
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
