/**
 * The home's devices, live: loaded once, then kept current by the devices events (a device
 * added, changed or deleted, and each capability value as it is reported or set). Used by the
 * Devices page and by dashboards (the device tile widget, and the devices of widgets' pickers).
 */
import { useEffect } from 'preact/hooks';
import type { DeviceView } from '../managers/devices/views.js';
import { call, subscribe } from './client.js';
import { type Loaded, useLiveCollection, useLoad } from './ui.js';

export type { DeviceView } from '../managers/devices/views.js';

/** `optional`: a token that cannot read devices sees none, rather than an error. */
export function useLiveDevices(optional = false): Loaded<Record<string, DeviceView>> {
  const devices = useLoad<Record<string, DeviceView>>(() =>
    optional ? call('devices', 'getDevices').catch(() => ({}) as Record<string, DeviceView>) : call('devices', 'getDevices'),
  );
  useLiveCollection('devices', 'device', devices);
  useEffect(
    () =>
      subscribe('devices', (e) => {
        if (e.name !== 'capability.update') return;
        const { deviceId, capabilityId, value, transactionTime } = e.args[0];
        devices.set((prev) => {
          const d = prev?.[deviceId];
          const cap = d?.capabilitiesObj[capabilityId];
          if (!prev || !d || !cap) return prev;
          return { ...prev, [deviceId]: { ...d, capabilitiesObj: { ...d.capabilitiesObj, [capabilityId]: { ...cap, value, lastUpdated: transactionTime } } } };
        });
      }),
    [],
  );
  return devices;
}

/** The id of the app a device belongs to (its `homey:app:<appId>` owner). */
export const appOf = (d: DeviceView): string => d.ownerUri.replace(/^homey:app:/, '');
