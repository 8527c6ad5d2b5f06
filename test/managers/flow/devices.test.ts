/**
 * Devices in flows, in a real hub: the cards a device's capabilities bring (the lamp app of the
 * devices tests: turned on, is on, turn off), a device trigger driving another app's action with
 * the device's value as a token, and an app's own device cards (the bell app: a device trigger
 * fired for one door runs only the flows on that door; an action gets the Device instance). A
 * deleted device leaves its flows broken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { type Device, APP as LAMP, pairLamp, writeLampApp } from '../devices/lamp-app.js';
import { BELL, pairBells, writeBellApp } from './bell-app.js';
import { F, flowsOf, type Run } from './helpers.js';
import { card, WEATHER, writeWeatherApp } from './weather-app.js';

let hub: RunningHub;
let lamp: Device;
let doors: Array<{ id: string; name: string }>;
const REMEMBER = card(WEATHER, 'remember');
const { createFlow, lastMessage, log, runs } = flowsOf(() => hub);
const onoff = async (id: string) => (await hub.call<boolean | null>('GET', `/api/manager/devices/device/${id}/capability/onoff`)).body;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-flows-devices-');
  await writeWeatherApp(appsDir);
  await writeLampApp(appsDir);
  await writeBellApp(appsDir);
  hub = await startHub({ appsDir });
  for (const app of [WEATHER, LAMP, BELL]) await waitAppRunning(hub, app);
  await poll(lastMessage, (v) => v === '', 'the weather app to make its token');
  lamp = await pairLamp(hub);
  doors = await pairBells(hub);
}, 120_000);

afterAll(async () => {
  await hub?.cleanup();
});

describe("a device's capability cards", () => {
  it('lists them under the device, by what each capability can do', async () => {
    const of = async (kind: string) =>
      Object.values((await hub.call<Record<string, { id: string; ownerName: string; title: string }>>('GET', `${F}/flowcard${kind}`)).body)
        .filter((c) => c.id.startsWith(`homey:device:${lamp.id}:`))
        .map((c) => `${c.id.split(':').pop()} ${c.title}`)
        .sort();
    expect(await of('trigger')).toEqual([
      'dim_changed Dim level changed',
      'measure_temperature_changed Temperature changed',
      'my_level_changed My level changed',
      'turned_off Turned off',
      'turned_on Turned on',
    ]);
    expect(await of('condition')).toEqual(['on Is turned !{{on|off}}']);
    expect(await of('action')).toEqual(['dim_set Set Dim level', 'my_level_set Set My level', 'off Turn off', 'on Turn on', 'toggle Toggle on or off']);
  });

  it("a device trigger drives another app's action, with the device's value as a token", async () => {
    const flow = await createFlow({
      name: 'Lamp on',
      trigger: { id: `homey:device:${lamp.id}:turned_on` },
      conditions: [{ id: `homey:device:${lamp.id}:on` }],
      actions: [{ id: REMEMBER, args: { message: `lamp on at [[homey:device:${lamp.id}|measure_temperature]] degrees` } }],
    });
    expect((await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/capability/onoff`, { body: { value: true } })).status).toBe(200);
    const [run] = await runs(flow.id, 1);
    expect(run).toMatchObject({ result: 'ran', branch: 'then' });
    expect(await lastMessage()).toBe('lamp on at 21.5 degrees');
    await hub.call('DELETE', `${F}/flow/${flow.id}`);
    expect(
      (await hub.call<Record<string, { value: unknown }>>('GET', '/api/manager/flowtoken/flowtoken')).body[`homey:device:${lamp.id}:measure_temperature`],
    ).toMatchObject({
      value: 21.5,
    });
  });

  it('a flow switches the lamp through its app, and a number changed brings its value', async () => {
    const off = await createFlow({
      name: 'Wind turns the lamp off',
      trigger: { id: card(WEATHER, 'wind_start') },
      actions: [{ id: `homey:device:${lamp.id}:off` }, { id: `homey:device:${lamp.id}:dim_set`, args: { value: 0.25 } }],
    });
    const dimmed = await createFlow({
      name: 'Dim changed',
      trigger: { id: `homey:device:${lamp.id}:dim_changed` },
      actions: [{ id: REMEMBER, args: { message: 'dim is [[dim]]' } }],
    });
    const run = await hub.call<Run>('POST', `${F}/flow/${off.id}/trigger`);
    expect(run.body).toMatchObject({ result: 'ran' });
    expect(await onoff(lamp.id)).toBe(false);
    await runs(dimmed.id, 1);
    expect(await lastMessage()).toBe('dim is 0.25');
    const bad = await hub.call<{ error_description: string }>('POST', `${F}/flow`, {
      body: { name: 'x', trigger: { id: card(WEATHER, 'wind_start') }, actions: [{ id: `homey:device:${lamp.id}:dim_set`, args: { value: 3 } }] },
    });
    expect(bad.body.error_description).toBe("argument 'value' of card 'Set Dim level' must be at most 1");
    // Switching the lamp through a card asks what switching it through the devices API asks.
    const flowOnly = (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'flows', scopes: ['service.flow'] } })).body.token;
    const refused = await hub.call<{ error_description: string }>('POST', `${F}/flowcardaction/homey:device:${lamp.id}/on/run`, { token: flowOnly, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error_description).toContain("needs the scope 'service.device.control'");
    expect(await onoff(lamp.id)).toBe(false);
    await hub.call('DELETE', `${F}/flow/${off.id}`);
    await hub.call('DELETE', `${F}/flow/${dimmed.id}`);
  });
});

describe("an app's device cards", () => {
  it('a device trigger runs the flows on that device only; an action gets the Device instance', async () => {
    const [front, back] = doors as [{ id: string; name: string }, { id: string; name: string }];
    const device = (d: { id: string; name: string }) => ({ id: d.id, name: d.name });
    const onFront = await createFlow({
      name: 'Front door',
      trigger: { id: `homey:app:${BELL}:rang`, args: { device: device(front) } },
      actions: [
        { id: REMEMBER, args: { message: '[[visitor]] at the front' } },
        { id: `homey:app:${BELL}:chime`, args: { device: device(back), times: 2 } },
      ],
    });
    const onBack = await createFlow({
      name: 'Back door',
      trigger: { id: `homey:app:${BELL}:rang`, args: { device: device(back) } },
      actions: [{ id: REMEMBER, args: { message: '[[visitor]] at the back' } }],
    });
    const rang = await hub.call<{ args: Array<{ name: string; type: string; filter: string }> }>('GET', `${F}/flowcardtrigger/homey:app:${BELL}/rang`);
    expect(rang.body.args).toEqual([expect.objectContaining({ name: 'device', type: 'device', filter: 'driver_id=bell' })]);
    expect((await hub.call('POST', `/api/app/${BELL}/ring`, { body: { door: 'Front door', visitor: 'the postman' } })).status).toBe(200);
    const [run] = await runs(onFront.id, 1);
    expect(run).toMatchObject({ result: 'ran' });
    expect(await lastMessage()).toBe('the postman at the front');
    // The chime ran for the back door's Device instance, which switched itself on.
    await poll(
      () => onoff(back.id),
      (v) => v === true,
      'the back bell to be on',
    );
    expect(await onoff(front.id)).not.toBe(true);
    expect(await log(onBack.id)).toEqual([]);

    // A deleted device leaves the flows that name it broken, and kept.
    expect((await hub.call('DELETE', `/api/manager/devices/device/${back.id}`)).status).toBe(204);
    const after = (await hub.call<{ broken: boolean; brokenReason: string }>('GET', `${F}/flow/${onBack.id}`)).body;
    expect(after).toMatchObject({ broken: true, brokenReason: `the device of its trigger card homey:app:${BELL}:rang was deleted` });
    expect((await hub.call<{ brokenReason: string }>('GET', `${F}/flow/${onFront.id}`)).body.brokenReason).toBe(
      `the device of its action card homey:app:${BELL}:chime was deleted`,
    );
  });
});
