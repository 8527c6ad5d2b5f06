'use strict';

// Zigbee devices through zigbee2mqtt: the home runs zigbee2mqtt with its Zigbee adapter somewhere
// on the LAN, and this app reads its devices over MQTT (lib/bridge.js) and makes each one a device
// of its own with Homey's capabilities (lib/exposes.js). The broker's address and zigbee2mqtt's
// base topic are the app's settings; a change reconnects.
const Homey = require('homey');
const { Bridge } = require('./lib/bridge');

class Zigbee2Mqtt extends Homey.App {
  async onInit() {
    this.bridge = new Bridge(this.homey);
    this.bridge.setMaxListeners(0);
    this.homey.settings.on('set', (key) => {
      if (key === 'broker' || key === 'baseTopic') this.bridge.start();
    });
    this.bridge.start();
  }

  async onUninit() {
    this.bridge.stop();
  }
}

module.exports = Zigbee2Mqtt;
