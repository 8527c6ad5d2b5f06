/**
 * The devices manager as the device cards and the devices' tokens see it: a device's name,
 * capabilities, their facts and values, and setting one (through the device's app).
 */
import type { Actor } from '../../core/actor.js';
import type { Capability } from '../../home/capability.js';
import type { DevicesService } from '../devices/service.js';
import type { DeviceTokenSource } from '../flowtoken/registry.js';
import type { DeviceSide } from './device-cards.js';

/**
 * `causes` holds, while a flow sets a capability, the run that set it (by `<device>\u0000<capability>`):
 * the capability's change the set brings is caused by that run.
 */
export function deviceSide(devices: DevicesService, causes: Map<string, string>, actorOf: (runId: string) => Actor | null): DeviceSide & DeviceTokenSource {
  const facts = (id: string, capabilityId: string): Capability | null => {
    try {
      return devices.facts(devices.record(id), capabilityId);
    } catch {
      return null;
    }
  };
  return {
    ids: () => devices.records().map((r) => r.id),
    has: (id) => devices.has(id),
    name: (id) => devices.record(id).name,
    capabilities: (id) => [...devices.record(id).capabilities],
    facts,
    value: (id, capabilityId) => (facts(id, capabilityId) ? devices.getCapabilityValue(id, capabilityId) : null),
    set: async (id, capabilityId, value, runId) => {
      const key = `${id}\u0000${capabilityId}`;
      causes.set(key, runId);
      try {
        // Who did it: the flow the run belongs to, or whoever ran the card by hand.
        await devices.setCapabilityValue(id, capabilityId, value, {}, undefined, actorOf(runId));
      } finally {
        if (causes.get(key) === runId) causes.delete(key);
      }
    },
  };
}
