/**
 * A driver app with device flow cards, written from Homey's docs ("Flow" > device cards): its
 * driver's `driver.flow.compose.json` declares a device trigger "the bell rang" with a token and
 * an action "chime" (the Homey CLI gives each a `device` argument for this driver's devices when
 * it builds app.json, as written here). The driver fires the trigger for a device with
 * `getDeviceTriggerCard('rang').trigger(device, tokens)`; the action's listener gets the Device
 * instance as `args.device`.
 */
import type { RunningHub } from '../../helpers/hub.js';
import { writeHomeyApp } from '../../homey/apps.js';

export const BELL = 'com.example.doorbell';
export const BELL_DRIVER = `homey:app:${BELL}:bell`;
const DEVICE_ARG = { type: 'device', name: 'device', filter: 'driver_id=bell' };

export async function writeBellApp(appsDir: string): Promise<void> {
  await writeHomeyApp(appsDir, BELL, {
    json: {
      api: { ring: { method: 'POST', path: '/ring' } },
      flow: {
        triggers: [
          {
            id: 'rang',
            title: { en: 'The bell rang' },
            tokens: [{ name: 'visitor', type: 'string', title: { en: 'Visitor' }, example: 'the postman' }],
            args: [DEVICE_ARG],
          },
        ],
        actions: [{ id: 'chime', title: { en: 'Chime' }, args: [DEVICE_ARG, { type: 'number', name: 'times', title: { en: 'Times' }, min: 1, max: 5 }] }],
      },
      drivers: [{ id: 'bell', name: { en: 'Bell' }, class: 'doorbell', capabilities: ['onoff'], platforms: ['local'], connectivity: ['lan'] }],
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() { this.log('bell app'); } };\n",
      'drivers/bell/driver.js': `'use strict';
const Homey = require('homey');

module.exports = class BellDriver extends Homey.Driver {
  async onInit() {
    this.rang = this.homey.flow.getDeviceTriggerCard('rang');
    this.homey.flow.getActionCard('chime').registerRunListener(async (args, state) => {
      this.log('chime', args.device.getName(), args.times);
      await args.device.setCapabilityValue('onoff', true);
    });
    this.log('bell driver ready');
  }

  async onPairListDevices() {
    return [{ name: 'Front door', data: { id: 'front' } }, { name: 'Back door', data: { id: 'back' } }];
  }
};
`,
      'drivers/bell/device.js': `'use strict';
const Homey = require('homey');

module.exports = class BellDevice extends Homey.Device {
  async onInit() {
    this.registerCapabilityListener('onoff', async (value) => {
      this.log('onoff', value);
    });
  }
};
`,
      'api.js': `'use strict';
module.exports = {
  async ring({ homey, body }) {
    const driver = homey.drivers.getDriver('bell');
    const device = driver.getDevices().find((d) => d.getName() === body.door);
    await driver.rang.trigger(device, { visitor: body.visitor });
    return 'rang';
  },
};
`,
    },
  });
}

/** Pairs both doors. */
export async function pairBells(hub: RunningHub): Promise<Array<{ id: string; name: string }>> {
  const session = await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { type: 'pair', driverId: BELL_DRIVER } });
  const listed = await hub.call<unknown[]>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, { body: { event: 'list_devices' } });
  const out: Array<{ id: string; name: string }> = [];
  for (const d of listed.body) {
    const added = await hub.call<{ id: string; name: string }>('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: d });
    if (added.status !== 201) throw new Error(`pairing failed: ${added.text}`);
    out.push(added.body);
  }
  await hub.call('DELETE', `/api/manager/drivers/pairsession/${session.body.id}`);
  return out;
}
