/**
 * Who did it (issue 42): a capability's change says who set it (`by`: a person through their
 * phone, a script's token, the flow whose action set it), a flow started by hand says who started
 * it in its run, and the timeline says who changed the family.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppEvents, openEvents } from '../../helpers/events.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { APP, type Device, pairLamp, writeLampApp } from '../devices/lamp-app.js';
import { addPerson } from './helpers.js';

let hub: RunningHub;
let lamp: Device;
let anna: string;

interface Change {
  deviceId: string;
  capabilityId: string;
  value: unknown;
  by: { kind: string; id: string; name: string } | null;
}

beforeAll(async () => {
  const appsDir = await tempDir('hearth-who-');
  await writeLampApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  lamp = await pairLamp(hub, 0);
  anna = (await addPerson(hub, 'Anna', 'user')).token;
}, 90_000);
afterAll(() => hub?.cleanup());

describe('who did it', () => {
  it('a capability change names the person, the script or the flow that set it; a run by hand names who started it', async () => {
    const events = await openEvents(hub.wsUrl, 'devices', OWNER);
    try {
      const set = async (token: string, value: boolean) =>
        expect((await hub.call('PUT', `/api/manager/devices/device/${lamp.id}/capability/onoff`, { token, body: { value } })).status).toBe(200);
      const heard = (value: boolean, kind: string) =>
        events.next((f) => {
          const c = f.args[0] as Change;
          return f.event === 'capability.update' && c.deviceId === lamp.id && c.capabilityId === 'onoff' && c.value === value && c.by?.kind === kind;
        });
      await set(anna, true);
      expect(((await heard(true, 'person')).args[0] as Change).by).toMatchObject({ kind: 'person', name: 'Anna' });
      const script = (
        await hub.call<{ token: string; id: string }>('POST', '/api/manager/tokens/token', {
          body: { name: 'night script', scopes: ['service.device.control', 'service.device.readonly'] },
        })
      ).body;
      await set(script.token, false);
      expect(((await heard(false, 'token')).args[0] as Change).by).toEqual({ kind: 'token', id: script.id, name: 'night script' });

      const flow = (
        await hub.call<{ id: string }>('POST', '/api/manager/flow/flow', {
          body: {
            name: 'Lamp on',
            trigger: { id: 'homey:manager:flow:programmatic_trigger', args: {} },
            actions: [{ id: `homey:device:${lamp.id}:on`, args: {} }],
          },
        })
      ).body;
      // A user starts flows.
      expect((await hub.call('POST', `/api/manager/flow/flow/${flow.id}/trigger`, { token: anna })).status).toBeLessThan(300);
      expect(((await heard(true, 'flow')).args[0] as Change).by).toEqual({ kind: 'flow', id: flow.id, name: 'Lamp on' });
      const runs = await poll(
        async () => (await hub.call<Array<{ by: { kind: string; name: string } | null }>>('GET', `/api/manager/flow/flow/${flow.id}/log`)).body,
        (r) => r.length > 0,
        'the run in the log',
      );
      expect(runs[0]!.by).toMatchObject({ kind: 'person', name: 'Anna' });
      // A device's card run by hand (the owner token: the first owner's): its caller did it.
      const off = await hub.call('POST', `/api/manager/flow/flowcardaction/homey:device:${lamp.id}/off/run`, { body: { args: {} } });
      expect(off.status, off.text).toBe(200);
      expect(((await heard(false, 'person')).args[0] as Change).by).toMatchObject({ kind: 'person', name: 'Owner' });
    } finally {
      events.close();
    }
  });

  it("an app's setting changed through the API is heard with who changed it; the app's own change, as the app's", async () => {
    const channel = await openAppEvents(hub.wsUrl, APP, OWNER);
    try {
      expect((await hub.call('PUT', `/api/manager/apps/app/${APP}/setting/greeting`, { body: { value: 'hi' } })).status).toBe(200);
      const set = await channel.next((f) => f.event === 'settings.set' && f.args[0] === 'greeting');
      expect(set.args[1]).toMatchObject({ kind: 'person', name: 'Owner' });
    } finally {
      channel.close();
    }
  });

  it('the timeline says who changed the family', async () => {
    const kid = (await hub.call<{ id: string }>('POST', '/api/manager/users/user', { body: { name: 'Kid', role: 'user' } })).body;
    await hub.call('PUT', `/api/manager/users/user/${kid.id}`, { body: { enabled: false } });
    await hub.call('PUT', `/api/manager/users/user/${kid.id}`, { body: { role: 'manager' } });
    await hub.call('DELETE', `/api/manager/users/user/${kid.id}`);
    const said = Object.values(
      (await hub.call<Record<string, { excerpt: string; ownerName: string; dateCreated: string }>>('GET', '/api/manager/notifications/notification')).body,
    )
      .filter((n) => n.ownerName === 'People')
      .sort((a, b) => a.dateCreated.localeCompare(b.dateCreated))
      .map((n) => n.excerpt);
    expect(said).toEqual([
      'Owner added Anna as a user',
      'Owner added Kid as a user',
      'Owner disabled Kid',
      'Owner made Kid a manager',
      'Owner removed Kid from the home',
    ]);
  });
});
