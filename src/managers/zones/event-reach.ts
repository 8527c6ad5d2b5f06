/**
 * Which events a token held to some rooms hears (core/event-reach.ts): a device's (made, changed,
 * a capability's new value) when the device is in its rooms, a zone's when the zone is; nothing
 * else (a device deleted or moved away is gone with its room: it is not told; its rights name no
 * other channel). Any other token hears all its scopes let it.
 */
import type { EventReach } from '../../core/event-reach.js';
import type { DevicesService } from '../devices/service.js';
import type { ZoneReach } from './reach.js';

export function eventReach(reach: ZoneReach, devices: DevicesService): EventReach {
  return (token, manager, event, args) => {
    if (!reach.limited(token)) return true;
    const first = args[0] as { id?: unknown; zone?: unknown; deviceId?: unknown } | undefined;
    if (manager === 'devices') {
      if (event === 'capability.update') {
        const id = first?.deviceId;
        return typeof id === 'string' && devices.has(id) && reach.zone(token, devices.record(id).zone);
      }
      if (event === 'device.create' || event === 'device.update') return typeof first?.zone === 'string' && reach.zone(token, first.zone);
      return false;
    }
    if (manager === 'zones') return (event === 'zone.create' || event === 'zone.update') && typeof first?.id === 'string' && reach.zone(token, first.id);
    return false;
  };
}
