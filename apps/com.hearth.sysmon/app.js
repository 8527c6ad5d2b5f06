'use strict';
/**
 * System monitor: every `interval` seconds records the 1-minute load average per core and,
 * when the board exposes one, the temperature of thermal zone 0 into insights.
 * os.loadavg() needs no file access; the thermal zone needs the hearth:system:sensors permission.
 */
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

class SystemMonitor {
  async onInit(hub) {
    this.hub = hub;
    this.load = await hub.insights.createLog('cpu-load', { title: hub.__('log.load'), type: 'number', decimals: 2 });
    if (readTemperature() !== null) {
      this.temperature = await hub.insights.createLog('temperature', {
        title: hub.__('log.temperature'), type: 'number', units: '°C', decimals: 1,
      });
    }
    hub.settings.on('set', (key) => {
      if (key === 'interval') void this.schedule();
    });
    await this.schedule();
    await this.sample();
    hub.log(`monitoring every ${this.seconds} s${this.temperature ? ' with temperature' : ''}`);
  }

  async schedule() {
    const value = Number(await this.hub.settings.get('interval'));
    this.seconds = Number.isFinite(value) && value >= 5 ? value : 60;
    clearInterval(this.timer);
    this.timer = setInterval(() => this.sample().catch((err) => this.hub.error('sample failed:', err.message)), this.seconds * 1000);
  }

  async sample() {
    await this.load.createEntry(os.loadavg()[0] / Math.max(1, os.cpus().length));
    const t = readTemperature();
    if (this.temperature && t !== null) await this.temperature.createEntry(t);
  }

  async onUninit() {
    clearInterval(this.timer);
  }
}

module.exports = SystemMonitor;
