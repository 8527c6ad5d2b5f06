/**
 * Homey's realtime also speaks per item: a client that holds a device subscribes to
 * `homey:device:<id>` and hears `capability` (each new value, which homey-api's
 * `device.makeCapabilityInstance` listens to), `update` (the device as it is now) and `delete`.
 * This is the table from a hub event to the item event it also is.
 */
import type { ManagerEvent } from '../../managers/bus.js';

/** Item kinds a client may subscribe to, with the manager whose events (and event scope) they are. */
export const ITEM_MANAGERS: Readonly<Record<string, string>> = { device: 'devices' };

export function itemEvent(e: ManagerEvent<'devices'>): { uri: string; event: string; args: unknown[] } | null {
  if (e.event === 'capability.update') {
    const { deviceId, ...rest } = e.args[0];
    return { uri: `homey:device:${deviceId}`, event: 'capability', args: [rest] };
  }
  if (e.event === 'device.update' || e.event === 'device.delete') {
    const [device] = e.args;
    return { uri: `homey:device:${device.id}`, event: e.event === 'device.update' ? 'update' : 'delete', args: [device] };
  }
  return null;
}
