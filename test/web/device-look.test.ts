/**
 * How a device looks on the home (src/web/device-look.ts), for what the Chromium test of the home
 * does not set up: a warm white light, a low battery with and without its alarm, a smoke alarm,
 * ordinary motion, and the icon of a device with its own.
 */
import { expect, it } from 'vitest';
import type { DeviceView } from '../../src/managers/devices/views.js';
import { iconUrl, lookOf, unusualOf } from '../../src/web/device-look.js';

type Cap = DeviceView['capabilitiesObj'][string];
const cap = (id: string, c: Partial<Cap>): Cap =>
  ({ id, type: 'number', title: id, value: null, units: null, decimals: null, min: null, max: null, values: null, getable: true, setable: false, ...c }) as Cap;
const device = (caps: Cap[], d: Partial<DeviceView> = {}): DeviceView =>
  ({
    id: 'd1',
    name: 'Hall',
    driverId: 'homey:app:com.example:my lamp',
    ownerUri: 'homey:app:com.example',
    class: 'light',
    virtualClass: null,
    available: true,
    unavailableMessage: null,
    icon: null,
    capabilities: caps.map((c) => c.id),
    capabilitiesObj: Object.fromEntries(caps.map((c) => [c.id, c])),
    ...d,
  }) as DeviceView;

it('lights a white light from cool to warm, and says its brightness', () => {
  const warm = device([
    cap('onoff', { type: 'boolean', value: true, setable: true }),
    cap('dim', { value: 0.25, units: '%', max: 1, setable: true }),
    cap('light_temperature', { value: 1 }),
    cap('light_mode', { type: 'enum', value: 'temperature' }),
  ]);
  expect(lookOf(warm)).toMatchObject({ switchable: true, on: true, state: 'On · 25 %', level: 0.25, tint: 'rgb(255 180 107)', alert: false });
  const off = device([cap('onoff', { type: 'boolean', value: false, setable: true }), cap('dim', { value: 0.25 })]);
  expect(lookOf(off)).toMatchObject({ on: false, state: 'Off', level: null, tint: null });
});

it('puts what needs a look first: an alarm, a low battery once, never ordinary motion', () => {
  const smoke = device([cap('alarm_smoke', { type: 'boolean', value: true, title: 'Smoke alarm' }), cap('measure_battery', { value: 9 })]);
  expect(unusualOf(smoke).map((u) => u.text)).toEqual(['Hall: smoke alarm', 'Hall: the battery is low (9 %)']);
  expect(lookOf(smoke).alert).toBe(true);
  const alarmed = device([cap('alarm_battery', { type: 'boolean', value: true }), cap('measure_battery', { value: 9 })]);
  expect(unusualOf(alarmed).map((u) => u.text)).toEqual(['Hall: the battery is low']);
  const walkedPast = device([cap('alarm_motion', { type: 'boolean', value: true }), cap('measure_battery', { value: 80 })]);
  expect(unusualOf(walkedPast)).toEqual([]);
  expect(lookOf(walkedPast).alert).toBe(false);
});

it("finds a device's picture: its own from its driver's assets, else its driver's icon, encoded", () => {
  expect(iconUrl(device([]))).toBe('/app/com.example/drivers/my%20lamp/icon');
  expect(iconUrl(device([], { icon: '/icons/bulb #2.svg' }))).toBe('/app/com.example/drivers/my%20lamp/assets/icons/bulb%20%232.svg');
  expect(iconUrl(device([], { ownerUri: 'homey:manager:devices' }))).toBeNull();
});
