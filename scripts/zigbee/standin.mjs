/**
 * A zigbee2mqtt stand-in on a real broker: what zigbee2mqtt 2.x publishes (its documented MQTT
 * topics: bridge/state, bridge/info, bridge/devices with each device's definition and exposes,
 * `<base>/<name>` states with the whole cached state, availability, responses to bridge requests)
 * for real device models (test/fixtures/zigbee2mqtt/models.json, from zigbee-herdsman-converters),
 * answering `/set` with the state zigbee2mqtt would publish (brightness and colour temperature held
 * to the device's range, the colour mode following the last colour set) and `/get` with the state.
 * Written from the documentation; none of zigbee2mqtt's code. Used by the tests
 * (test/apps/zigbee2mqtt.test.ts), the bench and the screenshots.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import mqtt from 'mqtt';

const ROOT = join(import.meta.dirname, '../..');

/** The device models of test/fixtures/zigbee2mqtt/models.json, by model. */
export const MODELS = async () => JSON.parse(await readFile(join(ROOT, 'test/fixtures/zigbee2mqtt/models.json'), 'utf8')).models;

const LINKQUALITY = {
  type: 'numeric',
  name: 'linkquality',
  label: 'Linkquality',
  property: 'linkquality',
  access: 1,
  unit: 'lqi',
  value_min: 0,
  value_max: 255,
};

/** Every feature of an expose list, nested ones included. */
const flat = (exposes) => exposes.flatMap((e) => [e, ...flat(e.features ?? [])]);

export class Z2mStandIn {
  constructor(url, base = 'zigbee2mqtt') {
    this.url = url;
    this.base = base;
    this.client = null;
    this.devices = [];
    /** Each device's state as zigbee2mqtt caches it, by name. */
    this.states = new Map();
    /** Every /set, /get and bridge request received: [topic, payload]. */
    this.received = [];
    /** Called with (name, state) as each state is published. */
    this.onPublish = null;
  }

  /** `devices`: [{model (of models.json), name, ieee, mains?, state? (what it starts with)}]. */
  async start(devices) {
    const models = await MODELS();
    this.devices = devices.map((d) => {
      const definition = models[d.model];
      if (!definition) throw new Error(`no model ${d.model} in models.json`);
      return { ...d, definition };
    });
    for (const d of this.devices) this.states.set(d.name, { ...d.state });
    this.client = await mqtt.connectAsync(this.url, { clientId: `z2m-standin-${process.pid}` });
    this.client.on('message', (topic, payload) => this.message(topic, payload.toString()));
    await this.client.subscribeAsync([`${this.base}/+/set`, `${this.base}/+/get`, `${this.base}/bridge/request/#`]);
    await this.publish('bridge/state', { state: 'online' }, true);
    await this.publish('bridge/info', { version: '2.1.0', permit_join: false, permit_join_end: null, network: { channel: 11 } }, true);
    await this.publishDevices();
  }

  async publish(sub, payload, retain = false) {
    await this.client.publishAsync(`${this.base}/${sub}`, typeof payload === 'string' ? payload : JSON.stringify(payload), { retain, qos: retain ? 1 : 0 });
  }

  async publishDevices() {
    const coordinator = {
      ieee_address: '0x00124b0000000000',
      type: 'Coordinator',
      network_address: 0,
      friendly_name: 'Coordinator',
      supported: true,
      disabled: false,
      interview_completed: true,
    };
    const list = this.devices.map((d, i) => ({
      ieee_address: d.ieee,
      type: d.mains ? 'Router' : 'EndDevice',
      network_address: 1000 + i,
      supported: true,
      friendly_name: d.name,
      disabled: false,
      power_source: d.mains ? 'Mains (single phase)' : 'Battery',
      model_id: d.definition.zigbeeModel,
      manufacturer: d.definition.vendor,
      interview_completed: true,
      interview_state: 'SUCCESSFUL',
      definition: {
        source: 'native',
        model: d.definition.model,
        vendor: d.definition.vendor,
        description: d.definition.description,
        exposes: [...d.definition.exposes, LINKQUALITY],
        options: [],
        supports_ota: false,
      },
    }));
    await this.publish('bridge/devices', [coordinator, ...list], true);
  }

  /** The device reports: its state merged, the whole state published (as with cache_state). */
  async report(name, change) {
    const state = { ...this.states.get(name), ...change, linkquality: 120 };
    // zigbee2mqtt never caches an action: it is in the one message where it happened.
    const { action: _action, ...kept } = state;
    this.states.set(name, kept);
    await this.publish(name, state);
    this.onPublish?.(name, state);
  }

  async availability(name, online) {
    await this.publish(`${name}/availability`, { state: online ? 'online' : 'offline' }, true);
  }

  async bridgeState(online) {
    await this.publish('bridge/state', { state: online ? 'online' : 'offline' }, true);
  }

  /** Renamed in zigbee2mqtt's frontend: the device list again, its state under the new name. */
  async rename(from, to) {
    this.devices = this.devices.map((d) => (d.name === from ? { ...d, name: to } : d));
    this.states.set(to, this.states.get(from) ?? {});
    this.states.delete(from);
    await this.publishDevices();
    await this.publish(to, this.states.get(to));
  }

  async remove(name) {
    this.devices = this.devices.filter((d) => d.name !== name);
    await this.publishDevices();
  }

  message(topic, text) {
    let payload = text;
    try {
      payload = JSON.parse(text);
    } catch {}
    this.received.push([topic, payload]);
    const rest = topic.slice(this.base.length + 1);
    if (rest.startsWith('bridge/request/')) {
      const what = rest.slice('bridge/request/'.length);
      void this.publish(`bridge/response/${what}`, { data: payload, status: 'ok' });
      return;
    }
    const [name, verb] = rest.split('/');
    const device = this.devices.find((d) => d.name === name);
    if (!device) return;
    if (verb === 'get') {
      void this.publish(name, { ...this.states.get(name), linkquality: 120 });
      return;
    }
    if (verb === 'set' && typeof payload === 'object' && payload !== null) void this.report(name, this.applied(device, payload));
  }

  /** What a /set leaves the device's state as, held to its exposes' ranges. */
  applied(device, command) {
    const features = flat(device.definition.exposes);
    const range = (prop) => features.find((f) => f.property === prop && f.type === 'numeric');
    const before = this.states.get(device.name) ?? {};
    const out = {};
    for (const [key, value] of Object.entries(command)) {
      const r = range(key);
      if (typeof value === 'number' && r) out[key] = Math.max(r.value_min ?? -Infinity, Math.min(r.value_max ?? Infinity, value));
      else if (key === 'state' && value === 'TOGGLE') out.state = before.state === 'ON' ? 'OFF' : 'ON';
      else if (key === 'color' && typeof value === 'object' && value !== null) {
        out.color = { ...before.color, ...value };
        out.color_mode = 'hs';
      } else out[key] = value;
    }
    if ('color_temp' in out) out.color_mode = 'color_temp';
    // A light dimmed up is on; a cover moved says where it is going.
    if (typeof out.brightness === 'number' && out.brightness > 0 && !('state' in out) && features.some((f) => f.property === 'state')) out.state = 'ON';
    if (typeof out.position === 'number') out.state = out.position > 0 ? 'OPEN' : 'CLOSE';
    return out;
  }

  async close() {
    await this.client?.endAsync();
  }
}
