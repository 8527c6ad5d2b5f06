'use strict';

// What a zigbee2mqtt device's "exposes" (its definition in bridge/devices) mean in Homey's
// capabilities: a plan of entries, each a capability, the state property it reads, and how a
// value goes each way. zigbee2mqtt's access bits: 1 published in the state, 2 settable, 4 gettable.
// What has no Homey capability is listed as skipped, never a failure.

const PUBLISHED = 1;
const SET = 2;
const GET = 4;

/** Numeric state properties and their capability (scale: what a Homey value is per z2m unit). */
const NUMERIC = {
  temperature: 'measure_temperature',
  humidity: 'measure_humidity',
  pressure: 'measure_pressure',
  illuminance: 'measure_luminance',
  illuminance_lux: 'measure_luminance',
  battery: 'measure_battery',
  power: 'measure_power',
  energy: 'meter_power',
  current: 'measure_current',
  co2: 'measure_co2',
  pm25: 'measure_pm25',
};
/** Binary state properties and their alarm capability: the alarm is on when the value is the expose's value_on. */
const ALARM = {
  contact: 'alarm_contact',
  occupancy: 'alarm_motion',
  presence: 'alarm_motion',
  water_leak: 'alarm_water',
  smoke: 'alarm_smoke',
  battery_low: 'alarm_battery',
  tamper: 'alarm_tamper',
  vibration: 'alarm_vibration',
  carbon_monoxide: 'alarm_co',
};
const MODES = ['auto', 'heat', 'cool', 'off'];
const COVER = { OPEN: 'up', CLOSE: 'down', STOP: 'idle' };

/** A device's plan from its exposes: {capabilities, capabilitiesOptions, entries, actions, skipped, gets}. */
function planOf(exposes) {
  const entries = [];
  const options = {};
  const skipped = [];
  const gets = new Set();
  let actions = null;
  const has = (cap) => entries.some((e) => e.cap === cap);
  const add = (entry, feature) => {
    if (has(entry.cap)) return skipped.push(feature.property);
    entries.push({ ...entry, set: (feature.access & SET) !== 0 });
    if (feature.access & GET) gets.add(feature.property);
  };
  for (const e of Array.isArray(exposes) ? exposes : []) {
    if (!e || typeof e !== 'object') continue;
    const features = Array.isArray(e.features) ? e.features : [];
    const feature = (name) => features.find((f) => f.name === name);
    if (e.type === 'light' || e.type === 'switch') {
      const state = feature('state');
      // Only a light or switch of the device's own state: a valve's window_detection switch is a
      // setting. A second gang (state_right) is a sub-capability of its own (onoff.right).
      if (state && /^state(_|$)/.test(state.property)) {
        const cap = has('onoff') && e.endpoint ? `onoff.${e.endpoint}` : 'onoff';
        add({ cap, kind: 'onoff', prop: state.property, on: state.value_on, off: state.value_off }, state);
        if (e.endpoint) options[cap] = { title: { en: `${e.endpoint[0].toUpperCase()}${e.endpoint.slice(1)}` } };
      } else if (state) skipped.push(state.property);
      const brightness = feature('brightness');
      if (brightness) add({ cap: 'dim', kind: 'scale', prop: brightness.property, max: brightness.value_max ?? 254 }, brightness);
      const ct = feature('color_temp');
      if (ct) {
        // The device's own mired range: 0 (cool) is its lowest mired, 1 (warm) its highest.
        add({ cap: 'light_temperature', kind: 'mired', prop: ct.property, min: ct.value_min ?? 150, max: ct.value_max ?? 500 }, ct);
      }
      const hs = features.find((f) => f.name === 'color_hs');
      if (hs) {
        add({ cap: 'light_hue', kind: 'hue', prop: hs.property }, hs);
        add({ cap: 'light_saturation', kind: 'saturation', prop: hs.property }, hs);
      }
      if (ct && hs) entries.push({ cap: 'light_mode', kind: 'mode', prop: 'color_mode', set: true });
      for (const f of features) if (!['state', 'brightness', 'color_temp', 'color_hs', 'color_xy'].includes(f.name)) skipped.push(f.property ?? f.name);
      continue;
    }
    if (e.type === 'cover') {
      const position = feature('position');
      if (position) add({ cap: 'windowcoverings_set', kind: 'scale', prop: position.property, max: 100 }, position);
      const state = feature('state');
      if (state) add({ cap: 'windowcoverings_state', kind: 'cover', prop: state.property }, state);
      continue;
    }
    if (e.type === 'lock') {
      const state = feature('state');
      if (state) add({ cap: 'locked', kind: 'onoff', prop: state.property, on: state.value_on ?? 'LOCK', off: state.value_off ?? 'UNLOCK' }, state);
      continue;
    }
    if (e.type === 'climate') {
      const local = feature('local_temperature');
      if (local) add({ cap: 'measure_temperature', kind: 'number', prop: local.property }, local);
      const setpoint = feature('occupied_heating_setpoint') ?? feature('current_heating_setpoint');
      if (setpoint) {
        add({ cap: 'target_temperature', kind: 'number', prop: setpoint.property }, setpoint);
        options.target_temperature = { min: setpoint.value_min ?? 5, max: setpoint.value_max ?? 35, step: setpoint.value_step ?? 0.5 };
      }
      const mode = feature('system_mode');
      const values = (mode?.values ?? []).filter((v) => MODES.includes(v));
      if (mode && values.length > 0) add({ cap: 'thermostat_mode', kind: 'enum', prop: mode.property, values }, mode);
      continue;
    }
    if (e.type === 'enum' && e.property === 'action') {
      actions = Array.isArray(e.values) ? e.values : [];
      continue;
    }
    if (!(e.access & PUBLISHED) || typeof e.property !== 'string') {
      skipped.push(e.property ?? e.type);
      continue;
    }
    if (e.type === 'numeric' && NUMERIC[e.property] && !(e.property === 'voltage' && e.unit === 'mV')) {
      add({ cap: NUMERIC[e.property], kind: 'number', prop: e.property }, e);
    } else if (e.type === 'binary' && ALARM[e.property]) {
      add({ cap: ALARM[e.property], kind: 'alarm', prop: e.property, on: e.value_on }, e);
    } else if (e.property !== 'linkquality') {
      skipped.push(e.property);
    }
  }
  return {
    capabilities: entries.map((e) => e.cap),
    capabilitiesOptions: options,
    entries,
    actions,
    skipped,
    gets: [...gets],
  };
}

/** The capability values a state message carries, by the plan. */
function valuesOf(plan, state) {
  const out = {};
  for (const e of plan.entries) {
    const v = state[e.prop];
    if (v === undefined || v === null) continue;
    switch (e.kind) {
      case 'onoff':
        if (v === e.on || v === e.off) out[e.cap] = v === e.on;
        break;
      case 'scale':
        if (typeof v === 'number') out[e.cap] = Math.max(0, Math.min(1, v / e.max));
        break;
      case 'mired':
        if (typeof v === 'number') out[e.cap] = Math.max(0, Math.min(1, (v - e.min) / (e.max - e.min)));
        break;
      case 'hue':
        if (typeof v.hue === 'number') out[e.cap] = (((v.hue % 360) + 360) % 360) / 360;
        break;
      case 'saturation':
        if (typeof v.saturation === 'number') out[e.cap] = Math.max(0, Math.min(1, v.saturation / 100));
        break;
      case 'mode':
        if (typeof v === 'string') out[e.cap] = v === 'color_temp' ? 'temperature' : 'color';
        break;
      case 'cover':
        if (COVER[v]) out[e.cap] = COVER[v];
        break;
      case 'enum':
        if (e.values.includes(v)) out[e.cap] = v;
        break;
      case 'alarm':
        out[e.cap] = v === e.on;
        break;
      default:
        if (typeof v === 'number' && Number.isFinite(v)) out[e.cap] = v;
    }
  }
  return out;
}

/** What zigbee2mqtt's /set takes for capability `cap` set to `value`; null when it cannot be set. */
function commandOf(plan, cap, value) {
  const e = plan.entries.find((x) => x.cap === cap);
  if (!e || !e.set) return null;
  switch (e.kind) {
    case 'onoff':
      return { [e.prop]: value ? e.on : e.off };
    case 'scale':
      return { [e.prop]: Math.round(value * e.max) };
    case 'mired':
      return { [e.prop]: Math.round(e.min + value * (e.max - e.min)) };
    case 'hue':
      return { [e.prop]: { hue: Math.round(value * 360) } };
    case 'saturation':
      return { [e.prop]: { saturation: Math.round(value * 100) } };
    case 'cover':
      return { [e.prop]: Object.keys(COVER).find((k) => COVER[k] === value) };
    case 'mode':
      return null;
    default:
      return { [e.prop]: value };
  }
}

module.exports = { planOf, valuesOf, commandOf };
