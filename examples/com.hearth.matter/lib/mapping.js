'use strict';

// What a Matter endpoint is in Homey's terms: its capabilities from the clusters it serves (read
// from the endpoint's state, keyed by matter.js's behavior ids), each capability's value from
// that state, and the command that sets it. Plain data in, plain data out: no matter.js here,
// so the mapping is read and tested on its own. Units are Matter's: 0.01 °C, 0.01 %, mW, mWh,
// 0.01 % of a cover's travel (0 = open), hue and saturation 0-254, level 1-254.

/**
 * Matter device types (the Device Library's ids): Homey's class for each, and what a family calls
 * it, to tell a device's parts apart ("Kitchen light (temperature)").
 */
const TYPES = {
  0x0100: ['light', 'light'], // On/Off Light
  0x0101: ['light', 'light'], // Dimmable Light
  0x010c: ['light', 'light'], // Colour Temperature Light
  0x010d: ['light', 'colour light'], // Extended Colour Light
  0x010a: ['socket', 'plug'], // On/Off Plug-in Unit
  0x010b: ['socket', 'plug'], // Dimmable Plug-in Unit
  0x0103: ['socket', 'switch'], // On/Off Light Switch (a switch that is a device of its own)
  0x0015: ['sensor', 'contact'], // Contact Sensor
  0x0107: ['sensor', 'occupancy'], // Occupancy Sensor
  0x0302: ['sensor', 'temperature'], // Temperature Sensor
  0x0307: ['sensor', 'humidity'], // Humidity Sensor
  0x0305: ['sensor', 'pressure'], // Pressure Sensor
  0x0106: ['sensor', 'light level'], // Light Sensor
  0x0043: ['sensor', 'water leak'], // Water Leak Detector
  0x0202: ['blinds', 'blind'], // Window Covering
  0x0301: ['thermostat', 'thermostat'], // Thermostat
  0x000a: ['lock', 'lock'], // Door Lock
};
/** The first of an endpoint's device types this knows. */
const knownType = (deviceTypes) => TYPES[deviceTypes.find((t) => TYPES[t])];
const CONTACT_SENSOR = 0x0015;
const WATER_LEAK = 0x0043;

const round = (v, places) => Math.round(v * 10 ** places) / 10 ** places;
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const clamp01 = (v) => Math.min(1, Math.max(0, v));

/**
 * Each mapped capability: which behavior (cluster) gives it, whether the endpoint has it (some
 * need a feature or an attribute), its value from the behavior's state, and its command.
 * `command(value, state)` answers [behavior, command name, fields] or ['write', behavior, state].
 */
const CAPABILITIES = [
  {
    capability: 'onoff',
    behavior: 'onOff',
    value: (s) => (typeof s.onOff === 'boolean' ? s.onOff : null),
    command: (v) => ['onOff', v ? 'on' : 'off', undefined],
  },
  {
    capability: 'dim',
    behavior: 'levelControl',
    value: (s) => (num(s.currentLevel) === null ? null : round(clamp01(s.currentLevel / 254), 3)),
    command: (v) => ['levelControl', 'moveToLevelWithOnOff', { level: Math.max(1, Math.round(clamp01(v) * 254)), transitionTime: 0, optionsMask: {}, optionsOverride: {} }],
  },
  {
    // 0 is the coldest the lamp can do, 1 the warmest, over the lamp's own range of mireds.
    capability: 'light_temperature',
    behavior: 'colorControl',
    has: (s) => num(s.colorTemperatureMireds) !== null,
    value: (s) => {
      const [min, max] = miredRange(s);
      return num(s.colorTemperatureMireds) === null ? null : round(clamp01((s.colorTemperatureMireds - min) / (max - min)), 3);
    },
    command: (v, s) => {
      const [min, max] = miredRange(s);
      return ['colorControl', 'moveToColorTemperature', { colorTemperatureMireds: Math.round(min + clamp01(v) * (max - min)), transitionTime: 0, optionsMask: {}, optionsOverride: {} }];
    },
  },
  {
    capability: 'light_hue',
    behavior: 'colorControl',
    has: (s) => num(s.currentHue) !== null,
    value: (s) => (num(s.currentHue) === null ? null : round(clamp01(s.currentHue / 254), 3)),
    command: (v, s) => ['colorControl', 'moveToHueAndSaturation', { hue: Math.round(clamp01(v) * 254), saturation: num(s.currentSaturation) ?? 254, transitionTime: 0, optionsMask: {}, optionsOverride: {} }],
  },
  {
    capability: 'light_saturation',
    behavior: 'colorControl',
    has: (s) => num(s.currentSaturation) !== null,
    value: (s) => (num(s.currentSaturation) === null ? null : round(clamp01(s.currentSaturation / 254), 3)),
    command: (v, s) => ['colorControl', 'moveToHueAndSaturation', { hue: num(s.currentHue) ?? 0, saturation: Math.round(clamp01(v) * 254), transitionTime: 0, optionsMask: {}, optionsOverride: {} }],
  },
  { capability: 'measure_temperature', behavior: 'temperatureMeasurement', value: (s) => hundredths(s.measuredValue) },
  { capability: 'measure_humidity', behavior: 'relativeHumidityMeasurement', value: (s) => hundredths(s.measuredValue) },
  // Pressure in tenths of a kPa, which is mbar.
  { capability: 'measure_pressure', behavior: 'pressureMeasurement', value: (s) => (num(s.measuredValue) === null ? null : s.measuredValue) },
  // Illuminance is 10000 × log10(lux) + 1.
  { capability: 'measure_luminance', behavior: 'illuminanceMeasurement', value: (s) => (num(s.measuredValue) === null || s.measuredValue === 0 ? null : Math.round(10 ** ((s.measuredValue - 1) / 10000))) },
  { capability: 'alarm_motion', behavior: 'occupancySensing', value: (s) => (s.occupancy && typeof s.occupancy.occupied === 'boolean' ? s.occupancy.occupied : null) },
  // BooleanState: a contact sensor says true when closed (Homey's alarm_contact is true when
  // open); a water leak detector says true on a leak.
  {
    capability: 'alarm_contact',
    behavior: 'booleanState',
    has: (_s, types) => types.includes(CONTACT_SENSOR) || !types.includes(WATER_LEAK),
    value: (s) => (typeof s.stateValue === 'boolean' ? !s.stateValue : null),
  },
  { capability: 'alarm_water', behavior: 'booleanState', has: (_s, types) => types.includes(WATER_LEAK), value: (s) => (typeof s.stateValue === 'boolean' ? s.stateValue : null) },
  // activePower in mW, cumulative energy in mWh.
  { capability: 'measure_power', behavior: 'electricalPowerMeasurement', value: (s) => (num(s.activePower) === null ? null : round(s.activePower / 1000, 2)) },
  {
    capability: 'meter_power',
    behavior: 'electricalEnergyMeasurement',
    value: (s) => (s.cumulativeEnergyImported && num(s.cumulativeEnergyImported.energy) !== null ? round(s.cumulativeEnergyImported.energy / 1e6, 4) : null),
  },
  // Lift: 0 (of 10000) is open; Homey's windowcoverings_set 1 is open.
  {
    capability: 'windowcoverings_set',
    behavior: 'windowCovering',
    value: (s) => (num(s.currentPositionLiftPercent100ths) === null ? null : round(1 - s.currentPositionLiftPercent100ths / 10000, 3)),
    command: (v) => ['windowCovering', 'goToLiftPercentage', { liftPercent100thsValue: Math.round((1 - clamp01(v)) * 10000) }],
  },
  { capability: 'measure_temperature', behavior: 'thermostat', value: (s) => hundredths(s.localTemperature) },
  {
    capability: 'target_temperature',
    behavior: 'thermostat',
    has: (s) => num(s.occupiedHeatingSetpoint) !== null,
    value: (s) => hundredths(s.occupiedHeatingSetpoint),
    command: (v) => ['write', 'thermostat', { occupiedHeatingSetpoint: Math.round(v * 100) }],
  },
  {
    capability: 'thermostat_mode',
    behavior: 'thermostat',
    has: (s) => num(s.systemMode) !== null,
    value: (s) => MODES[s.systemMode] ?? null,
    command: (v) => ['write', 'thermostat', { systemMode: Number(Object.keys(MODES).find((k) => MODES[k] === v) ?? 0) }],
  },
  // lockState: 1 locked, 2 unlocked (0 not fully locked).
  {
    capability: 'locked',
    behavior: 'doorLock',
    value: (s) => (s.lockState === 1 ? true : s.lockState === 2 || s.lockState === 0 ? false : null),
    command: (v) => ['doorLock', v ? 'lockDoor' : 'unlockDoor', {}],
  },
  // batPercentRemaining is in half percent.
  { capability: 'measure_battery', behavior: 'powerSource', has: (s) => num(s.batPercentRemaining) !== null, value: (s) => (num(s.batPercentRemaining) === null ? null : Math.round(s.batPercentRemaining / 2)) },
];

/** Thermostat systemMode values Homey's thermostat_mode has a word for. */
const MODES = { 0: 'off', 1: 'auto', 3: 'cool', 4: 'heat' };

const hundredths = (v) => (num(v) === null ? null : round(v / 100, 2));

/** The lamp's own mired range (Matter's defaults are 0..0xfeff: a lamp that says nothing gets 153-500). */
function miredRange(s) {
  const min = num(s.colorTempPhysicalMinMireds) || 153;
  const max = num(s.colorTempPhysicalMaxMireds);
  return [min, max && max > min && max < 0xfeff ? max : 500];
}

/**
 * What an endpoint is, from its state (behavior id → attributes) and its device types: the
 * capabilities it gets (each once; the first mapping of a capability wins), its class, and the
 * behaviors it has that nothing here maps (listed, not a failure).
 */
function planOf(state, deviceTypes = []) {
  const capabilities = [];
  const used = new Set();
  for (const m of CAPABILITIES) {
    const s = state[m.behavior];
    if (!s || capabilities.includes(m.capability)) continue;
    if (m.has && !m.has(s, deviceTypes)) continue;
    capabilities.push(m.capability);
    used.add(m.behavior);
  }
  const known = new Set(['descriptor', 'identify', 'groups', 'scenesManagement', 'fixedLabel', 'userLabel', 'bridgedDeviceBasicInformation']);
  const skipped = Object.keys(state).filter((b) => !used.has(b) && !known.has(b));
  return { capabilities, class: knownType(deviceTypes)?.[0] ?? (capabilities.length > 0 ? 'sensor' : 'other'), skipped };
}

/** The capability values the endpoint's state says (capabilities of the plan only; unknown left out). */
function valuesOf(capabilities, state, deviceTypes = []) {
  const out = {};
  for (const m of CAPABILITIES) {
    if (!capabilities.includes(m.capability) || m.capability in out) continue;
    const s = state[m.behavior];
    if (!s || (m.has && !m.has(s, deviceTypes))) continue;
    const v = m.value(s);
    if (v !== null) out[m.capability] = v;
  }
  return out;
}

/** How a capability is set on this endpoint: [behavior, command, fields] or ['write', behavior, attributes]; null when it cannot be. */
function commandOf(capability, value, state, deviceTypes = []) {
  const m = CAPABILITIES.find((c) => c.capability === capability && c.command && state[c.behavior] && (!c.has || c.has(state[c.behavior], deviceTypes)));
  return m ? m.command(value, state[m.behavior]) : null;
}

/** The behaviors whose changes a device listens to. */
const BEHAVIORS = [...new Set(CAPABILITIES.map((c) => c.behavior))];

/** The word for an endpoint among a device's parts: its device type's, else its number. */
function partName(deviceTypes, number) {
  return knownType(deviceTypes)?.[1] ?? `part ${number}`;
}

module.exports = { planOf, valuesOf, commandOf, partName, BEHAVIORS };
