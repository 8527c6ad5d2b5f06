'use strict';

const Homey = require('homey');

const TICK_S = 10;

/**
 * The home's own meter (a P1 smart meter, as Homey's energy docs call a cumulative device): what the
 * whole house takes from the grid now, and the kWh taken and given back, counting up. A virtual
 * house draws what this app's plugs measure, what its lamps are estimated to use, and a base load
 * no device accounts for (the fridge, the router: its setting); its solar setting makes power,
 * and what the house does not use goes back to the grid.
 */
class VirtualMeter extends Homey.Device {
  async onInit() {
    for (const cap of ['meter_power.imported', 'meter_power.exported']) {
      if (this.getCapabilityValue(cap) === null) await this.setCapabilityValue(cap, 0);
    }
    await this.tick(0);
    this.timer = this.homey.setInterval(() => this.tick(TICK_S).catch(this.error), TICK_S * 1000);
  }

  /** What this app's devices draw now (W): the plugs' measured power and the lamps' estimates. */
  devicesPower() {
    let watts = 0;
    for (const plug of this.homey.drivers.getDriver('plug').getDevices()) watts += plug.getCapabilityValue('measure_power') ?? 0;
    const lamps = this.homey.drivers.getDriver('lamp');
    const usage = lamps.manifest.energy?.approximation ?? {};
    for (const lamp of lamps.getDevices()) watts += lamp.getCapabilityValue('onoff') ? (usage.usageOn ?? 0) : (usage.usageOff ?? 0);
    return watts;
  }

  /** The house's power now, and `seconds` of it counted into the meters. */
  async tick(seconds) {
    const power = Math.round((this.devicesPower() + this.getSetting('baseLoad') - this.getSetting('solar')) * 10) / 10;
    await this.setCapabilityValue('measure_power', power);
    if (seconds === 0) return;
    const cap = power >= 0 ? 'meter_power.imported' : 'meter_power.exported';
    const kWh = (this.getCapabilityValue(cap) ?? 0) + (Math.abs(power) * seconds) / 3600 / 1000;
    await this.setCapabilityValue(cap, Math.round(kWh * 100000) / 100000);
  }

  async onUninit() {
    this.homey.clearInterval(this.timer);
  }
}

module.exports = VirtualMeter;
