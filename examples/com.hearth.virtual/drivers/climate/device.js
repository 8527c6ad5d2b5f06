'use strict';

const Homey = require('homey');

/** A room's temperature and humidity, drifting over the day, reported every few seconds to minutes. */
class VirtualClimate extends Homey.Device {
  async onInit() {
    if (this.getCapabilityValue('measure_battery') === null) await this.setCapabilityValue('measure_battery', 100);
    await this.report();
    this.schedule(this.getSetting('interval'));
  }

  schedule(seconds) {
    if (this.timer) this.homey.clearInterval(this.timer);
    this.timer = this.homey.setInterval(() => this.report().catch(this.error), seconds * 1000);
  }

  async report() {
    const hour = new Date().getHours() + new Date().getMinutes() / 60;
    // Warmest mid-afternoon, coolest before dawn; humidity the other way round.
    const day = Math.sin(((hour - 9) / 24) * 2 * Math.PI);
    const noise = () => (Math.random() - 0.5) * 0.2;
    await this.setCapabilityValue('measure_temperature', Math.round((20.5 + 1.5 * day + noise()) * 10) / 10);
    await this.setCapabilityValue('measure_humidity', Math.round(47 - 6 * day + noise() * 10));
  }

  async onSettings({ newSettings, changedKeys }) {
    if (changedKeys.includes('interval')) this.schedule(newSettings.interval);
  }

  async onUninit() {
    this.homey.clearInterval(this.timer);
  }
}

module.exports = VirtualClimate;
