/**
 * A LAN driver app written from Homey's Wi-Fi discovery docs: an mdns-sd strategy in app.json,
 * the driver pairing what `getDiscoveryStrategy().getDiscoveryResults()` holds, the device
 * finding its address in onDiscoveryResult / onDiscoveryAvailable and talking HTTP to it. The
 * device is a simulator the test starts on 127.0.0.1 and announces with real mDNS (multicast-dns
 * on the test's own addresses); when it moves to another port, the device follows
 * (onDiscoveryAddressChanged).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import multicastDns from 'multicast-dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { writeHomeyApp } from '../../homey/apps.js';
import { waitAppRunning } from '../dashboards/helpers.js';

const APP = 'com.example.lanlamp';
const DRIVER = `homey:app:${APP}:lamp`;
/** A service name of this run's own, so another test's (or machine's) announcements do not mix in. */
const SERVICE = `hl${process.pid}`;

const DRIVER_JS = `'use strict';
const Homey = require('homey');

module.exports = class LanLampDriver extends Homey.Driver {
  async onPairListDevices() {
    const results = this.getDiscoveryStrategy().getDiscoveryResults();
    return Object.values(results).map((r) => ({ name: r.txt.name, data: { id: r.id } }));
  }
};
`;

const DEVICE_JS = `'use strict';
const Homey = require('homey');

module.exports = class LanLampDevice extends Homey.Device {
  async onInit() {
    this.registerCapabilityListener('onoff', async (value) => {
      const res = await fetch('http://' + this.address + '/set?on=' + value);
      if (!res.ok) throw new Error('the lamp answered ' + res.status);
    });
  }

  onDiscoveryResult(result) {
    return result.id === this.getData().id;
  }

  async onDiscoveryAvailable(result) {
    this.address = result.address + ':' + result.port;
    this.log('found at', this.address);
    const state = await (await fetch('http://' + this.address + '/state')).json();
    await this.setCapabilityValue('onoff', state.on);
  }

  onDiscoveryAddressChanged(result) {
    this.address = result.address + ':' + result.port;
    this.log('moved to', this.address);
  }
};
`;

interface Lamp {
  server: Server;
  port: number;
  calls: string[];
}

let hub: RunningHub;
let mdns: ReturnType<typeof multicastDns>;
let lamp: Lamp;
let on = true;

async function startLamp(): Promise<Lamp> {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    calls.push(req.url ?? '');
    if (req.url?.startsWith('/set?on=')) on = req.url.endsWith('true');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ on }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, calls };
}

/** The lamp's mDNS answer: its service instance, port, address and TXT (id, name). */
function announce(): void {
  const fullname = `Desk lamp._${SERVICE}._tcp.local`;
  mdns.respond({
    answers: [{ name: `_${SERVICE}._tcp.local`, type: 'PTR', data: fullname }],
    additionals: [
      { name: fullname, type: 'SRV', data: { port: lamp.port, target: 'desklamp.local' } },
      { name: fullname, type: 'TXT', data: ['id=lamp-7', 'name=Desk lamp'] },
      { name: 'desklamp.local', type: 'A', data: '127.0.0.1' },
    ],
  });
}

beforeAll(async () => {
  lamp = await startLamp();
  mdns = multicastDns();
  mdns.on('query', (q) => {
    if (q.questions.some((x) => x.name.toLowerCase() === `_${SERVICE}._tcp.local`)) announce();
  });
  const appsDir = await tempDir('hearth-lan-apps-');
  await writeHomeyApp(appsDir, APP, {
    json: {
      discovery: { desklamp: { type: 'mdns-sd', 'mdns-sd': { name: SERVICE, protocol: 'tcp' }, id: '{{txt.id}}' } },
      drivers: [{ id: 'lamp', name: { en: 'Desk lamp' }, class: 'light', capabilities: ['onoff'], connectivity: ['lan'], discovery: 'desklamp' }],
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'drivers/lamp/driver.js': DRIVER_JS,
      'drivers/lamp/device.js': DEVICE_JS,
    },
  });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
});

afterAll(async () => {
  mdns?.destroy();
  lamp?.server.close();
  await hub?.cleanup();
});

const stdout = async (): Promise<string> => (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${APP}/crashlog`, { body: {} })).body.stdout;

describe('a LAN lamp found by mDNS-SD', () => {
  let id: string;

  it('pairs the lamp the discovery found, named by its TXT record', async () => {
    const session = await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { driverId: DRIVER } });
    const listed = await poll(
      () =>
        hub.call<Array<{ name: string; data: unknown }>>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, {
          body: { event: 'list_devices' },
        }),
      (r) => r.status === 200 && r.body.length > 0,
      'the discovery to find the lamp',
    );
    expect(listed.body).toEqual([{ name: 'Desk lamp', data: { id: 'lamp-7' } }]);
    const added = await hub.call<{ id: string }>('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: listed.body[0] });
    expect(added.status).toBe(201);
    id = added.body.id;
  });

  it('reads the state from the address it was found at, and switches the lamp over HTTP', async () => {
    expect(await poll(stdout, (s) => s.includes('found at'), 'the device to find its address')).toContain(`found at 127.0.0.1:${lamp.port}`);
    await poll(
      () => hub.call<unknown>('GET', `/api/manager/devices/device/${id}/capability/onoff`),
      (r) => r.body === true,
      'the state the lamp reported',
    );
    expect((await hub.call('PUT', `/api/manager/devices/device/${id}/capability/onoff`, { body: { value: false } })).status).toBe(200);
    expect(lamp.calls).toContain('/set?on=false');
    expect(on).toBe(false);
  });

  it('follows the lamp to its new port', async () => {
    const old = lamp;
    lamp = await startLamp();
    old.server.close();
    announce();
    expect(await poll(stdout, (s) => s.includes('moved to'), 'the device to follow the lamp')).toContain(`moved to 127.0.0.1:${lamp.port}`);
    expect((await hub.call('PUT', `/api/manager/devices/device/${id}/capability/onoff`, { body: { value: true } })).status).toBe(200);
    expect(lamp.calls).toContain('/set?on=true');
  });
});
