'use strict';

const Homey = require('homey');

const TICK_S = 30;
const COOLEST = 16;

/** A room heated towards its target while the mode heats, cooling slowly otherwise. */
class VirtualThermostat extends Homey.Device {
  async onInit() {
    if (this.getCapabilityValue('target_temperature') === null) await this.setCapabilityValue('target_temperature', 20);
    if (this.getCapabilityValue('measure_temperature') === null) await this.setCapabilityValue('measure_temperature', 19);
    if (this.getCapabilityValue('thermostat_mode') === null) await this.setCapabilityValue('thermostat_mode', 'heat');
    this.registerMultipleCapabilityListener(['target_temperature', 'thermostat_mode'], async () => undefined);
    this.timer = this.homey.setInterval(() => this.tick().catch(this.error), TICK_S * 1000);
  }

  async tick() {
    const now = this.getCapabilityValue('measure_temperature');
    const target = this.getCapabilityValue('target_temperature');
    const heating = ['heat', 'auto'].includes(this.getCapabilityValue('thermostat_mode')) && now < target;
    const next = heating ? Math.min(target, now + 0.2) : Math.max(COOLEST, now - 0.05);
    if (next !== now) await this.setCapabilityValue('measure_temperature', Math.round(next * 100) / 100);
  }

  async eco() {
    await this.setCapabilityValue('target_temperature', this.getSetting('eco'));
    return true;
  }

  async onUninit() {
    this.homey.clearInterval(this.timer);
  }
}

module.exports = VirtualThermostat;
