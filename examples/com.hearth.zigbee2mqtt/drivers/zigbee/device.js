'use strict';

// One Zigbee device of zigbee2mqtt, by its IEEE address: its state messages become capability
// values (lib/exposes.js, from the definition zigbee2mqtt publishes now), a capability set becomes
// a /set, a button press (`action`) runs the device's "A button was pressed" flows. Unavailable
// while the broker, zigbee2mqtt or the device itself is offline, or once it is removed from
// zigbee2mqtt. A mains-powered device with no state yet is asked for it (/get).
const Homey = require('homey');
const { planOf, valuesOf, commandOf } = require('../../lib/exposes');

class ZigbeeDevice extends Homey.Device {
  async onInit() {
    this.bridge = this.homey.app.bridge;
    this.ieee = this.getData().id;
    // Its name in zigbee2mqtt (its topic): here at once when renamed, in the store for the next start.
    this.name = this.getStoreValue('name');
    this.online = true;
    this.heard = false;
    this.follow(this.bridge.device(this.ieee));
    this.onState = (name, state) => {
      if (name === this.name) this.received(state).catch(this.error);
    };
    this.onAvailability = (name, online) => {
      if (name !== this.name) return;
      this.online = online;
      this.showAvailability();
    };
    this.onDevices = () => this.follow(this.bridge.device(this.ieee));
    this.onStatus = () => this.showAvailability();
    this.bridge.on('state', this.onState);
    this.bridge.on('availability', this.onAvailability);
    this.bridge.on('devices', this.onDevices);
    this.bridge.on('status', this.onStatus);
    // A colour is hue and saturation set together: one /set for both; every other value at once.
    const colour = ['light_hue', 'light_saturation'].filter((c) => this.hasCapability(c));
    if (colour.length > 0) this.registerMultipleCapabilityListener(colour, (values) => this.command(values), 100);
    for (const cap of this.getCapabilities()) {
      if (!colour.includes(cap) && cap !== 'light_mode') this.registerCapabilityListener(cap, (value) => this.command({ [cap]: value }));
    }
    this.showAvailability();
  }

  /** The device as zigbee2mqtt lists it now: its name (a rename is followed) and plan; gone when removed. */
  follow(z2m) {
    if (!z2m) {
      this.gone = this.bridge.devices.length > 0;
      this.showAvailability();
      return;
    }
    this.gone = false;
    this.plan = planOf(z2m.definition?.exposes);
    if (z2m.friendly_name !== this.name) {
      this.name = z2m.friendly_name;
      this.setStoreValue('name', z2m.friendly_name).catch(this.error);
      this.log(`renamed in zigbee2mqtt to ${z2m.friendly_name}`);
    }
    this.showAvailability();
    // No state for a mains-powered device yet (the broker kept none): ask it.
    if (!this.heard && this.getStoreValue('mains') && this.plan.gets.length > 0) {
      this.homey.setTimeout(() => {
        if (!this.heard) this.bridge.get(this.name, this.plan.gets);
      }, 2000);
    }
  }

  showAvailability() {
    const why = this.gone
      ? 'removed from zigbee2mqtt'
      : (this.bridge.problem ?? (this.online ? null : 'zigbee2mqtt says it is offline (out of range, or its battery is flat)'));
    (why ? this.setUnavailable(why) : this.setAvailable()).catch(this.error);
  }

  async received(state) {
    this.heard = true;
    if (!this.plan) return;
    for (const [cap, value] of Object.entries(valuesOf(this.plan, state))) {
      if (this.hasCapability(cap) && this.getCapabilityValue(cap) !== value) await this.setCapabilityValue(cap, value);
    }
    if (typeof state.action === 'string' && state.action !== '') {
      await this.homey.flow.getDeviceTriggerCard('action').trigger(this, { action: state.action }, { action: state.action });
    }
  }

  /** Capabilities set together (a colour: hue and saturation) go in one /set. */
  async command(values) {
    if (!this.plan) throw new Error('zigbee2mqtt has not said what this device is yet');
    const command = {};
    for (const [cap, value] of Object.entries(values)) {
      const part = commandOf(this.plan, cap, value);
      if (!part) continue;
      for (const [k, v] of Object.entries(part)) command[k] = typeof v === 'object' && v !== null ? { ...command[k], ...v } : v;
    }
    if (Object.keys(command).length === 0) return;
    if (!this.bridge.set(this.name, command)) throw new Error(this.bridge.problem ?? 'cannot reach the MQTT broker');
  }

  async onUninit() {
    this.bridge.off('state', this.onState);
    this.bridge.off('availability', this.onAvailability);
    this.bridge.off('devices', this.onDevices);
    this.bridge.off('status', this.onStatus);
  }
}

module.exports = ZigbeeDevice;
