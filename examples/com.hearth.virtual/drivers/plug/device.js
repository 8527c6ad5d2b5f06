'use strict';

const Homey = require('homey');

const TICK_S = 10;

/** A plug that measures what is plugged in: its set load (give or take 2%) while on, counted into kWh. */
class VirtualPlug extends Homey.Device {
  async onInit() {
    this.registerCapabilityListener('onoff', async (on) => {
      await this.setCapabilityValue('measure_power', on ? this.load() : 0);
    });
    if (this.getCapabilityValue('meter_power') === null) await this.setCapabilityValue('meter_power', 0);
    this.timer = this.homey.setInterval(() => this.tick().catch(this.error), TICK_S * 1000);
  }

  load() {
    const watts = this.getSetting('load');
    return Math.round(watts * (0.98 + Math.random() * 0.04) * 10) / 10;
  }

  async tick() {
    const power = this.getCapabilityValue('onoff') ? this.load() : 0;
    await this.setCapabilityValue('measure_power', power);
    const kWh = (this.getCapabilityValue('meter_power') ?? 0) + (power * TICK_S) / 3600 / 1000;
    await this.setCapabilityValue('meter_power', Math.round(kWh * 100000) / 100000);
  }

  async onSettings({ newSettings, changedKeys }) {
    if (changedKeys.includes('load') && this.getCapabilityValue('onoff')) await this.setCapabilityValue('measure_power', newSettings.load);
  }

  async onUninit() {
    this.homey.clearInterval(this.timer);
  }
}

module.exports = VirtualPlug;
