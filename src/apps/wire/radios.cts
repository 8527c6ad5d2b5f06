/**
 * Which drivers need a radio hearth has not (Zigbee, Z-Wave, 433/868 MHz, infrared, Bluetooth,
 * Matter, Thread): the manifest's checks and the app's drivers manager decide by the same rule.
 * CommonJS and free of dependencies, so the SDK in the app's process can require it.
 */

/** Homey's wireless kinds hearth has no radio for. */
export const RADIOS = ['zigbee', 'zwave', 'rf433', 'rf868', 'infrared', 'ble', 'matter', 'thread'] as const;

/** The radio a driver needs (by its `connectivity`, or a radio section such as `zigbee`), or null. */
export function radioOf(driver: { connectivity?: unknown; [key: string]: unknown }): string | null {
  const connectivity = Array.isArray(driver.connectivity) ? driver.connectivity : typeof driver.connectivity === 'string' ? [driver.connectivity] : [];
  for (const radio of RADIOS) if (connectivity.includes(radio) || driver[radio] !== undefined) return radio;
  return null;
}
