'use strict';

const Homey = require('homey');

/** A door contact with a motion sensor: opened, closed and moved in front of by flow cards (or the Devices page). */
class VirtualDoor extends Homey.Device {
  async onInit() {
    if (this.getCapabilityValue('measure_battery') === null) await this.setCapabilityValue('measure_battery', 100);
    for (const id of ['alarm_contact', 'alarm_motion']) if (this.getCapabilityValue(id) === null) await this.setCapabilityValue(id, false);
  }

  /** The door opens or closes; open for longer than its setting, it triggers "left open". */
  async setOpen(open) {
    await this.setCapabilityValue('alarm_contact', open);
    if (this.leftOpen) this.homey.clearTimeout(this.leftOpen);
    this.leftOpen = undefined;
    if (open) {
      const minutes = this.getSetting('leftOpen');
      this.leftOpen = this.homey.setTimeout(() => {
        this.homey.flow
          .getDeviceTriggerCard('door_left_open')
          .trigger(this, { minutes })
          .catch(this.error);
      }, minutes * 60_000);
    }
    return true;
  }

  /** Someone walks past: motion, ended after its setting's seconds (another movement starts the wait again). */
  async motion() {
    await this.setCapabilityValue('alarm_motion', true);
    if (this.still) this.homey.clearTimeout(this.still);
    this.still = this.homey.setTimeout(() => this.setCapabilityValue('alarm_motion', false).catch(this.error), this.getSetting('motionReset') * 1000);
    return true;
  }

  async onUninit() {
    this.homey.clearTimeout(this.leftOpen);
    this.homey.clearTimeout(this.still);
  }
}

module.exports = VirtualDoor;
