/**
 * The SDK calls a device's app makes about it (Device#setCapabilityValue, setStoreValue,
 * setSettings, setAvailable, ...), served for the devices manager. An app reaches its own
 * devices only: a device of another app is "not found", as if it did not exist.
 */
import type { CallerApp, SdkRouter } from '../../apps/host/router.js';
import { HearthError, notFound } from '../../core/errors.js';
import { valueProblem } from '../../home/capability.js';
import { type DeviceRecord, LIMITS } from './device-record.js';
import type { DevicesService } from './service.js';

export function serveDevices(router: SdkRouter, devices: DevicesService): Array<() => void> {
  const own = (app: CallerApp, id: string): DeviceRecord => {
    const r = devices.has(id) ? devices.record(id) : null;
    if (!r || r.appId !== app.id) throw notFound(`the app has no device '${id}'`);
    return r;
  };
  const change = async (app: CallerApp, id: string, mutate: (r: DeviceRecord) => void): Promise<null> => {
    own(app, id);
    await devices.change(id, mutate);
    return null;
  };
  return [
    router.handle('drivers.devices', (app) => devices.ofApp(app.id).map((r) => devices.stateOf(r))),
    router.handle('device.setCapabilityValue', (app, { id, capabilityId, value }) => {
      const record = own(app, id);
      const facts = devices.facts(record, capabilityId);
      const problem = valueProblem(facts, value);
      if (problem) throw new HearthError('invalid_parameter', `${capabilityId} of '${record.name}': ${problem}`);
      // Reported by the device's own app (the lamp switched at its wall switch, a sensor's reading).
      devices.report(record, capabilityId, value, facts, undefined, { kind: 'app', id: app.id, name: app.id });
      return null;
    }),
    router.handle('device.setStoreValue', (app, { id, key, value }) =>
      change(app, id, (r) => {
        r.store[key] = value === undefined ? null : value;
      }),
    ),
    router.handle('device.unsetStoreValue', (app, { id, key }) =>
      change(app, id, (r) => {
        delete r.store[key];
      }),
    ),
    router.handle('device.setSettings', (app, { id, settings }) => {
      const problem = devices.appSettingsProblem(own(app, id), settings);
      if (problem) throw new HearthError('invalid_parameter', problem);
      return change(app, id, (r) => {
        Object.assign(r.settings, settings);
      });
    }),
    router.handle('device.setAvailable', (app, { id, available, message }) =>
      change(app, id, (r) => {
        r.available = available;
        r.unavailableMessage = available ? null : message;
      }),
    ),
    router.handle('device.setWarning', (app, { id, message }) =>
      change(app, id, (r) => {
        r.warningMessage = message;
      }),
    ),
    router.handle('device.addCapability', async (app, { id, capabilityId }) => {
      const record = own(app, id);
      if (record.capabilities.includes(capabilityId)) return null;
      if (record.capabilities.length >= LIMITS.capabilities) throw new HearthError('conflict', `a device has ${LIMITS.capabilities} capabilities at most`);
      await devices.change(id, (r) => {
        r.capabilities.push(capabilityId);
      });
      devices.facts(devices.record(id), capabilityId); // says so in the app's log when hearth does not know it
      return null;
    }),
    router.handle('device.removeCapability', async (app, { id, capabilityId }) => {
      await change(app, id, (r) => {
        r.capabilities = r.capabilities.filter((c) => c !== capabilityId);
        delete r.capabilitiesOptions[capabilityId];
      });
      devices.values.forget(id, capabilityId);
      return null;
    }),
    router.handle('device.setCapabilityOptions', (app, { id, capabilityId, options }) =>
      change(app, id, (r) => {
        if (!r.capabilities.includes(capabilityId)) throw notFound(`device '${r.name}' has no capability '${capabilityId}'`);
        r.capabilitiesOptions[capabilityId] = options;
      }),
    ),
    router.handle('device.setClass', (app, { id, class: deviceClass }) =>
      change(app, id, (r) => {
        r.class = deviceClass;
      }),
    ),
    router.handle('device.setEnergy', (app, { id, energy }) =>
      change(app, id, (r) => {
        r.energy = energy;
      }),
    ),
  ];
}
