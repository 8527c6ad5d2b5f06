'use strict';

// Pairing: the code (the pincode view), then the device's endpoints as the list to add. A
// device shared from another app (Apple Home, Google Home, SmartThings, Alexa) is paired with the
// code that app shows when it "shares" or "turns on pairing mode"; an IP device fresh from its
// box with the code printed on it. A device that joins by Bluetooth from its box (most Thread
// devices) must be added to a phone's app first, then shared: hearth has no Bluetooth.
const Homey = require('homey');
const { normalCode } = require('../../lib/code');
const { planOf, partName, BEHAVIORS } = require('../../lib/mapping');

class MatterDriver extends Homey.Driver {
  async onPair(session) {
    let found = [];
    session.setHandler('pincode', async (digits) => {
      // A code that is none is told before matter.js is loaded for it.
      const code = normalCode(Array.isArray(digits) ? digits.join('') : digits);
      const controller = await this.homey.app.controller();
      let device;
      try {
        device = await controller.commission(code);
      } catch (err) {
        throw new Error(commissioningProblem(err));
      }
      found = this.offered(controller, device);
      this.log(`commissioned ${device.name} (${device.id}): ${found.length} endpoint(s) to add`);
      return true;
    });
    session.setHandler('list_devices', async () => found);
  }

  /** One hearth device per endpoint that has something Homey can show. */
  offered(controller, device) {
    const out = [];
    for (const { number } of device.endpoints) {
      const ep = controller.endpoint(device.id, number);
      const plan = planOf(ep.state(BEHAVIORS), ep.deviceTypes);
      if (plan.capabilities.length === 0) continue;
      out.push({ number, plan, part: partName(ep.deviceTypes, number) });
    }
    // Parts of one device are told apart by what they are; two of a kind by their number too.
    const twice = (part) => out.filter((o) => o.part === part).length > 1;
    return out.map(({ number, plan, part }) => ({
      name: out.length > 1 ? `${device.name} (${twice(part) ? `${part} ${number}` : part})` : device.name,
      data: { id: `${device.id}:${number}` },
      store: { peer: device.id, endpoint: number },
      class: plan.class,
      capabilities: plan.capabilities,
    }));
  }
}

/** What went wrong, in a sentence a family can act on. */
function commissioningProblem(err) {
  const text = String(err?.message ?? err);
  if (/pairing code|not a Matter/i.test(text)) return text;
  if (/timed? ?out|discover|not found|no address/i.test(text)) {
    return 'No Matter device answered this code on the network. Check that it is in pairing mode (or that the other app shared it just now: the code lasts a few minutes), that it is on the same network as the hub, and that it joins over the network: a device that needs Bluetooth to join must be added with a phone app first, then shared';
  }
  if (/passcode|PASE|spake/i.test(text)) return 'The device refused this code: check it, or ask the other app for a new one';
  return `The device could not be added: ${text}`;
}

module.exports = MatterDriver;
