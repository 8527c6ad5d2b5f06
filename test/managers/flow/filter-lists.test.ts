/**
 * A trigger asks the card's app which flows go on (its run listener, per flow's arguments). The
 * flows' distinct arguments are a list the app keeps: a trigger carries them only when they are
 * new to the app. So the answers must stay right when the flows change (a new list), and when
 * the app restarted and lost its lists (it says so, and is sent the list again). And the run
 * listener's answer is read as on Homey whatever shape the app's code gives it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { writeHomeyApp } from '../../homey/apps.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { F, flowsOf } from './helpers.js';
import { card, WEATHER, writeWeatherApp } from './weather-app.js';

let hub: RunningHub;
const RAIN = card(WEATHER, 'rain_start');
const REMEMBER = card(WEATHER, 'remember');
const { createFlow, log } = flowsOf(() => hub);
const PICKY = 'com.example.picky';

/**
 * A trigger whose run listener answers each way an app's code may: true at once, a promise of
 * true, a thenable of true, a promise of a truthy string, a throw, a rejection. Only `true` lets
 * a flow go on (as on Homey), and a listener that fails says no for its own flow only.
 */
async function writePickyApp(appsDir: string): Promise<void> {
  await writeHomeyApp(appsDir, PICKY, {
    json: {
      api: { fire: { method: 'POST', path: '/fire' } },
      flow: { triggers: [{ id: 'picked', title: { en: 'Picked' }, args: [{ type: 'text', name: 'how', title: { en: 'How' } }] }] },
    },
    files: {
      'app.js': `const Homey = require('homey');
module.exports = class extends Homey.App {
  async onInit() {
    this.picked = this.homey.flow.getTriggerCard('picked');
    this.picked.registerRunListener((args) => {
      if (args.how === 'sync') return true;
      if (args.how === 'async') return Promise.resolve(true);
      if (args.how === 'thenable') return { then: (ok) => ok(true) };
      if (args.how === 'truthy') return Promise.resolve('yes');
      if (args.how === 'throw') throw new Error('no such thing');
      return Promise.reject(new Error('rejected'));
    });
  }
};
`,
      'api.js': "module.exports = { async fire({ homey }) { await homey.app.picked.trigger({}, {}); return 'ok'; } };\n",
    },
  });
}
const rain = (location: string, mm: number) => hub.call('POST', `/api/app/${WEATHER}/rain`, { body: { location, mm } });

beforeAll(async () => {
  const appsDir = await tempDir('hearth-filter-apps-');
  await writeWeatherApp(appsDir);
  await writePickyApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, WEATHER);
  await waitAppRunning(hub, PICKY);
});

afterAll(async () => {
  await hub?.cleanup();
});

/** How many times each flow has run, once every flow of `want` has run that often. */
async function ranTimes(ids: Record<string, string>, want: Record<string, number>): Promise<Record<string, number>> {
  const counts = async () => Object.fromEntries(await Promise.all(Object.entries(ids).map(async ([name, id]) => [name, (await log(id)).length])));
  return poll(counts, (c) => Object.entries(want).every(([name, n]) => c[name] === n), `the flows to have run ${JSON.stringify(want)}`);
}

it('picks the flows by their arguments as the flows change, and after the app restarted', { timeout: 60_000 }, async () => {
  const flow = (name: string, location: string) =>
    createFlow({ name, trigger: { id: RAIN, args: { location } }, actions: [{ id: REMEMBER, args: { message: name } }] });
  const ids = {
    home: (await flow('at home', 'home')).id,
    work: (await flow('at work', 'work')).id,
    alsoHome: (await flow('also at home', 'home')).id,
  };
  await rain('home', 1);
  // Two distinct arguments for three flows: both 'home' flows go on, 'work' does not.
  expect(await ranTimes(ids, { home: 1, alsoHome: 1, work: 0 })).toEqual({ home: 1, alsoHome: 1, work: 0 });
  await rain('work', 1);
  await ranTimes(ids, { home: 1, alsoHome: 1, work: 1 });

  // The flows change: the first flow is now everywhere ('loop'), so the list is another (loop, work,
  // home): answered by the old one (home, work), 'home' would start the first flow.
  const changed = await hub.call('PUT', `${F}/flow/${ids.home}`, { body: { trigger: { id: RAIN, args: { location: 'loop' } } } });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  await rain('home', 2);
  await ranTimes(ids, { home: 1, alsoHome: 2, work: 1 });
  await rain('loop', 2);
  await ranTimes(ids, { home: 2, alsoHome: 2, work: 1 });

  // The app restarts: it kept no list. It says so, is sent the list, and answers.
  expect((await hub.call('POST', `/api/manager/apps/app/${WEATHER}/restart`)).status).toBe(200);
  await waitAppRunning(hub, WEATHER);
  await rain('home', 4);
  await ranTimes(ids, { home: 2, alsoHome: 3, work: 1 });
  await rain('loop', 4);
  await ranTimes(ids, { home: 3, alsoHome: 3, work: 1 });
  const runs = await log(ids.home);
  expect(runs.map((r) => r.result)).toEqual(['ran', 'ran', 'ran']);
});

it('lets a flow go on only when its run listener answers true, and a listener that throws says no for its flow only', { timeout: 60_000 }, async () => {
  const ways = ['sync', 'async', 'thenable', 'truthy', 'throw', 'reject'];
  const ids: Record<string, string> = {};
  for (const how of ways)
    ids[how] = (
      await createFlow({ name: `picked ${how}`, trigger: { id: card(PICKY, 'picked'), args: { how } }, actions: [{ id: REMEMBER, args: { message: how } }] })
    ).id;
  expect((await hub.call('POST', `/api/app/${PICKY}/fire`)).status).toBe(200);
  const want = { sync: 1, async: 1, thenable: 1, truthy: 0, throw: 0, reject: 0 };
  expect(await ranTimes(ids, want)).toEqual(want);
  const stderr = (await hub.call<{ stderr: string }>('POST', `/api/manager/apps/app/${PICKY}/crashlog`, { body: {} })).body.stderr;
  expect(stderr).toContain("the run listener of trigger 'picked' threw:");
  expect(stderr).toContain('no such thing');
  expect(stderr).toContain('rejected');
  expect((await hub.call<{ state: string }>('GET', `/api/manager/apps/app/${PICKY}`)).body.state).toBe('running');
});
