/**
 * An MQTT driver app against a real broker (Debian's mosquitto, started by the test on a free
 * port): written from Homey's docs (drivers, `Homey.env` from env.json, capability listeners) and
 * the `mqtt` package's README, as community apps for Tasmota-like plugs are. The app's `mqtt` is
 * the real package, bundled into its node_modules as `homey app build` would leave it. A plug
 * simulator in the test answers the app's commands and reports a press of its button.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { type Broker, startMosquitto } from '../../helpers/mosquitto.js';
import { poll } from '../../helpers/poll.js';
import { writeHomeyApp } from '../../homey/apps.js';
import { waitAppRunning } from '../dashboards/helpers.js';

const APP = 'com.example.mqttplug';
const DRIVER = `homey:app:${APP}:plug`;

const DRIVER_JS = `'use strict';
const Homey = require('homey');
const mqtt = require('mqtt');

module.exports = class PlugDriver extends Homey.Driver {
  async onPairListDevices() {
    const client = await mqtt.connectAsync(Homey.env.BROKER);
    const found = [];
    client.on('message', (topic, payload) => {
      found.push({ name: payload.toString(), data: { id: topic.split('/')[1] } });
    });
    await client.subscribeAsync('hearthtest/+/name');
    // Retained announcements arrive right after the subscription.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await client.endAsync();
    return found;
  }
};
`;

const DEVICE_JS = `'use strict';
const Homey = require('homey');
const mqtt = require('mqtt');

module.exports = class PlugDevice extends Homey.Device {
  async onInit() {
    const { id } = this.getData();
    this.client = await mqtt.connectAsync(Homey.env.BROKER);
    this.client.on('message', (topic, payload) => {
      const text = payload.toString();
      if (topic.endsWith('/state')) this.setCapabilityValue('onoff', text === 'ON').catch(this.error);
      if (topic.endsWith('/power')) this.setCapabilityValue('measure_power', Number(text)).catch(this.error);
    });
    await this.client.subscribeAsync(['hearthtest/' + id + '/state', 'hearthtest/' + id + '/power']);
    this.registerCapabilityListener('onoff', async (value) => {
      await this.client.publishAsync('hearthtest/' + id + '/set', value ? 'ON' : 'OFF');
    });
  }

  async onUninit() {
    if (this.client) await this.client.endAsync();
  }
};
`;

let hub: RunningHub;
let broker: Broker;
let plug: MqttClient;
let url: string;
const received: string[] = [];

/** A plug on the broker: announces itself, switches on command and says so, and reports its power. */
async function startPlug(): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url);
  await client.publishAsync('hearthtest/plug1/name', 'Kitchen plug', { retain: true });
  client.on('message', (topic, payload) => {
    if (topic !== 'hearthtest/plug1/set') return;
    const on = payload.toString() === 'ON';
    received.push(payload.toString());
    void client.publishAsync('hearthtest/plug1/state', on ? 'ON' : 'OFF', { retain: true });
    void client.publishAsync('hearthtest/plug1/power', on ? '42' : '0', { retain: true });
  });
  await client.subscribeAsync('hearthtest/plug1/set');
  return client;
}

beforeAll(async () => {
  broker = await startMosquitto();
  url = broker.url;
  plug = await startPlug();

  const appsDir = await tempDir('hearth-mqtt-apps-');
  const appDir = await writeHomeyApp(appsDir, APP, {
    json: {
      drivers: [{ id: 'plug', name: { en: 'MQTT plug' }, class: 'socket', capabilities: ['onoff', 'measure_power'], connectivity: ['lan'] }],
    },
    files: {
      'env.json': { BROKER: url },
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'drivers/plug/driver.js': DRIVER_JS,
      'drivers/plug/device.js': DEVICE_JS,
      'node_modules/mqtt/package.json': { name: 'mqtt', version: '5.0.0', main: 'index.js' },
    },
  });
  // The real mqtt package, bundled into the app as its build would ship it.
  await build({
    entryPoints: [join(ROOT, 'node_modules/mqtt/build/index.js')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: join(appDir, 'node_modules/mqtt/index.js'),
    logLevel: 'silent',
  });
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
}, 60_000);

afterAll(async () => {
  await plug?.endAsync();
  await hub?.cleanup();
  await broker?.stop();
});

interface Device {
  id: string;
  capabilitiesObj: Record<string, { value: unknown }>;
}

describe('an MQTT plug through a real broker', () => {
  let device: Device;

  it('pairs the plug the broker announces', async () => {
    const session = await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { driverId: DRIVER } });
    const listed = await hub.call<Array<{ name: string }>>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, {
      body: { event: 'list_devices' },
    });
    expect(listed.body).toEqual([{ name: 'Kitchen plug', data: { id: 'plug1' } }]);
    const added = await hub.call<Device>('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: listed.body[0] });
    expect(added.status).toBe(201);
    device = added.body;
  });

  it('switches the plug: the command goes out on the broker, the state and power come back', async () => {
    expect((await hub.call('PUT', `/api/manager/devices/device/${device.id}/capability/onoff`, { body: { value: true } })).status).toBe(200);
    // The command is on its way once the app's listener has sent it; the plug answers when it arrives.
    await poll(
      () => received,
      (r) => r.length > 0,
      'the plug to receive the command',
    );
    expect(received).toEqual(['ON']);
    const on = await poll(
      () => hub.call<Device>('GET', `/api/manager/devices/device/${device.id}`),
      (r) => r.body.capabilitiesObj.measure_power?.value === 42,
      'the plug to report its power',
    );
    expect(on.body.capabilitiesObj.onoff?.value).toBe(true);
  });

  it("hears the plug's own button", async () => {
    await plug.publishAsync('hearthtest/plug1/state', 'OFF', { retain: true });
    await plug.publishAsync('hearthtest/plug1/power', '0', { retain: true });
    const off = await poll(
      () => hub.call<Device>('GET', `/api/manager/devices/device/${device.id}`),
      (r) => r.body.capabilitiesObj.onoff?.value === false && r.body.capabilitiesObj.measure_power?.value === 0,
      'the button press to reach the hub',
    );
    expect(off.status).toBe(200);
  });
});
