/**
 * SSDP and MAC discovery, in an app written from Homey's Wi-Fi discovery docs: an `ssdp` strategy
 * (a search target, `{{headers.usn}}` as the id, a condition on `headers.st`) and a `mac` one (a
 * manufacturer's first three bytes). The SSDP device is a responder the test runs on this
 * machine's own addresses (real multicast on 239.255.255.250:1900, answering the hub's M-SEARCH);
 * the MAC one is a real neighbour of this machine, read from its own ARP table (the test is
 * skipped, saying so, on a machine whose table is empty).
 */
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { writeHomeyApp } from '../../homey/apps.js';
import { waitAppRunning } from '../dashboards/helpers.js';

const APP = 'com.example.finder';
/** A search target of this run's own, so another test's (or machine's) devices do not mix in. */
const TARGET = `urn:schemas-hearth-test:device:Amp${process.pid}:1`;
const USN = `uuid:amp-${process.pid}::${TARGET}`;

/** A real neighbour of this machine (its ARP table), if it has one. */
const neighbour = (() => {
  try {
    const rows = readFileSync('/proc/net/arp', 'utf8').split('\n').slice(1);
    for (const row of rows) {
      const [address, , flags, mac] = row.trim().split(/\s+/);
      if (address && mac && (Number.parseInt(flags ?? '0', 16) & 2) !== 0 && mac !== '00:00:00:00:00:00') return { address, mac: mac.toLowerCase() };
    }
  } catch {
    /* no table: not Linux */
  }
  return null;
})();
const manufacturer = neighbour
  ? neighbour.mac
      .split(':')
      .slice(0, 3)
      .map((b) => Number.parseInt(b, 16))
  : [1, 2, 3];

const DRIVER_JS = `'use strict';
const Homey = require('homey');

module.exports = class FinderDriver extends Homey.Driver {
  async onPairListDevices() {
    const results = this.getDiscoveryStrategy().getDiscoveryResults();
    return Object.values(results).map((r) => ({ name: r.headers ? r.headers.server : r.mac, data: { id: r.id } }));
  }
};
`;

const DEVICE_JS = `'use strict';
const Homey = require('homey');

module.exports = class FinderDevice extends Homey.Device {
  onDiscoveryResult(result) {
    return result.id === this.getData().id;
  }

  async onDiscoveryAvailable(result) {
    this.log('available', JSON.stringify({ address: result.address, port: result.port, st: result.headers && result.headers.st, mac: result.mac }));
  }
};
`;

let hub: RunningHub;
let responder: Socket;
let searches = 0;

beforeAll(async () => {
  // The device: answers an M-SEARCH for its target, as an SSDP device does, to the searcher itself.
  responder = createSocket({ type: 'udp4', reuseAddr: true });
  responder.on('message', (msg, from) => {
    const text = msg.toString('utf8');
    if (!text.startsWith('M-SEARCH') || !text.includes(`ST: ${TARGET}`)) return;
    searches++;
    const answer = [
      'HTTP/1.1 200 OK',
      'CACHE-CONTROL: max-age=1800',
      'EXT:',
      'LOCATION: http://127.0.0.1:60006/description.xml',
      'SERVER: Linux/6 UPnP/1.0 HearthAmp/1.0',
      `ST: ${TARGET}`,
      `USN: ${USN}`,
      '',
      '',
    ].join('\r\n');
    responder.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve) => responder.bind(1900, resolve));
  responder.addMembership('239.255.255.250');

  const appsDir = await tempDir('hearth-ssdp-apps-');
  await writeHomeyApp(appsDir, APP, {
    json: {
      discovery: {
        amp: {
          type: 'ssdp',
          ssdp: { search: TARGET },
          id: '{{headers.usn}}',
          conditions: [[{ field: 'headers.st', match: { type: 'string', value: TARGET } }]],
        },
        router: { type: 'mac', mac: { manufacturer: [manufacturer] } },
      },
      drivers: [
        { id: 'amp', name: { en: 'Amplifier' }, class: 'amplifier', capabilities: ['onoff'], connectivity: ['lan'], discovery: 'amp' },
        { id: 'router', name: { en: 'Router' }, class: 'other', capabilities: [], connectivity: ['lan'], discovery: 'router' },
      ],
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'drivers/amp/driver.js': DRIVER_JS,
      'drivers/amp/device.js': DEVICE_JS,
      'drivers/router/driver.js': DRIVER_JS,
      'drivers/router/device.js': DEVICE_JS,
    },
  });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
}, 60_000);

afterAll(async () => {
  responder?.close();
  await hub?.stop();
  await hub?.cleanup();
});

const stdout = async (): Promise<string> => (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${APP}/crashlog`, { body: {} })).body.stdout;

async function pairFirst(driver: string): Promise<{ name: string; data: { id: string } }> {
  const session = await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { driverId: `homey:app:${APP}:${driver}` } });
  const listed = await poll(
    () =>
      hub.call<Array<{ name: string; data: { id: string } }>>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, {
        body: { event: 'list_devices' },
      }),
    (r) => r.status === 200 && r.body.length > 0,
    `the ${driver} discovery to find something`,
    200,
    100,
  );
  const found = listed.body[0]!;
  expect((await hub.call('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: found })).status).toBe(201);
  await hub.call('DELETE', `/api/manager/drivers/pairsession/${session.body.id}`);
  return found;
}

describe('SSDP discovery', () => {
  it("finds the device that answers the search, with its headers, and its device hears it's available", async () => {
    const found = await pairFirst('amp');
    expect(found).toEqual({ name: 'Linux/6 UPnP/1.0 HearthAmp/1.0', data: { id: USN } });
    expect(searches).toBeGreaterThan(0);
    await poll(stdout, (out) => out.includes('available {'), 'the device to hear its discovery result');
    const line = (await stdout()).split('\n').find((l) => l.includes('available {'))!;
    expect(JSON.parse(line.slice(line.indexOf('{')))).toMatchObject({ port: '60006', st: TARGET });
  });
});

describe.skipIf(neighbour === null)('MAC discovery (skipped on a machine with no ARP neighbour)', () => {
  it("finds this machine's neighbour by its manufacturer's bytes, its MAC address as the id", async () => {
    const found = await pairFirst('router');
    expect(found).toEqual({ name: neighbour!.mac, data: { id: neighbour!.mac } });
    await poll(stdout, (out) => out.includes(`"mac":"${neighbour!.mac}"`), 'the router device to hear its discovery result');
    expect(await stdout()).toContain(`"address":"${neighbour!.address}"`);
  });
});
