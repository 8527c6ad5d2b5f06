/**
 * The wall: a screen for a tablet on the wall (#/wall, where a wall tablet's sign-in link lands):
 * a large clock, what needs a look, and the home's rooms with their tiles, with nothing to
 * administer. In its night hours (its address's `night`) it dims to a clock alone, and a touch
 * (or a key) wakes it for a minute. It keeps its sign-in, and follows the hub through a restart:
 * its sockets reconnect and load again by themselves.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ZoneView } from '../../managers/zones/contract.js';
import { call } from '../client.js';
import { useLiveDevices } from '../live-devices.js';
import { isNight, nightOf } from '../night.js';
import { useLoad } from '../ui.js';
import { HomeState, Rooms, useRoomOrder } from './rooms.js';

/** How long a touch wakes the night view. */
const AWAKE_MS = 60_000;

/** The time now, moved on every few seconds. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = window.setInterval(() => setNow(new Date()), 5_000);
    return () => window.clearInterval(t);
  }, []);
  return now;
}

function Clock({ now }: { now: Date }): JSX.Element {
  return (
    <div class="wall-clock">
      <time dateTime={now.toISOString()} data-testid="wall-time">
        {now.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}
      </time>
      <span>{now.toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long' })}</span>
    </div>
  );
}

export function WallPage(): JSX.Element {
  const now = useNow();
  const devices = useLiveDevices(true);
  const zones = useLoad(() => call('zones', 'getZones').catch(() => ({}) as Record<string, ZoneView>));
  const order = useRoomOrder();
  const [awakeUntil, setAwakeUntil] = useState(0);
  const night = isNight(nightOf(location.hash), now) && now.getTime() >= awakeUntil;
  // Any touch while awake at night keeps it awake a minute more.
  const touched = (): void => setAwakeUntil(Date.now() + AWAKE_MS);
  if (night) {
    return (
      <main class="wall night" data-testid="wall-night">
        <button type="button" class="wall-wake" aria-label="Wake the screen" onClick={touched}>
          <Clock now={now} />
        </button>
      </main>
    );
  }
  const shown = Object.values(devices.data ?? {}).filter((d) => !d.hidden);
  return (
    <main class="wall home" data-testid="wall" onPointerDown={awakeUntil > 0 ? touched : undefined}>
      <Clock now={now} />
      {devices.data ? <HomeState devices={shown} links={false} /> : <p class="muted">Loading…</p>}
      <Rooms devices={shown} zones={zones.data} order={order.data ?? []} />
    </main>
  );
}
