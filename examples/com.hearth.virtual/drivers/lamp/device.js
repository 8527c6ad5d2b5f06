'use strict';

const Homey = require('homey');

/** A dimmable colour lamp: it takes what it is told, and comes on at its set brightness. */
class VirtualLamp extends Homey.Device {
  async onInit() {
    this.registerMultipleCapabilityListener(['onoff', 'dim', 'light_hue', 'light_saturation', 'light_temperature', 'light_mode'], async (values) => {
      // Switched on while dimmed to nothing: on at the brightness its settings give.
      if (values.onoff === true && values.dim === undefined && !this.getCapabilityValue('dim')) {
        await this.setCapabilityValue('dim', this.getSetting('onBrightness') / 100);
      }
      // Dimmed: on when above nothing, off at nothing, as a lamp does.
      if (values.dim !== undefined && values.onoff === undefined) await this.setCapabilityValue('onoff', values.dim > 0);
    });
  }

  /** Off and on `times` times, then as it was. */
  async flash(times = 3) {
    const was = this.getCapabilityValue('onoff') === true;
    for (let i = 0; i < times * 2; i++) {
      await this.setCapabilityValue('onoff', i % 2 === (was ? 0 : 1) ? !was : was);
      await new Promise((resolve) => this.homey.setTimeout(resolve, 300));
    }
    await this.setCapabilityValue('onoff', was);
    return true;
  }
}

module.exports = VirtualLamp;
