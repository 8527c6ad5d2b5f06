'use strict';

// Virtual devices: a lamp, a metering plug, the home's energy meter, a climate sensor, a door
// sensor with motion and a thermostat, written as any Homey driver app is (Homey's SDK v3 docs: drivers, devices,
// capabilities, settings, device flow cards). Nothing here talks to hardware: each device makes
// up plausible values, so a hub can be tried (and tested) on the first day.
const Homey = require('homey');

class VirtualDevices extends Homey.App {
  async onInit() {
    const flow = this.homey.flow;
    flow.getActionCard('flash').registerRunListener(({ device, times }) => device.flash(times));
    flow.getActionCard('simulate_open').registerRunListener(({ device }) => device.setOpen(true));
    flow.getActionCard('simulate_close').registerRunListener(({ device }) => device.setOpen(false));
    flow.getActionCard('simulate_motion').registerRunListener(({ device }) => device.motion());
    flow.getActionCard('eco').registerRunListener(({ device }) => device.eco());
    flow.getConditionCard('power_above').registerRunListener(({ device, watts }) => (device.getCapabilityValue('measure_power') ?? 0) > watts);
    this.log('Virtual devices is running');
  }
}

module.exports = VirtualDevices;
