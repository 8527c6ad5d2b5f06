'use strict';

// The app's one connection to zigbee2mqtt: the broker and base topic from the app's settings, the
// bridge's state and device list (bridge/devices, retained), and each device's state and
// availability handed to the device that has its IEEE address. A device renamed in zigbee2mqtt is
// followed by its address; one removed there is told so.
const { EventEmitter } = require('node:events');
const { MqttClient } = require('./mqtt');

const parse = (payload) => {
  const s = payload.toString();
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
};
/** 'online'/'offline' from zigbee2mqtt 2.x's {"state": ...} or 1.x's plain text. */
const onlineOf = (v) => (typeof v === 'object' && v !== null ? v.state : v) === 'online';

class Bridge extends EventEmitter {
  constructor(homey) {
    super();
    this.homey = homey;
    this.devices = [];
    this.byName = new Map();
    this.bridgeOnline = false;
    this.reachable = false;
    this.client = null;
  }

  get base() {
    return this.homey.settings.get('baseTopic') || 'zigbee2mqtt';
  }

  get broker() {
    return this.homey.settings.get('broker') || 'mqtt://127.0.0.1:1883';
  }

  /** Why devices cannot be reached now, or null. */
  get problem() {
    if (!this.reachable) return `cannot reach the MQTT broker at ${this.broker}`;
    if (!this.bridgeOnline) return 'zigbee2mqtt is not running (its bridge is offline)';
    return null;
  }

  start() {
    this.client?.end();
    this.reachable = false;
    this.bridgeOnline = false;
    let client;
    try {
      client = new MqttClient(this.broker);
    } catch (err) {
      this.homey.error(err.message);
      this.emit('status');
      return;
    }
    this.client = client;
    const base = this.base;
    // Said once per problem, not at every retry (the client retries every 30 s for as long as it takes).
    let said = null;
    client.on('problem', (err) => {
      if (err.message !== said) this.homey.log(`broker: ${err.message}`);
      said = err.message;
    });
    client.on('connect', () => {
      said = null;
      this.reachable = true;
      this.homey.log(`connected to ${this.broker}`);
      this.emit('status');
    });
    client.on('offline', () => {
      this.reachable = false;
      this.emit('status');
    });
    client.on('message', (topic, payload) => {
      if (client !== this.client || !topic.startsWith(`${base}/`)) return;
      const rest = topic.slice(base.length + 1);
      if (rest === 'bridge/state') {
        this.bridgeOnline = onlineOf(parse(payload));
        this.emit('status');
      } else if (rest === 'bridge/devices') {
        const list = parse(payload);
        if (!Array.isArray(list)) return;
        this.devices = list.filter((d) => d && d.type !== 'Coordinator' && typeof d.ieee_address === 'string');
        this.emit('devices', this.devices);
      } else if (rest.startsWith('bridge/')) {
        this.emit(rest, parse(payload));
      } else if (rest.endsWith('/availability')) {
        this.emit('availability', rest.slice(0, -'/availability'.length), onlineOf(parse(payload)));
      } else if (payload.length > 0 && !rest.includes('/')) {
        const state = parse(payload);
        if (typeof state === 'object' && state !== null) this.emit('state', rest, state);
      }
    });
    for (const t of ['bridge/state', 'bridge/devices', 'bridge/response/#', '+', '+/availability']) client.subscribe(`${base}/${t}`);
  }

  stop() {
    this.client?.end();
    this.client = null;
  }

  /** The device zigbee2mqtt knows by this IEEE address, or undefined. */
  device(ieee) {
    return this.devices.find((d) => d.ieee_address === ieee);
  }

  set(name, command) {
    return this.client?.publish(`${this.base}/${name}/set`, JSON.stringify(command)) ?? false;
  }

  get(name, props) {
    return this.client?.publish(`${this.base}/${name}/get`, JSON.stringify(Object.fromEntries(props.map((p) => [p, '']))));
  }

  /** Lets new devices join for `seconds` (zigbee2mqtt 2.x's {time}; 1.x also wants value). */
  permitJoin(seconds) {
    return this.client?.publish(`${this.base}/bridge/request/permit_join`, JSON.stringify({ time: seconds, value: seconds > 0 }));
  }
}

module.exports = { Bridge };
