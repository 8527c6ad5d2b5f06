/**
 * Checks a settings value against the app's declaration of that setting in app.json, so a
 * client cannot store a word in a number setting or an option a dropdown does not offer.
 * Settings the manifest does not declare are free-form JSON (apps use them as storage).
 */
import type { SettingDefinition } from './manifest.js';

/** A sentence saying what is wrong with `value`, or null when it fits the declaration. */
export function settingProblem(def: SettingDefinition, value: unknown): string | null {
  if (value === null) return null; // null clears a declared setting to "no value"
  switch (def.type) {
    case 'text':
      return typeof value === 'string' ? null : `setting '${def.id}' is text: send a string`;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `setting '${def.id}' is a number`;
      if (def.min !== undefined && value < def.min) return `setting '${def.id}' must be at least ${def.min}`;
      if (def.max !== undefined && value > def.max) return `setting '${def.id}' must be at most ${def.max}`;
      return null;
    case 'checkbox':
      return typeof value === 'boolean' ? null : `setting '${def.id}' is a checkbox: send true or false`;
    case 'dropdown':
      return def.values.some((v) => v.id === value)
        ? null
        : `setting '${def.id}' must be one of: ${def.values.map((v) => v.id).join(', ')}`;
    case 'autocomplete':
      return null; // whatever the app's autocomplete offered (an object with id and name, usually)
  }
}
