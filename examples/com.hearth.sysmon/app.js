'use strict';
/**
 * System monitor: every `interval` seconds records the 1-minute load average per core and, when
 * the board exposes one, the temperature of thermal zone 0 into insights, and tells its open
 * widgets. Its settings page sets the interval; its Web API answers the latest readings.
 * os.loadavg() needs no file access; the thermal zone needs the hearth:system:sensors permission.
 * A Homey app written as CommonJS.
 */
const Homey = require('homey');
const os = require('node:os');
const fs = require('node:fs');

const THERMAL = '/sys/class/thermal/thermal_zone0/temp';

function readTemperature() {
  try {
    const milli = Number(fs.readFileSync(THERMAL, 'utf8').trim());
    return Number.isFinite(milli) ? milli / 1000 : null;
  } catch {
    return null; // no sensor on this board (or a VM)
  }
}

class SystemMonitor extends Homey.App {
  async onInit() {
    /** The latest reading per metric: { value, at }. */
    this.readings = {};
    this.logs = { 'cpu-load': await this.homey.insights.createLog('cpu-load', { title: this.homey.__('log.load'), type: 'number', decimals: 2 }) };
    if (readTemperature() !== null) {
      this.logs.temperature = await this.homey.insights.createLog('temperature', {
        title: this.homey.__('log.temperature'), type: 'number', units: '°C', decimals: 1,
      });
    }
    this.homey.settings.on('set', (key) => {
      if (key === 'interval') this.schedule();
    });
    this.schedule();
    await this.sample();
    this.log(`monitoring every ${this.seconds} s${this.logs.temperature ? ' with temperature' : ''}`);
  }

  schedule() {
    const value = Number(this.homey.settings.get('interval'));
    this.seconds = Number.isFinite(value) && value >= 5 ? value : 60;
    this.homey.clearInterval(this.timer);
    this.timer = this.homey.setInterval(() => this.sample().catch((err) => this.error('sample failed:', err.message)), this.seconds * 1000);
  }

  /** Takes one reading of each metric, records it, and sends it to the open widgets. */
  async sample() {
    const at = new Date().toISOString();
    const values = { 'cpu-load': os.loadavg()[0] / Math.max(1, os.cpus().length), temperature: readTemperature() };
    for (const [metric, value] of Object.entries(values)) {
      if (value === null || !this.logs[metric]) continue;
      this.readings[metric] = { value, at };
      await this.logs[metric].createEntry(value);
    }
    await this.homey.api.realtime('sample', this.readings);
    return this.readings;
  }
}

module.exports = SystemMonitor;
