/**
 * Flows in a real hub with the weather app (weather-app.ts), the part about what flows share:
 * a logic variable as a token (and the flow kept, marked broken, when it is deleted), a flow
 * started by hand, tested, and kept in folders, the hub's own cards (a flow starting another,
 * comparing and setting a variable), "a variable changed" with its bound, and the notifications
 * card. engine.test.ts holds the cards, the runs, their bounds and the scopes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvents } from '../../helpers/events.js';
import { OWNER, type RunningHub } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { F, type Flow, flowsOf, type Run, startWeatherHub } from './helpers.js';
import { card, WEATHER } from './weather-app.js';

let hub: RunningHub;
const RAIN = card(WEATHER, 'rain_start');
const REMEMBER = card(WEATHER, 'remember');

const { createFlow, lastMessage, log, runs } = flowsOf(() => hub);
const rain = (location: string, mm: number) => hub.call('POST', `/api/app/${WEATHER}/rain`, { body: { location, mm } });

beforeAll(async () => {
  hub = await startWeatherHub();
});

afterAll(async () => {
  await hub?.cleanup();
});

describe('flows and what they share', () => {
  it('a logic variable is a token in a flow; deleting it marks the flow broken, and the flow is kept', async () => {
    const v = await hub.call<{ id: string; value: unknown }>('POST', '/api/manager/logic/variable', {
      body: { name: 'Greeting', type: 'string', value: 'hello' },
    });
    expect(v.status).toBe(201);
    expect((await hub.call('POST', '/api/manager/logic/variable', { body: { name: 'Count', type: 'number', value: 'three' } })).status).toBe(400);
    expect((await hub.call('POST', '/api/manager/logic/variable', { body: { name: 'greeting', type: 'string', value: 'x' } })).status).toBe(409);
    expect((await hub.call('PUT', `/api/manager/logic/variable/${v.body.id}`, { body: { value: 'good morning' } })).status).toBe(200);
    const tokens = await hub.call<Record<string, { title: string; value: unknown }>>('GET', '/api/manager/flowtoken/flowtoken');
    expect(tokens.body[`homey:manager:logic:${v.body.id}`]).toMatchObject({ title: 'Greeting', value: 'good morning' });
    expect(tokens.body[`homey:app:${WEATHER}:last_message`]).toMatchObject({ title: 'Last message', ownerName: 'weather' });

    const flow = await createFlow({
      name: 'Greet on rain',
      trigger: { id: RAIN, args: { location: 'work' } },
      actions: [{ id: REMEMBER, args: { message: `[[homey:manager:logic|${v.body.id}]], it rains` } }],
    });
    await rain('work', 1);
    await runs(flow.id, 1);
    expect(await lastMessage()).toBe('good morning, it rains');

    expect((await hub.call('DELETE', `/api/manager/logic/variable/${v.body.id}`)).status).toBe(204);
    const after = await hub.call<Flow>('GET', `${F}/flow/${flow.id}`);
    expect(after.body).toMatchObject({ broken: true, brokenReason: `the variable its action card ${REMEMBER} uses was deleted` });
    await rain('work', 1);
    // A broken flow does not run.
    await poll(lastMessage, (m) => m === 'good morning, it rains', 'nothing to change');
    expect(await log(flow.id)).toHaveLength(1);
    expect((await hub.call<{ error_description: string }>('POST', `${F}/flow/${flow.id}/trigger`)).status).toBe(409);
    await hub.call('DELETE', `${F}/flow/${flow.id}`);
  });

  it('starts a flow by hand, keeps folders, and answers advanced flows with 501', async () => {
    const folder = await hub.call<{ id: string }>('POST', `${F}/flowfolder`, { body: { name: 'Weather' } });
    expect(folder.status).toBe(201);
    const sub = await hub.call<{ id: string; parent: string }>('POST', `${F}/flowfolder`, { body: { name: 'Rain', parent: folder.body.id } });
    expect((await hub.call('PUT', `${F}/flowfolder/${folder.body.id}`, { body: { parent: sub.body.id } })).status).toBe(409);
    const flow = await createFlow({
      name: 'By hand',
      folder: sub.body.id,
      trigger: { id: card(WEATHER, 'rain_start'), args: { location: 'home' } },
      actions: [{ id: REMEMBER, args: { message: 'started by hand' } }],
    });
    expect(flow.triggerable).toBe(false);
    // Its trigger brings a token: started by hand it is refused; tested with the token given, it runs.
    expect((await hub.call('POST', `${F}/flow/${flow.id}/trigger`)).status).toBe(409);
    const tested = await hub.call<Run>('POST', `${F}/flow/test`, {
      body: {
        flow: { trigger: { id: RAIN, args: { location: 'home' } }, actions: [{ id: REMEMBER, args: { message: 'tested with [[mm_per_hour]] mm' } }] },
        tokens: { mm_per_hour: 7 },
        sessionId: 'editor',
      },
    });
    expect(tested.body).toMatchObject({ flow: 'test', result: 'ran', branch: 'then' });
    expect(await lastMessage()).toBe('tested with 7 mm');
    expect((await hub.call('POST', `${F}/flow/test`, { body: { flow: { trigger: { id: RAIN, args: { location: 'mars' } } }, tokens: {} } })).status).toBe(400);
    await hub.call('DELETE', `${F}/flow/${flow.id}`);
    // Deleting a folder moves what was in it up.
    expect((await hub.call('DELETE', `${F}/flowfolder/${folder.body.id}`)).status).toBe(204);
    expect((await hub.call<{ parent: string | null }>('GET', `${F}/flowfolder/${sub.body.id}`)).body.parent).toBeNull();
    const adv = await hub.call<{ error_description: string }>('GET', `${F}/advancedflow`);
    expect(adv.status).toBe(501);
    expect(adv.body.error_description).toContain('advanced flows are not part of hearth');
  });

  it("the hub's own cards: a flow starts another, which compares and sets a variable", async () => {
    const triggers = (await hub.call<Record<string, { ownerName: string; title: string }>>('GET', `${F}/flowcardtrigger`)).body;
    expect(triggers['homey:manager:cron:sunset']).toMatchObject({ ownerName: 'Date & time', title: 'At sunset' });
    const count = (await hub.call<{ id: string; name: string }>('POST', '/api/manager/logic/variable', { body: { name: 'Count', type: 'number', value: 1 } }))
      .body;
    const variable = { id: count.id, name: count.name };
    const found = await hub.call<Array<{ id: string; name: string }>>(
      'GET',
      `${F}/flowcardaction/homey:manager:logic/set_variable/autocomplete?name=variable&query=cou`,
    );
    expect(found.body).toEqual([{ id: count.id, name: 'Count', description: 'number' }]);
    const started = await createFlow({
      name: 'Count up once',
      trigger: { id: 'homey:manager:flow:programmatic_trigger' },
      conditions: [{ id: 'homey:manager:logic:compare', args: { variable, operator: 'eq', value: '1' } }],
      actions: [
        { id: 'homey:manager:logic:set_variable', args: { variable, value: `[[homey:manager:logic|${count.id}]]0` } },
        { id: REMEMBER, group: 'else', args: { message: 'counted already' } },
      ],
    });
    const starter = await createFlow({
      name: 'When the wind starts',
      trigger: { id: card(WEATHER, 'wind_start') },
      actions: [{ id: 'homey:manager:flow:start_flow', args: { flow: { id: started.id, name: started.name } } }],
    });
    expect(starter.triggerable).toBe(true);
    const run = await hub.call<Run>('POST', `${F}/flow/${starter.id}/trigger`);
    expect(run.body).toMatchObject({ result: 'ran', branch: 'then' });
    const [first] = await runs(started.id, 1);
    expect(first).toMatchObject({ result: 'ran', branch: 'then' });
    // "1" and "0" made 10: a token inside a text.
    expect((await hub.call<{ value: number }>('GET', `/api/manager/logic/variable/${count.id}`)).body.value).toBe(10);
    await hub.call('POST', `${F}/flow/${starter.id}/trigger`);
    const [second] = await runs(started.id, 2);
    expect(second).toMatchObject({ result: 'ran', branch: 'else' });
    expect(await lastMessage()).toBe('counted already');
    // Deleting the started flow breaks the starter, which names it.
    await hub.call('DELETE', `${F}/flow/${started.id}`);
    expect((await hub.call<Flow>('GET', `${F}/flow/${starter.id}`)).body.brokenReason).toBe(
      'its action card homey:manager:flow:start_flow: the flow it starts was deleted',
    );
    await hub.call('DELETE', `${F}/flow/${starter.id}`);
  });

  it('"a variable changed" fires with the new value as a token, and a flow that changes its own variable stops at the bound', async () => {
    const made = await hub.call<{ id: string; name: string }>('POST', '/api/manager/logic/variable', { body: { name: 'Mode', type: 'string', value: 'day' } });
    const mode = { id: made.body.id, name: made.body.name };
    const other = (await hub.call<{ id: string }>('POST', '/api/manager/logic/variable', { body: { name: 'Other', type: 'string', value: 'a' } })).body;
    const watch = await createFlow({
      name: 'Mode changes',
      trigger: { id: 'homey:manager:logic:variable_changed', args: { variable: mode } },
      actions: [{ id: REMEMBER, args: { message: 'mode is [[value]]' } }],
    });
    await hub.call('PUT', `/api/manager/logic/variable/${other.id}`, { body: { value: 'b' } });
    await hub.call('PUT', `/api/manager/logic/variable/${mode.id}`, { body: { value: 'night' } });
    const [run] = await runs(watch.id, 1);
    expect(run).toMatchObject({ result: 'ran' });
    expect(await lastMessage()).toBe('mode is night');
    // Another variable, or the same value again, starts nothing.
    await hub.call('PUT', `/api/manager/logic/variable/${mode.id}`, { body: { value: 'night' } });
    expect(await log(watch.id)).toHaveLength(1);
    await hub.call('DELETE', `${F}/flow/${watch.id}`);

    const loop = await createFlow({
      name: 'Mode feeds itself',
      trigger: { id: 'homey:manager:logic:variable_changed', args: { variable: mode } },
      actions: [{ id: 'homey:manager:logic:set_variable', args: { variable: mode, value: '[[value]]!' } }],
    });
    await hub.call('PUT', `/api/manager/logic/variable/${mode.id}`, { body: { value: 'go' } });
    const all = await poll(
      () => log(loop.id),
      (l) => l.some((r) => r.result === 'stopped'),
      'the loop to be stopped',
    );
    expect(all.find((r) => r.result === 'stopped')?.error).toMatch(/a flow that starts itself\); the bound is 10$/);
    await hub.call('DELETE', `${F}/flow/${loop.id}`);
    await hub.call('DELETE', `/api/manager/logic/variable/${mode.id}`);
    await hub.call('DELETE', `/api/manager/logic/variable/${other.id}`);
  });

  it("the notifications card: on the home's timeline (every browser's toast), as an app's notification; a text too long fails the run", async () => {
    const listener = await openEvents(hub.wsUrl, 'notifications', OWNER);
    const flow = await createFlow({
      name: 'Tell the house',
      trigger: { id: 'homey:manager:flow:programmatic_trigger' },
      actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: 'The bell rang at noon' } }],
    });
    expect((await hub.call<Run>('POST', `${F}/flow/${flow.id}/trigger`)).body).toMatchObject({ result: 'ran' });
    const frame = await listener.next((f) => f.event === 'notification.create');
    expect(frame.args[0]).toMatchObject({ ownerUri: 'homey:manager:flow', ownerId: 'flow', ownerName: 'Flows', excerpt: 'The bell rang at noon' });
    listener.close();
    await hub.call('PUT', `${F}/flow/${flow.id}`, {
      body: { actions: [{ id: 'homey:manager:notifications:create_notification', args: { text: 'x'.repeat(1001) } }] },
    });
    await hub.call('POST', `${F}/flow/${flow.id}/trigger`);
    const [failed] = await runs(flow.id, 2);
    expect(JSON.stringify(failed)).toContain('a notification is at most 1000 characters; this one is 1001');
    await hub.call('DELETE', `${F}/flow/${flow.id}`);
  });
});
