/**
 * How a device looks on the home screen, from its view alone: the capability its tile shows, its
 * picture, whether it is lit (in its light's colour, as bright as it is dimmed), its other
 * readings, and what about it is unusual (a door open, an alarm, a low battery, out of reach) in
 * words a family reads. Free of the browser's globals, so the tests read it as the page does.
 */
import type { DeviceView } from '../managers/devices/views.js';
import { readout } from './readout.js';

type Cap = DeviceView['capabilitiesObj'][string];

/** A battery at or below this share is low (Homey's apps use 10-20 %). */
const LOW_BATTERY = 15;
/** Alarms that are part of an ordinary day, not something to put at the top of the home. */
const ORDINARY = new Set(['alarm_motion', 'alarm_presence', 'alarm_occupancy', 'alarm_night', 'alarm_generic']);

export function capsOf(d: DeviceView): Cap[] {
  return d.capabilities.map((id) => d.capabilitiesObj[id]).filter((c): c is Cap => c !== undefined);
}

/**
 * The capability a device's tile shows: on/off when it has it, a door's contact, else the first
 * measurement (a thermostat shows the room's temperature, not its target), else the first reading.
 */
export function mainCap(d: DeviceView): Cap | undefined {
  const caps = capsOf(d);
  const reading = (c: Cap): boolean => c.getable && c.value !== null;
  return (
    caps.find((c) => c.id === 'onoff' && c.setable) ??
    caps.find((c) => c.id === 'alarm_contact' && reading(c)) ??
    caps.find((c) => reading(c) && c.id.startsWith('measure_') && c.id !== 'measure_battery') ??
    caps.find(reading) ??
    caps[0]
  );
}

export interface Look {
  /** The tile switches the device with a tap. */
  readonly switchable: boolean;
  readonly on: boolean;
  /** What the tile says large: On, Off, 20.1 °C, Open, Unavailable. */
  readonly state: string;
  /** How bright it is while on (dim, 0..1), or null. */
  readonly level: number | null;
  /** The colour a lit light shines in (a CSS colour), or null for the home's own accent. */
  readonly tint: string | null;
  /** Its other readings, a few words each ("Humidity 45 %", "Power 12 W"). */
  readonly details: readonly string[];
  /** Its main reading is something to see to (a door open, an alarm). */
  readonly alert: boolean;
}

const num = (c: Cap | undefined): number | null => (c && typeof c.value === 'number' && Number.isFinite(c.value) ? c.value : null);

/** The colour of a lit light: its hue and saturation, or its white from cool to warm. */
function tintOf(d: DeviceView): string | null {
  const o = d.capabilitiesObj;
  const hue = num(o.light_hue);
  const saturation = num(o.light_saturation);
  const temperature = num(o.light_temperature);
  if (o.light_mode?.value === 'temperature' || hue === null) {
    if (temperature === null) return null;
    // 0 is cool (blue-white), 1 warm (amber): Homey's light_temperature.
    const mix = (a: number, b: number): number => Math.round(a + (b - a) * temperature);
    return `rgb(${mix(207, 255)} ${mix(227, 180)} ${mix(255, 107)})`;
  }
  return `hsl(${Math.round(hue * 360)} ${Math.round((saturation ?? 1) * 100)}% 50%)`;
}

export function lookOf(d: DeviceView): Look {
  const cap = mainCap(d);
  const switchable = cap?.id === 'onoff' && cap.setable;
  const on = switchable && cap.value === true;
  const dim = num(d.capabilitiesObj.dim);
  const level = on && dim !== null ? dim : null;
  const alert = d.available && cap !== undefined && cap.type === 'boolean' && cap.value === true && cap.id.startsWith('alarm_') && !ORDINARY.has(cap.id);
  let state = '';
  if (!d.available) state = 'Unavailable';
  else if (switchable) state = on ? (level !== null && level < 1 ? `On · ${Math.round(level * 100)} %` : 'On') : 'Off';
  else if (cap) state = readout(cap);
  const details = capsOf(d)
    .filter((c) => c !== cap && c.getable && c.value !== null && c.id !== 'dim' && !c.id.startsWith('light_') && c.id !== 'measure_battery')
    .filter((c) => c.id.startsWith('measure_') || c.id.startsWith('meter_') || c.id === 'target_temperature')
    .slice(0, 2)
    .map((c) => `${c.title} ${readout(c)}`);
  return { switchable, on, state, level, tint: on ? tintOf(d) : null, details, alert };
}

/** Where a tile finds its picture: the device's own icon, else its driver's (the hub serves both from the app). */
export function iconUrl(d: DeviceView): string | null {
  const appId = d.ownerUri.startsWith('homey:app:') ? d.ownerUri.slice('homey:app:'.length) : null;
  const prefix = appId ? `homey:app:${appId}:` : null;
  if (!appId || !prefix || !d.driverId.startsWith(prefix)) return null;
  const base = `/app/${encodeURIComponent(appId)}/drivers/${encodeURIComponent(d.driverId.slice(prefix.length))}`;
  if (d.icon) return `${base}/assets/${d.icon.split('/').filter(Boolean).map(encodeURIComponent).join('/')}`;
  return `${base}/icon`;
}

/** Something about a device a family should see first, with where to see to it. */
export interface Unusual {
  readonly key: string;
  readonly text: string;
  readonly href: string;
}

/** What is unusual about a device: out of reach, a door open, an alarm, a low battery. */
export function unusualOf(d: DeviceView): Unusual[] {
  const href = '#/devices';
  if (!d.available) return [{ key: `${d.id}:unavailable`, text: `${d.name} is unavailable${d.unavailableMessage ? `: ${d.unavailableMessage}` : ''}`, href }];
  const out: Unusual[] = [];
  for (const c of capsOf(d)) {
    if (c.type !== 'boolean' || c.value !== true || !c.id.startsWith('alarm_') || ORDINARY.has(c.id)) continue;
    const text =
      c.id === 'alarm_contact' ? `${d.name} is open` : c.id === 'alarm_battery' ? `${d.name}: the battery is low` : `${d.name}: ${c.title.toLowerCase()}`;
    out.push({ key: `${d.id}:${c.id}`, text, href });
  }
  const battery = num(d.capabilitiesObj.measure_battery);
  if (battery !== null && battery <= LOW_BATTERY && d.capabilitiesObj.alarm_battery?.value !== true)
    out.push({ key: `${d.id}:battery`, text: `${d.name}: the battery is low (${Math.round(battery)} %)`, href });
  return out;
}
