'use strict';

const { randomUUID } = require('node:crypto');
const Homey = require('homey');

/**
 * A driver whose pairing lists one new device each time: a virtual device can be added as often
 * as a family likes (a real driver lists what it finds; Homey leaves out what is paired already).
 */
class VirtualDriver extends Homey.Driver {
  async onPairListDevices() {
    const names = this.manifest.name;
    const name = names[this.homey.i18n.getLanguage()] ?? names.en;
    const count = this.getDevices().length;
    return [{ name: count === 0 ? name : `${name} ${count + 1}`, data: { id: randomUUID() } }];
  }
}

module.exports = VirtualDriver;
