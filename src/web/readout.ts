/**
 * A capability's value as a person reads it, wherever the web app shows one (a device's tile, the
 * home screen): units, choices by their title, a fraction as a percentage, a door open or closed.
 * Free of the browser's globals, so the tests read it as the page does.
 */
import type { DeviceView } from '../managers/devices/views.js';

type Cap = DeviceView['capabilitiesObj'][string];

/** What true and false of a boolean capability say: a door is open or closed, not "yes" or "no". */
function booleanWords(id: string): readonly [string, string] {
  if (id === 'alarm_contact' || id === 'windowcoverings_closed' || id === 'garagedoor_closed')
    return id === 'alarm_contact' ? ['Open', 'Closed'] : ['Closed', 'Open'];
  if (id === 'alarm_motion') return ['Motion', 'No motion'];
  if (id === 'alarm_presence' || id === 'alarm_occupancy') return ['Someone there', 'No one'];
  if (id === 'locked') return ['Locked', 'Unlocked'];
  if (id.startsWith('alarm_')) return ['Alarm', 'OK'];
  return ['yes', 'no'];
}

/** A capability's value as a person reads it (units, choices by title, a fraction as a percentage). */
export function readout(c: Cap): string {
  if (c.value === null) return '–';
  if (c.type === 'boolean') return booleanWords(c.id)[c.value ? 0 : 1];
  if (c.type === 'enum') return c.values?.find((v) => v.id === c.value)?.title ?? String(c.value);
  if (c.type === 'number' && typeof c.value === 'number') {
    const percent = c.units === '%' && c.max === 1;
    const shown = percent ? c.value * 100 : c.value;
    const decimals = percent ? 0 : (c.decimals ?? 2);
    return `${Number(shown.toFixed(decimals))}${c.units ? ` ${c.units}` : ''}`;
  }
  return String(c.value);
}
