'use strict';

// Pairing lists what zigbee2mqtt knows (its bridge/devices, the coordinator and unsupported
// devices left out) and lets new devices join for two minutes while the list is open: a device
// put in pairing mode then shows up when the list is asked for again.
const Homey = require('homey');
const { planOf } = require('../../lib/exposes');

const JOIN_S = 120;

class ZigbeeDriver extends Homey.Driver {
  async onPairListDevices() {
    const bridge = this.homey.app.bridge;
    if (bridge.problem) throw new Error(`${bridge.problem}: set the broker's address in the app's settings`);
    bridge.permitJoin(JOIN_S);
    return bridge.devices
      .filter((d) => d.definition && d.supported !== false)
      .map((d) => {
        const plan = planOf(d.definition.exposes);
        return {
          name: d.friendly_name,
          data: { id: d.ieee_address },
          store: { name: d.friendly_name, model: d.definition.model, mains: /mains/i.test(d.power_source ?? '') },
          capabilities: plan.capabilities,
          capabilitiesOptions: plan.capabilitiesOptions,
          ...(plan.capabilities.length === 0 ? { class: 'other' } : { class: classOf(plan.capabilities, plan.actions) }),
        };
      });
  }
}

/** Homey's device class from what the device can do. */
function classOf(caps, actions) {
  if (caps.includes('light_temperature') || caps.includes('light_hue') || (caps.includes('dim') && caps.includes('onoff'))) return 'light';
  if (caps.includes('windowcoverings_set')) return 'blinds';
  if (caps.includes('locked')) return 'lock';
  if (caps.includes('target_temperature')) return 'thermostat';
  if (caps.includes('onoff')) return 'socket';
  if (actions && actions.length > 0) return 'remote';
  return 'sensor';
}

module.exports = ZigbeeDriver;
