'use strict';

// Matter devices on the home's network (Wi-Fi, Ethernet, or Thread behind the border router the
// home already has), paired by the code another app shows when it shares a device, or printed on
// an IP device. The controller (lib/controller.mjs, on matter.js, which the hub lends) starts
// only when the home has a Matter device or pairs one.
const Homey = require('homey');
const path = require('node:path');

class MatterApp extends Homey.App {
  async onInit() {
    // hearth starts every app in its userdata (Homey's /userdata): the fabric, its keys and each
    // device's last state are kept with the app, in its backups.
    this.storage = path.join(process.cwd(), 'matter');
    // Started by the first Matter device as it starts (so at every start of a home that has one:
    // they reconnect by themselves) or by a pairing; a home that only tried a code pays nothing.
    this.starting = null;
  }

  /** The running controller, started on first use. */
  controller() {
    if (!this.starting) {
      this.starting = (async () => {
        const { Controller } = await import('./lib/controller.mjs');
        const controller = new Controller({ storage: this.storage, log: (...a) => this.log(...a) });
        await controller.start();
        this.log(`Matter controller started, ${controller.peers().length} device(s)`);
        return controller;
      })();
      this.starting.catch(() => {
        this.starting = null;
      });
    }
    return this.starting;
  }

  async onUninit() {
    if (this.starting) await (await this.starting.catch(() => null))?.close();
  }
}

module.exports = MatterApp;
