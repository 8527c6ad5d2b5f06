/**
 * What hearth knows of a capability: its value's type, range or choices, whether it can be read
 * and set, its units, and how the web app shows it. Homey's system capabilities are in
 * capability-table.ts (written from Homey's public capability reference); an app's own
 * capabilities come from its app.json in the same shape. Imports no Node module: the web app
 * uses it too.
 */

/** How the web app shows a capability (Homey's `uiComponent`); null: not shown as a control. */
export type CapabilityUi = 'toggle' | 'slider' | 'sensor' | 'thermostat' | 'media' | 'color' | 'battery' | 'picker' | 'ternary' | 'button' | null;

export interface CapabilityValue {
  id: string;
  title: string;
}

export interface Capability {
  type: 'boolean' | 'number' | 'string' | 'enum';
  /** English title. */
  title: string;
  getable: boolean;
  setable: boolean;
  /** Units shown after a number (e.g. `°C`, `W`, `%`), or null. */
  units: string | null;
  /** Numbers: the range and step a value must keep to (null: no bound). */
  min: number | null;
  max: number | null;
  step: number | null;
  decimals: number | null;
  /** Enums: the values it may take. */
  values: readonly CapabilityValue[] | null;
  ui: CapabilityUi;
  /** Whether Homey keeps an insights log of it by default. */
  insights: boolean;
}
