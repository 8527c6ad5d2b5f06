/**
 * Homey's capabilities whose value is a fraction 0..1 shown as a percentage (dim 0.9 is "90 %"):
 * the ones the capability table makes with fraction(). Kept apart, small, so the web app reads
 * a log of one as a person does without loading the whole table (a test holds the two equal).
 */
export const FRACTION_CAPABILITIES: ReadonlySet<string> = new Set([
  'dim',
  'light_hue',
  'light_saturation',
  'light_temperature',
  'fan_speed',
  'target_humidity',
  'target_humidity_min',
  'target_humidity_max',
  'valve_position',
  'pump_setpoint',
  'volume_set',
  'windowcoverings_set',
  'windowcoverings_tilt_set',
]);

/** How a value of log `ownerId` (a capability id, for a device's log) is shown: fractions as percentages. */
export const shownScale = (log: { ownerUri: string; ownerId: string; units: string | null }): number =>
  log.units === '%' && log.ownerUri.startsWith('homey:device:') && FRACTION_CAPABILITIES.has(log.ownerId) ? 100 : 1;
