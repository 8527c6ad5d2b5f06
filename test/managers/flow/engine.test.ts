/**
 * Flows in a real hub, with apps written from Homey's docs (weather-app.ts): cards listed at
 * Homey's paths, flows built through the Web API and checked when saved, a trigger with tokens
 * driving an action (its run listener filtering by state), a condition that blocks and an else
 * branch, a delay, an autocomplete argument, a crashing app's card
 * failing only its flow's run, a flow that starts itself stopped at the bound, a flow whose app
 * is uninstalled kept and marked broken, and the scopes (variables, the hub's own cards and a
 * flow by hand: engine-variables.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvents } from '../../helpers/events.js';
import { OWNER, type RunningHub } from '../../helpers/hub.js';
import { pause, poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { F, type Flow, flowsOf, type Run, startWeatherHub } from './helpers.js';
import { CRASHY, card, WEATHER } from './weather-app.js';

let hub: RunningHub;
const RAIN = card(WEATHER, 'rain_start');
const RAINING = card(WEATHER, 'is_raining');
const REMEMBER = card(WEATHER, 'remember');

const { createFlow, lastMessage, log, runs } = flowsOf(() => hub);
const rain = (location: string, mm: number) => hub.call('POST', `/api/app/${WEATHER}/rain`, { body: { location, mm } });
const stdout = async () => (await hub.call<{ stdout: string }>('POST', `/api/manager/apps/app/${WEATHER}/crashlog`, { body: {} })).body.stdout;

beforeAll(async () => {
  hub = await startWeatherHub();
});

afterAll(async () => {
  await hub?.cleanup();
});

describe('flow cards from apps', () => {
  it("lists each app's cards at Homey's paths, with their arguments and tokens", async () => {
    const triggers = await hub.call<Record<string, Record<string, unknown>>>('GET', `${F}/flowcardtrigger`);
    expect(triggers.status).toBe(200);
    expect(triggers.body[RAIN]).toMatchObject({
      id: RAIN,
      uri: `homey:app:${WEATHER}`,
      ownerUri: `homey:app:${WEATHER}`,
      ownerId: WEATHER,
      ownerName: 'weather',
      type: 'trigger',
      title: 'It starts raining',
      titleFormatted: 'It starts raining at [[location]]',
      hint: 'When it starts raining more than 0.1 mm/h',
      tokens: [{ id: 'mm_per_hour', type: 'number', title: 'mm/h', example: '5' }],
      args: [
        {
          name: 'location',
          type: 'dropdown',
          values: [
            { id: 'home', label: 'Home' },
            { id: 'work', label: 'Work' },
            { id: 'loop', label: 'Everywhere at once' },
          ],
        },
      ],
    });
    const actions = await hub.call<Record<string, unknown>>('GET', `${F}/flowcardaction`);
    expect(
      Object.keys(actions.body)
        .filter((id) => id.startsWith('homey:app:'))
        .sort(),
    ).toEqual([card(CRASHY, 'explode'), card(WEATHER, 'make_it_rain'), card(WEATHER, 'play_artist'), REMEMBER].sort());
    // One card, by Homey's two path parts: V3 sends the whole id, V2 the card's own.
    for (const id of [encodeURIComponent(RAINING), 'is_raining']) {
      const one = await hub.call<{ id: string; args: Array<{ name: string }> }>('GET', `${F}/flowcardcondition/homey:app:${WEATHER}/${id}`);
      expect(one.status).toBe(200);
      expect(one.body.id).toBe(RAINING);
    }
    expect((await hub.call('GET', `${F}/flowcardcondition/homey:app:${WEATHER}/nope`)).status).toBe(404);
  });

  it("runs an autocomplete argument's listener, and a card by hand", async () => {
    const found = await hub.call<Array<{ name: string; id: string }>>(
      'GET',
      `${F}/flowcardaction/homey:app:${WEATHER}/play_artist/autocomplete?name=artist&query=moz`,
    );
    expect(found.status).toBe(200);
    expect(found.body).toEqual([{ name: 'Wolfgang Amadeus Mozart', description: 'Composer', id: 'mozart' }]);
    const cond = await hub.call<boolean>('POST', `${F}/flowcardcondition/homey:app:${WEATHER}/is_raining/run`, { body: { args: { where: 'here' } } });
    expect(cond.body).toBe(true);
    const act = await hub.call('POST', `${F}/flowcardaction/homey:app:${WEATHER}/remember/run`, { body: { args: { message: 'by hand' } } });
    expect(act.status).toBe(200);
    expect(await lastMessage()).toBe('by hand');
  });
});

describe('flows', () => {
  it('refuses a flow whose cards or arguments do not fit, saying which', async () => {
    const bad = async (flow: Record<string, unknown>) =>
      (await hub.call<{ error_description: string }>('POST', `${F}/flow`, { body: flow })).body.error_description;
    const trigger = { id: RAIN, args: { location: 'home' } };
    expect(await bad({ name: 'x', trigger: { id: card(WEATHER, 'nope') }, conditions: [], actions: [] })).toBe(
      `there is no trigger card '${card(WEATHER, 'nope')}'`,
    );
    expect(await bad({ name: 'x', trigger: { id: RAIN, args: { location: 'moon' } }, conditions: [], actions: [] })).toBe(
      "argument 'location' of card 'It starts raining' must be one of home, work, loop",
    );
    expect(await bad({ name: 'x', trigger, conditions: [], actions: [{ id: REMEMBER, args: {} }] })).toBe(
      "card 'Remember a message' needs its argument 'message' (Message)",
    );
    expect(await bad({ name: 'x', trigger, conditions: [], actions: [{ id: REMEMBER, args: { message: 'a', amount: 5000 } }] })).toBe(
      "argument 'amount' of card 'Remember a message' must be at most 1000",
    );
    expect(await bad({ name: 'x', trigger: { id: 'lamp' }, conditions: [], actions: [] })).toContain('is not a card id such as homey:app:com.example:my_card');
    expect(await bad({ name: 'x', folder: 'nope', trigger, conditions: [], actions: [] })).toBe("flow folder 'nope' does not exist");
    expect(Object.keys((await hub.call('GET', `${F}/flow`)).body as object)).toEqual([]);
  });

  it("a trigger with tokens drives an app's action; the run listener picks the flows by state", async () => {
    const flow = await createFlow({
      name: 'Rain at home',
      trigger: { id: RAIN, args: { location: 'home' } },
      conditions: [],
      actions: [{ id: REMEMBER, args: { message: 'rain: [[mm_per_hour]] mm/h', amount: '[[mm_per_hour]]' } }],
    });
    expect(flow).toMatchObject({ enabled: true, broken: false, brokenReason: null, triggerable: false, trigger: { id: RAIN, uri: `homey:app:${WEATHER}` } });
    // The card heard that a flow on it was made, and reads the flows' arguments.
    await poll(stdout, (o) => o.includes('rain_start flows watch ["home"]'), 'the card to emit update');
    expect((await rain('work', 2)).status).toBe(200);
    expect((await rain('home', 3)).status).toBe(200);
    const [run] = await runs(flow.id, 1);
    expect(run).toMatchObject({ result: 'ran', branch: 'then', error: null });
    expect(run!.steps.map((s) => [s.kind, s.outcome])).toEqual([
      ['trigger', 'done'],
      ['action', 'done'],
    ]);
    expect(await lastMessage()).toBe('rain: 3 mm/h');
    // Only the run for 'home': 'work' was filtered out by the app's run listener.
    expect(await log(flow.id)).toHaveLength(1);
    expect(await stdout()).toContain('remember rain: 3 mm/h number 3');
    await hub.call('DELETE', `${F}/flow/${flow.id}`);
  });

  it('a condition blocks the then branch and runs the else branch; inverted, it lets it through; a delay holds', async () => {
    const flow = await createFlow({
      name: 'Is it raining?',
      trigger: { id: RAIN, args: { location: 'work' } },
      conditions: [{ id: RAINING, args: { where: 'there' } }],
      actions: [
        { id: REMEMBER, group: 'then', args: { message: 'it rains there' } },
        { id: REMEMBER, group: 'else', args: { message: 'dry there' }, delay: 1 },
      ],
    });
    await rain('work', 1);
    const [blocked] = await runs(flow.id, 1);
    expect(blocked).toMatchObject({ result: 'ran', branch: 'else' });
    expect(blocked!.steps.map((s) => [s.kind, s.outcome])).toEqual([
      ['trigger', 'done'],
      ['condition', 'false'],
      ['action', 'done'],
    ]);
    // Each step names its card as a person reads it (Homey's `!{{is|is not}}` as the flow has it).
    expect(blocked!.steps.map((s) => [s.ownerName, s.title])).toEqual([
      ['weather', 'It starts raining'],
      ['weather', 'It is raining'],
      ['weather', 'Remember a message'],
    ]);
    expect(await lastMessage()).toBe('dry there');
    // The else action waited its second before it ran.
    expect(Date.parse(blocked!.steps[2]!.at) - Date.parse(blocked!.steps[1]!.at)).toBeGreaterThanOrEqual(1000);

    const upd = await hub.call<Flow>('PUT', `${F}/flow/${flow.id}`, { body: { conditions: [{ id: RAINING, args: { where: 'there' }, inverted: true }] } });
    expect(upd.status).toBe(200);
    await rain('work', 1);
    const [inverted] = await runs(flow.id, 2);
    expect(inverted).toMatchObject({ result: 'ran', branch: 'then' });
    expect(await lastMessage()).toBe('it rains there');

    // Groups: one of them holding is enough.
    await hub.call('PUT', `${F}/flow/${flow.id}`, {
      body: {
        conditions: [
          { id: RAINING, args: { where: 'there' }, group: 'group1' },
          { id: RAINING, args: { where: 'here' }, group: 'group2' },
        ],
      },
    });
    await rain('work', 1);
    const [either] = await runs(flow.id, 3);
    expect(either!.branch).toBe('then');
    expect(either!.steps.map((s) => s.outcome)).toEqual(['done', 'false', 'true', 'done']);
    await hub.call('DELETE', `${F}/flow/${flow.id}`);
  });

  it("a crashed app's card fails only its flow's run, and the run log says so", async () => {
    const crashing = await createFlow({
      name: 'Explode on rain',
      trigger: { id: RAIN, args: { location: 'home' } },
      actions: [{ id: card(CRASHY, 'explode') }, { id: REMEMBER, args: { message: 'after the crash' } }],
    });
    const calm = await createFlow({
      name: 'Calm on rain',
      trigger: { id: RAIN, args: { location: 'home' } },
      conditions: [{ id: RAINING, args: { where: 'here' } }],
      actions: [],
    });
    await rain('home', 1);
    const [crashed] = await runs(crashing.id, 1);
    expect(crashed!.result).toBe('failed');
    expect(crashed!.steps.map((s) => [s.card, s.outcome])).toEqual([
      [RAIN, 'done'],
      [card(CRASHY, 'explode'), 'failed'],
      [REMEMBER, 'done'],
    ]);
    expect(crashed!.steps[1]!.error).toMatch(/exited|ended|not running|closed/);
    expect(crashed!.error).toContain("the action 'crashy: Explode' failed: ");
    expect(await lastMessage()).toBe('after the crash');
    const [ok] = await runs(calm.id, 1);
    expect(ok).toMatchObject({ result: 'ran', branch: 'then' });
    // The crashed app comes back (its supervisor restarts it); the flow still fails clearly while it is down.
    await waitAppRunning(hub, CRASHY);
    await hub.call('DELETE', `${F}/flow/${crashing.id}`);
    await hub.call('DELETE', `${F}/flow/${calm.id}`);
  });

  it('a flow that starts itself is stopped at the bound, and its log says why', async () => {
    const loop = await createFlow({
      name: 'Rain makes rain',
      trigger: { id: RAIN, args: { location: 'loop' } },
      actions: [{ id: card(WEATHER, 'make_it_rain'), args: { mm: 1 } }],
    });
    await rain('loop', 1);
    // The eleventh run may end after the twelfth was stopped (its app answers the trigger first).
    const all = await poll(
      () => log(loop.id),
      (l) => l.some((r) => r.result === 'stopped') && l.filter((r) => r.result === 'ran').length >= 11,
      'the loop to be stopped',
    );
    const stopped = all.find((r) => r.result === 'stopped')!;
    expect(stopped.error).toBe(
      'stopped: it was started by a chain of 11 flow runs, each started by the one before (a flow that starts itself); the bound is 10',
    );
    expect(all.filter((r) => r.result === 'ran')).toHaveLength(11);
    await hub.call('DELETE', `${F}/flow/${loop.id}`);
  });

  it('a flow that starts itself six times over is refused past the bounds of runs; the hub answers, the log and the timeline say why', async () => {
    const flowToken = (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'flows only', scopes: ['service.flow'] } })).body
      .token;
    const made = await hub.call<Flow>('POST', `${F}/flow`, {
      token: flowToken,
      body: { name: 'Fan out', trigger: { id: 'homey:manager:flow:programmatic_trigger' } },
    });
    expect(made.status).toBe(201);
    const self = { id: made.body.id, name: 'Fan out' };
    const start = { id: 'homey:manager:flow:start_flow', args: { flow: self } };
    expect((await hub.call('PUT', `${F}/flow/${self.id}`, { token: flowToken, body: { actions: Array(6).fill(start) } })).status).toBe(200);
    const flowEvents = await openEvents(hub.wsUrl, 'flow', OWNER);
    const timeline = await openEvents(hub.wsUrl, 'notifications', OWNER);
    const runsOf = () =>
      flowEvents.frames.filter((f) => f.event === 'flowrun.create' && (f.args[0] as { flow: string }).flow === self.id).map((f) => f.args[0] as Run);
    expect((await hub.call<Run>('POST', `${F}/flow/${self.id}/trigger`, { token: flowToken })).status).toBe(200);
    // Which bound a run meets first depends on how the runs interleave: 32 of one flow at once, or 200 in the chain.
    const bound =
      /^(not started: 32 runs of this flow were under way, the bound for one flow|not started: the chain of flow runs that started it \(flows starting flows\) made 200 runs, the bound for one chain|stopped: it was started by a chain of 11 flow runs, .*; the bound is 10)$/;
    const note = await timeline.next(
      (f) => f.event === 'notification.create' && String((f.args[0] as { excerpt: string }).excerpt).includes('Fan out'),
      20_000,
    );
    const excerpt = (note.args[0] as { excerpt: string }).excerpt;
    expect(excerpt.startsWith("Flow 'Fan out' was started more often than the hub allows: ")).toBe(true);
    expect(excerpt.slice(excerpt.indexOf('allows: ') + 8, -1)).toMatch(bound);
    // The hub answers, and the chain ends: no more runs are published.
    expect((await hub.call('GET', '/api/manager/system/ping')).status).toBe(200);
    let seen = -1;
    await poll(
      async () => {
        const before = seen;
        seen = runsOf().length;
        await pause(300, 'a run still under way would have been published by now');
        return before === seen;
      },
      (settled) => settled,
      'the chain to end',
      100,
    );
    const all = runsOf();
    const ran = all.filter((r) => r.result === 'ran').length;
    expect(ran).toBeGreaterThanOrEqual(32);
    expect(ran).toBeLessThanOrEqual(200);
    // One refused run is logged (the others in the same ten seconds only counted), saying which bound.
    const stopped = all.filter((r) => r.result === 'stopped');
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.error).toMatch(bound);
    flowEvents.close();
    timeline.close();
    await hub.call('DELETE', `${F}/flow/${self.id}`);
  });

  it('keeps a flow whose app was uninstalled, marked broken with the reason', async () => {
    const flow = await createFlow({
      name: 'Explode',
      trigger: { id: RAIN, args: { location: 'home' } },
      actions: [{ id: card(CRASHY, 'explode') }],
    });
    expect((await hub.call('DELETE', `/api/manager/apps/app/${CRASHY}`)).status).toBe(204);
    const after = await poll(
      async () => (await hub.call<Flow>('GET', `${F}/flow/${flow.id}`)).body,
      (f) => f.broken,
      'the flow to be broken',
    );
    expect(after.brokenReason).toBe(`its action card ${card(CRASHY, 'explode')} is gone: app '${CRASHY}' is not installed`);
    const state = await hub.call<{ broken: number }>('GET', `${F}/state`);
    expect(state.body.broken).toBe(1);
  });

  it("runs no card past the caller's rights: by hand, in a test, or in a flow it saves; the card list says which it may run", async () => {
    const make = async (scopes: string[]) =>
      (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'cards', scopes } })).body.token;
    const flowOnly = await make(['service.flow']);
    const withLogic = await make(['service.flow', 'service.logic']);
    const v = (
      await hub.call<{ id: string; name: string }>('POST', '/api/manager/logic/variable', { body: { name: 'Guarded', type: 'string', value: 'kept' } })
    ).body;
    const setIt = { id: 'homey:manager:logic:set_variable', args: { variable: { id: v.id, name: v.name }, value: 'changed' } };
    const byHand = await hub.call<{ error_description: string }>('POST', `${F}/flowcardaction/homey:manager:logic/set_variable/run`, {
      token: flowOnly,
      body: { args: setIt.args },
    });
    expect(byHand.status).toBe(403);
    expect(byHand.body.error_description).toBe("the action card 'Logic: Set a variable' needs the scope 'service.logic', which this token does not hold");
    const programmatic = { id: 'homey:manager:flow:programmatic_trigger' };
    const saved = await hub.call<{ error_description: string }>('POST', `${F}/flow`, {
      token: flowOnly,
      body: { name: 'Speak up', trigger: programmatic, actions: [{ id: 'homey:manager:speech-output:say', args: { text: 'hello' } }] },
    });
    expect(saved.status).toBe(403);
    expect(saved.body.error_description).toContain("needs the scope 'service.speech'");
    const tested = await hub.call<{ error_description: string }>('POST', `${F}/flow/test`, {
      token: flowOnly,
      body: { flow: { trigger: programmatic, actions: [{ id: REMEMBER, args: { message: 'planted' } }] }, tokens: {} },
    });
    expect(tested.status).toBe(403);
    expect(tested.body.error_description).toContain("needs the scope 'service.app.control'");
    // A flow the owner made with the card cannot be changed to use it by the flows-only token either.
    const mine = await createFlow({ name: 'Harmless', trigger: programmatic });
    expect((await hub.call('PUT', `${F}/flow/${mine.id}`, { token: flowOnly, body: { actions: [setIt] } })).status).toBe(403);
    expect((await hub.call<{ value: string }>('GET', `/api/manager/logic/variable/${v.id}`)).body.value).toBe('kept');
    // With the variables scope the same token may.
    expect((await hub.call('PUT', `${F}/flow/${mine.id}`, { token: withLogic, body: { actions: [setIt] } })).status).toBe(200);
    expect((await hub.call<Run>('POST', `${F}/flow/${mine.id}/trigger`, { token: withLogic })).body.result).toBe('ran');
    expect((await hub.call<{ value: string }>('GET', `/api/manager/logic/variable/${v.id}`)).body.value).toBe('changed');
    // The card list answers each caller which cards it may run, and what each needs.
    const seen = (await hub.call<Record<string, { needs: string | null; usable: boolean }>>('GET', `${F}/flowcardaction`, { token: flowOnly })).body;
    expect(seen['homey:manager:logic:set_variable']).toMatchObject({ needs: 'service.logic', usable: false });
    expect(seen['homey:manager:flow:start_flow']).toMatchObject({ needs: 'service.flow.start', usable: true });
    expect(seen['homey:manager:notifications:create_notification']).toMatchObject({ needs: null, usable: true });
    const owner = (await hub.call<Record<string, { usable: boolean }>>('GET', `${F}/flowcardaction`)).body;
    expect(Object.values(owner).every((c) => c.usable)).toBe(true);
    await hub.call('DELETE', `${F}/flow/${mine.id}`);
    await hub.call('DELETE', `/api/manager/logic/variable/${v.id}`);
  });

  it('holds each operation to its scope', async () => {
    const made = await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', {
      body: { name: 'reader', scopes: ['service.flow.readonly', 'service.logic.readonly'] },
    });
    expect(made.status).toBe(201);
    const reader = made.body.token;
    expect((await hub.call('GET', `${F}/flow`, { token: reader })).status).toBe(200);
    expect((await hub.call('GET', '/api/manager/logic/variable', { token: reader })).status).toBe(200);
    expect((await hub.call('POST', `${F}/flowfolder`, { token: reader, body: { name: 'x' } })).status).toBe(403);
    expect((await hub.call('POST', '/api/manager/logic/variable', { token: reader, body: { name: 'x', type: 'boolean', value: true } })).status).toBe(403);
    const starter = (await hub.call<{ token: string }>('POST', '/api/manager/tokens/token', { body: { name: 'starter', scopes: ['service.flow.start'] } })).body
      .token;
    expect((await hub.call('POST', `${F}/flow/nope/trigger`, { token: starter })).status).toBe(404);
    expect((await hub.call('GET', `${F}/flow`, { token: starter })).status).toBe(403);
  });
});
