/**
 * The web app's list of fraction capabilities (shown as percentages) is the capability table's:
 * every capability made as a 0..1 fraction with units %, and no other.
 */
import { expect, it } from 'vitest';
import { SYSTEM_CAPABILITIES } from '../../../src/home/capability-table.js';
import { FRACTION_CAPABILITIES, shownScale } from '../../../src/home/fraction-capabilities.js';

it("holds exactly the table's 0..1 percentages, and scales only a device's log of one", () => {
  const fractions = Object.entries(SYSTEM_CAPABILITIES)
    .filter(([, c]) => c.units === '%' && c.min === 0 && c.max === 1)
    .map(([id]) => id)
    .sort();
  expect([...FRACTION_CAPABILITIES].sort()).toEqual(fractions);
  expect(shownScale({ ownerUri: 'homey:device:abc', ownerId: 'dim', units: '%' })).toBe(100);
  expect(shownScale({ ownerUri: 'homey:device:abc', ownerId: 'measure_battery', units: '%' })).toBe(1);
  expect(shownScale({ ownerUri: 'homey:app:com.example', ownerId: 'dim', units: '%' })).toBe(1);
});
