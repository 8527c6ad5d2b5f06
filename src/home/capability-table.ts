/**
 * Homey's system capabilities, in hearth's own compact form: for each id, its value's type, an English
 * title, whether it can be read and set, its units, range, step and decimals, its choices (enums), how
 * the web app shows it and whether insights keep a log of it. An app's own capabilities (app.json) are
 * read into the same shape (capability.ts); a system capability's facts come from here. Imports no
 * Node module: the web app uses it too.
 *
 * Written from Homey's public Device Capability Reference
 * (https://apps-sdk-v3.developer.homey.app/tutorial-device-capabilities.html) and the capability, energy
 * and best-practice pages of https://apps.developer.homey.app, in our own words. Titles, and the
 * titles of enum values, are our own short wording. The ids Homey added later (appliance modes and
 * states, air-quality levels, more alarms and readings) were checked against public Homey apps that
 * use them; the reference page's table was not readable to us for those, so most of their facts are
 * inferred (below).
 *
 * Inferred rather than read (sensible values where the pages state no fact):
 * - decimals: 2 for readings, 0 for angles, battery level, indexes, power targets and track times;
 * - the step of the 0..1 fractions (0.01) and of target_temperature (0.5), and its range 4..35 °C;
 * - ranges that follow from the quantity: humidity 0..100 %, angles 0..360 °, indexes 0..500;
 * - units of measure_rain (mm/h), meter_rain (mm), measure_ultraviolet (UVI), measure_water (L/min),
 *   meter_water and meter_gas (m³), measure_luminance (lux), measure_pressure (mbar);
 * - the ui of light_mode (color), volume_mute (toggle), the speaker_* capabilities (media),
 *   windowcoverings_state (ternary), fan_speed and target_power (slider);
 * - insights on for windowcoverings_closed, garagedoor_closed, locked and evcharger_charging; off for
 *   every enum and string and for the other setable numbers;
 * - speaker_position read-only; target_power unbounded (a device sets its own range).
 * For the later ids:
 * - the choices of every enum added with them (fan_mode, swing_mode, media_input, mower_state, the
 *   level_* ones, ...): none are listed; a device names its own in capabilitiesOptions.values;
 * - which of those enums can be set: the modes, inputs and mower_state yes; operational_state, the
 *   dishwasher and washer ones and the levels no;
 * - target_humidity(_min/_max), valve_position and pump_setpoint as 0..1 fractions; target_temperature
 *   _min/_max as target_temperature's range without its thermostat ui; oscillating settable, docked not;
 * - units: μg/m³ for measure_pm01, _ch2o, _o3, _so2 and _nox, Bq/m³ radon, mm/h rain_intensity, % for
 *   moisture and the two filters (0..100), pH 0..14, dBm, m, m/s, ° for rotation, g, L, Hz; none for
 *   measure_odor, _monetary, _data_rate and _data_size (a device states its own);
 * - decimals 0 for signal strength, filter life and rotation; insights as for the older ids.
 */
import type { Capability, CapabilityUi, CapabilityValue } from './capability.js';

interface Opts {
  getable?: boolean;
  setable?: boolean;
  insights?: boolean;
  ui?: CapabilityUi;
  min?: number;
  max?: number;
  step?: number;
  decimals?: number;
}

function cap(type: Capability['type'], title: string, units: string | null, values: readonly CapabilityValue[] | null, ui: CapabilityUi, o: Opts): Capability {
  return {
    type,
    title,
    getable: o.getable ?? true,
    setable: o.setable ?? false,
    units,
    min: o.min ?? null,
    max: o.max ?? null,
    step: o.step ?? null,
    decimals: o.decimals ?? null,
    values,
    ui: o.ui !== undefined ? o.ui : ui,
    insights: o.insights ?? false,
  };
}

/** 'id:Title|id:Title' as enum values. */
function valuesOf(list: string): CapabilityValue[] {
  return list.split('|').map((pair) => {
    const at = pair.indexOf(':');
    return { id: pair.slice(0, at), title: pair.slice(at + 1) };
  });
}

/** A boolean: a toggle when it can be set, else a sensor. */
const bool = (title: string, o: Opts = {}): Capability => cap('boolean', title, null, null, o.setable ? 'toggle' : 'sensor', o);
/** An alarm_*: a read-only boolean shown as a sensor, logged in insights. */
const alarm = (title: string): Capability => bool(title, { insights: true });
/** A one-shot command (a press): set, never read. */
const press = (title: string, ui: CapabilityUi = 'button'): Capability => cap('boolean', title, null, null, ui, { getable: false, setable: true });
/** A number: a slider when it can be set, else a sensor. */
const num = (title: string, units: string | null, o: Opts = {}): Capability => cap('number', title, units, null, o.setable ? 'slider' : 'sensor', o);
/** A measure_* or meter_* reading: read-only, a sensor, logged in insights. */
const reading = (title: string, units: string | null, decimals = 2, o: Opts = {}): Capability => num(title, units, { decimals, insights: true, ...o });
/** A settable fraction 0..1 that Homey shows as a percentage (dim, volume_set, windowcoverings_set, ...). */
const fraction = (title: string, o: Opts = {}): Capability => num(title, '%', { setable: true, min: 0, max: 1, step: 0.01, decimals: 2, ...o });
/** An enum, its values as 'id:Title|id:Title': a picker when it can be set, else a sensor. */
const enumOf = (title: string, values: string, o: Opts = {}): Capability => cap('enum', title, null, valuesOf(values), o.setable ? 'picker' : 'sensor', o);
/** An enum whose choices a device names itself (capabilitiesOptions.values): a picker when it can be set, else a sensor. */
const openEnum = (title: string, o: Opts = {}): Capability => cap('enum', title, null, null, o.setable ? 'picker' : 'sensor', o);
/** A read-only text. */
const str = (title: string, o: Opts = {}): Capability => cap('string', title, null, null, 'sensor', o);

const VACUUM_STATES = 'cleaning:Cleaning|spot_cleaning:Spot cleaning|docked:Docked|charging:Charging|stopped:Stopped';
const LOCK_MODES = 'always_locked:Always locked|always_unlocked:Always unlocked|locked_once:Locked until next unlock';
const EV_STATES = 'plugged_in_charging:Charging|plugged_in_discharging:Discharging|plugged_in_paused:Paused|plugged_in:Plugged in|plugged_out:Unplugged';

export const SYSTEM_CAPABILITIES: Readonly<Record<string, Capability>> = Object.freeze({
  // Switching and light
  onoff: bool('Turned on', { setable: true, insights: true }),
  dim: fraction('Dim level', { insights: true }),
  light_hue: fraction('Hue', { ui: 'color' }),
  light_saturation: fraction('Color saturation', { ui: 'color' }),
  light_temperature: fraction('Color temperature', { ui: 'color' }),
  light_mode: enumOf('Light mode', 'color:Color|temperature:Temperature', { setable: true, ui: 'color' }),

  // Climate
  target_temperature: num('Target temperature', '°C', { setable: true, min: 4, max: 35, step: 0.5, decimals: 2, ui: 'thermostat', insights: true }),
  thermostat_mode: enumOf('Thermostat mode', 'auto:Automatic|heat:Heat|cool:Cool|off:Off', { setable: true }),
  fan_speed: fraction('Fan speed'),
  target_temperature_min: num('Lowest target temperature', '°C', { setable: true, min: 4, max: 35, step: 0.5, decimals: 2 }),
  target_temperature_max: num('Highest target temperature', '°C', { setable: true, min: 4, max: 35, step: 0.5, decimals: 2 }),
  target_temperature_level: openEnum('Temperature level', { setable: true }),
  target_humidity: fraction('Target humidity'),
  target_humidity_min: fraction('Lowest target humidity'),
  target_humidity_max: fraction('Highest target humidity'),
  fan_mode: openEnum('Fan mode', { setable: true }),
  swing_mode: openEnum('Swing mode', { setable: true }),
  oscillating: bool('Oscillating', { setable: true }),
  heater_operation_mode: openEnum('Heater mode', { setable: true }),
  hot_water_mode: openEnum('Hot water mode', { setable: true }),
  valve_position: fraction('Valve position'),
  pump_mode: openEnum('Pump mode', { setable: true }),
  pump_setpoint: fraction('Pump setpoint'),

  // Media
  volume_set: fraction('Volume'),
  volume_up: press('Volume up'),
  volume_down: press('Volume down'),
  volume_mute: bool('Muted', { setable: true }),
  channel_up: press('Next channel'),
  channel_down: press('Previous channel'),
  speaker_playing: bool('Playing', { setable: true, ui: 'media' }),
  speaker_next: press('Next track', 'media'),
  speaker_prev: press('Previous track', 'media'),
  speaker_stop: press('Stop', 'media'),
  speaker_shuffle: bool('Shuffle', { setable: true, ui: 'media' }),
  speaker_repeat: enumOf('Repeat', 'none:Off|track:Track|playlist:Playlist', { setable: true, ui: 'media' }),
  speaker_artist: str('Artist', { ui: 'media' }),
  speaker_album: str('Album', { ui: 'media' }),
  speaker_track: str('Track', { ui: 'media' }),
  speaker_duration: num('Track length', 's', { min: 0, decimals: 0, ui: 'media' }),
  speaker_position: num('Track position', 's', { min: 0, decimals: 0, ui: 'media' }),
  media_input: openEnum('Input source', { setable: true }),
  audio_output: openEnum('Audio output', { setable: true }),

  // Window coverings, doors, locks, alarm systems, appliances
  windowcoverings_state: enumOf('Window coverings state', 'up:Up|idle:Stopped|down:Down', { setable: true, ui: 'ternary' }),
  windowcoverings_set: fraction('Window coverings position'),
  windowcoverings_tilt_up: press('Tilt up'),
  windowcoverings_tilt_down: press('Tilt down'),
  windowcoverings_tilt_set: fraction('Tilt position'),
  windowcoverings_closed: bool('Closed', { setable: true, insights: true }),
  garagedoor_closed: bool('Garage door closed', { setable: true, insights: true }),
  locked: bool('Locked', { setable: true, insights: true }),
  lock_mode: enumOf('Lock mode', LOCK_MODES, { setable: true }),
  homealarm_state: enumOf('Home alarm state', 'armed:Armed|disarmed:Disarmed|partially_armed:Partially armed', { setable: true }),
  vacuumcleaner_state: enumOf('Vacuum cleaner state', VACUUM_STATES, { setable: true }),
  vacuumcleaner_job_mode: openEnum('Cleaning mode', { setable: true }),
  docked: bool('Docked'),
  mower_state: openEnum('Mower state', { setable: true }),
  operational_state: openEnum('Operating state'),
  dishwasher_program: openEnum('Dishwasher program'),
  laundry_washer_program: openEnum('Washer program'),
  laundry_washer_speed: openEnum('Spin speed'),
  laundry_washer_cycles: openEnum('Rinse cycles'),
  refrigerator_mode: openEnum('Refrigerator mode', { setable: true }),
  button: press('Button'),

  // Energy management
  target_power: num('Target power', 'W', { setable: true, decimals: 0 }),
  evcharger_charging: bool('Charging', { setable: true, insights: true }),
  evcharger_charging_state: enumOf('Charging state', EV_STATES),
  battery_charging_state: enumOf('Battery charging state', 'idle:Idle|charging:Charging|discharging:Discharging'),

  // Alarms
  alarm_generic: alarm('Alarm'),
  alarm_motion: alarm('Motion alarm'),
  alarm_contact: alarm('Contact alarm'),
  alarm_co: alarm('CO alarm'),
  alarm_co2: alarm('CO2 alarm'),
  alarm_pm25: alarm('PM2.5 alarm'),
  alarm_tamper: alarm('Tamper alarm'),
  alarm_smoke: alarm('Smoke alarm'),
  alarm_fire: alarm('Fire alarm'),
  alarm_heat: alarm('Heat alarm'),
  alarm_water: alarm('Water alarm'),
  alarm_battery: alarm('Battery alarm'),
  alarm_night: alarm('Night alarm'),
  alarm_gas: alarm('Gas alarm'),
  alarm_pm01: alarm('PM0.1 alarm'),
  alarm_pm1: alarm('PM1 alarm'),
  alarm_pm10: alarm('PM10 alarm'),
  alarm_cold: alarm('Cold alarm'),
  alarm_moisture: alarm('Moisture alarm'),
  alarm_noise: alarm('Noise alarm'),
  alarm_light: alarm('Light alarm'),
  alarm_vibration: alarm('Vibration alarm'),
  alarm_occupancy: alarm('Occupancy'),
  alarm_presence: alarm('Presence'),
  alarm_power: alarm('Power alarm'),
  alarm_connectivity: alarm('Connection alarm'),
  alarm_problem: alarm('Problem'),
  alarm_safety: alarm('Safety alarm'),
  alarm_running: alarm('Running'),
  alarm_stuck: alarm('Stuck'),
  alarm_lost: alarm('Lost'),
  alarm_door_fault: alarm('Door fault'),
  alarm_bin_full: alarm('Bin full'),
  alarm_bin_missing: alarm('Bin missing'),
  alarm_cleaning_pad_missing: alarm('Cleaning pad missing'),
  alarm_tank_empty: alarm('Tank empty'),
  alarm_tank_missing: alarm('Tank missing'),
  alarm_tank_open: alarm('Tank open'),
  alarm_pump_device: alarm('Pump fault'),
  alarm_pump_supply: alarm('Pump supply fault'),

  // Measurements
  measure_temperature: reading('Temperature', '°C'),
  measure_humidity: reading('Humidity', '%', 2, { min: 0, max: 100 }),
  measure_pressure: reading('Pressure', 'mbar'),
  measure_co: reading('CO level', 'ppm'),
  measure_co2: reading('CO2 level', 'ppm'),
  measure_pm1: reading('PM1', 'μg/m³'),
  measure_pm25: reading('PM2.5', 'μg/m³'),
  measure_pm10: reading('PM10', 'μg/m³'),
  measure_tvoc: reading('TVOC', 'ppb'),
  measure_tvoc_index: reading('TVOC index', null, 0, { min: 0, max: 500 }),
  measure_aqi: reading('Air quality index', null, 0, { min: 0, max: 500 }),
  measure_noise: reading('Noise', 'dB'),
  measure_luminance: reading('Luminance', 'lux'),
  measure_ultraviolet: reading('UV index', 'UVI'),
  measure_rain: reading('Rain', 'mm/h'),
  measure_wind_strength: reading('Wind strength', 'km/h'),
  measure_wind_angle: reading('Wind direction', '°', 0, { min: 0, max: 360 }),
  measure_gust_strength: reading('Gust strength', 'km/h'),
  measure_gust_angle: reading('Gust direction', '°', 0, { min: 0, max: 360 }),
  measure_battery: reading('Battery', '%', 0, { min: 0, max: 100, step: 1, ui: 'battery' }),
  measure_power: reading('Power', 'W'),
  measure_voltage: reading('Voltage', 'V'),
  measure_current: reading('Current', 'A'),
  measure_water: reading('Water flow', 'L/min'),
  measure_pm01: reading('PM0.1', 'μg/m³'),
  measure_ch2o: reading('Formaldehyde', 'μg/m³'),
  measure_o3: reading('Ozone', 'μg/m³'),
  measure_so2: reading('SO2 level', 'μg/m³'),
  measure_nox: reading('NOx level', 'μg/m³'),
  measure_radon: reading('Radon', 'Bq/m³'),
  measure_odor: reading('Odor', null),
  measure_hepa_filter: reading('HEPA filter life', '%', 0, { min: 0, max: 100 }),
  measure_carbon_filter: reading('Carbon filter life', '%', 0, { min: 0, max: 100 }),
  measure_rain_intensity: reading('Rain intensity', 'mm/h'),
  measure_moisture: reading('Moisture', '%', 2, { min: 0, max: 100 }),
  measure_ph: reading('pH', 'pH', 2, { min: 0, max: 14 }),
  measure_signal_strength: reading('Signal strength', 'dBm', 0),
  measure_distance: reading('Distance', 'm'),
  measure_speed: reading('Speed', 'm/s'),
  measure_rotation: reading('Rotation', '°', 0),
  measure_weight: reading('Weight', 'g'),
  measure_content_volume: reading('Volume', 'L'),
  measure_frequency: reading('Frequency', 'Hz'),
  measure_data_rate: reading('Data rate', null),
  measure_data_size: reading('Data size', null),
  measure_monetary: reading('Amount', null),

  // Levels: a reading's named grade
  level_aqi: openEnum('Air quality level'),
  level_co: openEnum('CO level grade'),
  level_co2: openEnum('CO2 level grade'),
  level_ch2o: openEnum('Formaldehyde level'),
  level_o3: openEnum('Ozone level'),
  level_so2: openEnum('SO2 level grade'),
  level_nox: openEnum('NOx level grade'),
  level_radon: openEnum('Radon level'),
  level_tvoc: openEnum('TVOC level'),
  level_pm01: openEnum('PM0.1 level'),
  level_pm1: openEnum('PM1 level'),
  level_pm25: openEnum('PM2.5 level'),
  level_pm10: openEnum('PM10 level'),
  level_hepa_filter: openEnum('HEPA filter level'),
  level_carbon_filter: openEnum('Carbon filter level'),

  // Meters (cumulative)
  meter_power: reading('Energy', 'kWh'),
  meter_water: reading('Water meter', 'm³'),
  meter_gas: reading('Gas meter', 'm³'),
  meter_rain: reading('Rain total', 'mm'),
});
