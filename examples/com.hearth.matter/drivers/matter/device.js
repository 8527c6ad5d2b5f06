'use strict';

// One endpoint of a Matter device: its attributes, as the controller's subscription reports
// them, become capability values (lib/mapping.js); a capability set becomes a command (or an
// attribute write). Unavailable while the device cannot be reached; removed from the controller
// (the device told to leave hearth's fabric) when the last of its endpoints is deleted here.
const Homey = require('homey');
const { valuesOf, commandOf, BEHAVIORS } = require('../../lib/mapping');
const { within } = require('../../lib/within');

const UNREACHABLE = 'The Matter device cannot be reached: is it powered and on the network?';
/**
 * How long a command may wait for the device: under the hub's 10 s for a capability listener, so
 * the person hears why (matter.js itself gives up after its retransmissions, ~14 s).
 */
const COMMAND_MS = 8000;

class MatterDevice extends Homey.Device {
  async onInit() {
    this.peerId = this.getStoreValue('peer');
    this.number = this.getStoreValue('endpoint');
    for (const cap of this.getCapabilities()) this.registerCapabilityListener(cap, (value) => this.command(cap, value));
    this.controller = await this.homey.app.controller();
    this.onReachable = (id, active) => {
      if (id === this.peerId) this.showReachable(active);
    };
    this.onRemoved = (id) => {
      if (id === this.peerId) this.setUnavailable('Removed from the Matter controller: pair it again to use it').catch(this.error);
    };
    this.controller.on('reachable', this.onReachable);
    this.controller.on('removed', this.onRemoved);
    let ep;
    try {
      ep = this.controller.endpoint(this.peerId, this.number);
    } catch (err) {
      await this.setUnavailable(err.message);
      return;
    }
    this.ep = ep;
    this.stopListening = ep.listen(BEHAVIORS, () => this.refresh().catch(this.error));
    await this.refresh();
    this.showReachable(this.controller.reachable(this.peerId));
  }

  showReachable(active) {
    if (active !== this.shown) this.log(active ? 'reachable' : 'cannot be reached');
    this.shown = active;
    (active ? this.setAvailable() : this.setUnavailable(UNREACHABLE)).catch(this.error);
  }

  async refresh() {
    if (!this.ep) return;
    const values = valuesOf(this.getCapabilities(), this.ep.state(BEHAVIORS), this.ep.deviceTypes);
    for (const [cap, value] of Object.entries(values)) {
      if (this.getCapabilityValue(cap) !== value) await this.setCapabilityValue(cap, value);
    }
  }

  async command(capability, value) {
    if (!this.ep) throw new Error(UNREACHABLE);
    const command = commandOf(capability, value, this.ep.state(BEHAVIORS), this.ep.deviceTypes);
    if (!command) throw new Error(`This Matter device cannot set ${capability}`);
    try {
      await within(this.ep.invoke(command), COMMAND_MS, this.homey);
    } catch (err) {
      // A command that cannot reach the device says so on the device too.
      if (/did not answer/.test(err.message)) this.controller.unreachable(this.peerId);
      else if (!this.controller.reachable(this.peerId)) this.showReachable(false);
      throw new Error(`The Matter device did not take it: ${err.message}`);
    }
  }

  /** Stops hearing the controller and the endpoint (deleted, or the app stopping). */
  stopHearing() {
    this.stopListening?.();
    this.controller?.off('reachable', this.onReachable);
    this.controller?.off('removed', this.onRemoved);
  }

  async onDeleted() {
    this.stopHearing();
    // The device leaves hearth's fabric with its last endpoint.
    const others = this.driver.getDevices().filter((d) => d !== this && d.getStoreValue('peer') === this.peerId);
    if (others.length === 0 && this.controller) {
      await this.controller.remove(this.peerId).catch((err) => this.error('could not remove the Matter device:', err.message));
    }
  }

  async onUninit() {
    this.stopHearing();
  }
}

module.exports = MatterDevice;
