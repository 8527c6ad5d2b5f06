/**
 * The one rule for a device setting's value against its driver's declaration: what a person sets
 * through the Web API (DevicesService.setSettings) and what an app sets on its own device
 * (Device#setSettings, DevicesService.appSettingsProblem) are held to it alike.
 */
import type { DeviceSettingDef } from '../../apps/manifest/drivers.js';

/** Why `value` cannot be the value of a device setting, or null. */
export function settingProblem(def: DeviceSettingDef, value: unknown): string | null {
  switch (def.type) {
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'takes true or false';
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'takes a number';
      if (def.min !== undefined && value < def.min) return `takes ${def.min} at least`;
      if (def.max !== undefined && value > def.max) return `takes ${def.max} at most`;
      return null;
    case 'dropdown':
    case 'radio':
      return def.values?.some((v) => v.id === value) ? null : `takes one of: ${(def.values ?? []).map((v) => v.id).join(', ')}`;
    default:
      return typeof value === 'string' && value.length <= 10_000 ? null : 'takes a text';
  }
}
