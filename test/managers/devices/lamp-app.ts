/**
 * A driver app written from Homey's public docs (Drivers & Devices, Capabilities, Pairing: the
 * default list_devices pairing, registerCapabilityListener, registerMultipleCapabilityListener,
 * setCapabilityValue, store values, device settings in a group, an app's own capability), and
 * pairing one of its devices headless through the drivers Web API.
 */
import type { RunningHub } from '../../helpers/hub.js';
import { writeHomeyApp } from '../../homey/apps.js';

export const APP = 'com.example.virtual';
export const DRIVER = `homey:app:${APP}:lamp`;

const DRIVER_JS = `'use strict';
const Homey = require('homey');

class LampDriver extends Homey.Driver {
  async onInit() {
    this.log('LampDriver has been initialized');
  }

  async onPairListDevices() {
    return [
      { name: 'Lamp 1', data: { id: 'lamp-1' }, store: { address: '10.0.0.7' } },
      { name: 'Lamp 2', data: { id: 'lamp-2' } },
    ];
  }
}

module.exports = LampDriver;
`;

const DEVICE_JS = `'use strict';
const Homey = require('homey');

class LampDevice extends Homey.Device {
  async onInit() {
    this.log('device init', this.getName(), JSON.stringify(this.getData()), this.getStoreValue('address'), this.getSetting('ip'));
    this.registerCapabilityListener('onoff', async (value) => {
      this.log('onoff ->', value);
      await this.setCapabilityValue('measure_temperature', value ? 21.5 : 18);
      // A device that takes a moment to answer: the new reading is published before the switch's.
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    this.registerMultipleCapabilityListener(['dim', 'my_level'], async (values) => {
      this.log('multiple ->', JSON.stringify(values));
    }, 300);
  }

  async onAdded() {
    this.log('added', this.getName());
    await this.setStoreValue('pairedAt', 'today');
  }

  async onSettings({ oldSettings, newSettings, changedKeys }) {
    if (newSettings.ip === 'bad') throw new Error('That is not an IP address');
    this.log('settings', JSON.stringify(changedKeys), oldSettings.ip, '->', newSettings.ip);
  }

  async onRenamed(name) {
    this.log('renamed to', name);
  }

  async onDeleted() {
    this.log('deleted', this.getName());
  }
}

module.exports = LampDevice;
`;

export interface Device {
  id: string;
  name: string;
  zone: string;
  driverId: string;
  available: boolean;
  unavailableMessage: string | null;
  capabilities: string[];
  capabilitiesObj: Record<string, { value: unknown; setable: boolean; title: string; units: string | null; max: number | null }>;
  settings: Record<string, unknown>;
}

/** Writes the lamp app into `appsDir`. */
export async function writeLampApp(appsDir: string): Promise<void> {
  await writeHomeyApp(appsDir, APP, {
    json: {
      capabilities: {
        my_level: { type: 'number', title: { en: 'My level' }, getable: true, setable: true, min: 0, max: 10, units: { en: 'lv' } },
      },
      drivers: [
        {
          id: 'lamp',
          name: { en: 'Lamp' },
          class: 'light',
          capabilities: ['onoff', 'dim', 'measure_temperature', 'my_level'],
          platforms: ['local'],
          connectivity: ['lan'],
          settings: [
            {
              type: 'group',
              label: { en: 'Connection' },
              children: [{ id: 'ip', type: 'text', label: { en: 'IP address' }, value: '0.0.0.0' }],
            },
          ],
        },
      ],
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App { async onInit() { this.log('app init'); } };\n",
      'drivers/lamp/driver.js': DRIVER_JS,
      'drivers/lamp/device.js': DEVICE_JS,
    },
  });
}

/** Pairs 'Lamp <index + 1>' of the two the driver lists through a pairing session, as a script would. */
export async function pairLamp(hub: RunningHub, index = 0): Promise<Device> {
  const session = await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { type: 'pair', driverId: DRIVER } });
  const listed = await hub.call<Array<{ name: string }>>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, {
    body: { event: 'list_devices' },
  });
  // By name: the list leaves out the lamps paired already, so a position would shift.
  const lamp = listed.body.find((d) => d.name === `Lamp ${index + 1}`);
  const added = await hub.call<Device>('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: lamp });
  await hub.call('DELETE', `/api/manager/drivers/pairsession/${session.body.id}`);
  if (added.status !== 201) throw new Error(`pairing failed: ${added.text}`);
  return added.body;
}
