/**
 * A trigger asks the card's app which flows go on (its run listener, per flow's arguments). The
 * flows' distinct arguments are a list the app keeps: a trigger carries them only when they are
 * new to the app. So the answers must stay right when the flows change (a new list), and when
 * the app restarted and lost its lists (it says so, and is sent the list again).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { F, flowsOf } from './helpers.js';
import { card, WEATHER, writeWeatherApp } from './weather-app.js';

let hub: RunningHub;
const RAIN = card(WEATHER, 'rain_start');
const REMEMBER = card(WEATHER, 'remember');
const { createFlow, log } = flowsOf(() => hub);
const rain = (location: string, mm: number) => hub.call('POST', `/api/app/${WEATHER}/rain`, { body: { location, mm } });

beforeAll(async () => {
  const appsDir = await tempDir('hearth-filter-apps-');
  await writeWeatherApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, WEATHER);
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
