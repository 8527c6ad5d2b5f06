/**
 * What a device's value reads as on its tile and the home screen: a door open or closed, motion,
 * a fraction as a percentage, a choice by its title (a door sensor's home tile said "no").
 */
import { expect, it } from 'vitest';
import type { DeviceView } from '../../src/managers/devices/views.js';
import { readout } from '../../src/web/readout.js';

type Cap = DeviceView['capabilitiesObj'][string];
const cap = (c: Partial<Cap>): Cap =>
  ({ id: 'x', type: 'number', title: 'X', value: null, units: null, decimals: null, min: null, max: null, values: null, ...c }) as Cap;

it('reads a value as a person does', () => {
  expect(readout(cap({ id: 'alarm_contact', type: 'boolean', value: false }))).toBe('Closed');
  expect(readout(cap({ id: 'alarm_contact', type: 'boolean', value: true }))).toBe('Open');
  expect(readout(cap({ id: 'alarm_motion', type: 'boolean', value: true }))).toBe('Motion');
  expect(readout(cap({ id: 'alarm_smoke', type: 'boolean', value: false }))).toBe('OK');
  expect(readout(cap({ id: 'something', type: 'boolean', value: true }))).toBe('yes');
  expect(readout(cap({ id: 'dim', value: 0.9, units: '%', max: 1 }))).toBe('90 %');
  expect(readout(cap({ id: 'measure_temperature', value: 21.456, units: '°C', decimals: 1 }))).toBe('21.5 °C');
  expect(readout(cap({ id: 'thermostat_mode', type: 'enum', value: 'heat', values: [{ id: 'heat', title: 'Heat' }] as Cap['values'] }))).toBe('Heat');
});
