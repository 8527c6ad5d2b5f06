/**
 * What the flow tests ask a hub: a flow made (201, or the test fails with the hub's answer), a
 * flow's log, waiting for its n-th run, and the weather app's token (what its actions remember).
 */
import { expect } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { CRASHY, WEATHER, writeWeatherApp } from './weather-app.js';

export const F = '/api/manager/flow';

export interface Run {
  id: string;
  result: string;
  branch: string | null;
  error: string | null;
  started: string;
  steps: Array<{ card: string; title: string | null; ownerName: string | null; kind: string; outcome: string; error: string | null; at: string }>;
}

export interface Flow {
  id: string;
  name: string;
  enabled: boolean;
  broken: boolean;
  brokenReason: string | null;
  triggerable: boolean;
  trigger: { id: string; uri: string; args: Record<string, unknown> };
}

/** The helpers for the hub `hub()` gives (it is made in beforeAll). */
export function flowsOf(hub: () => RunningHub) {
  const log = async (id: string) => (await hub().call<Run[]>('GET', `${F}/flow/${id}/log`)).body;
  return {
    async createFlow(flow: Record<string, unknown>): Promise<Flow> {
      const r = await hub().call<Flow>('POST', `${F}/flow`, { body: flow });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    },
    log,
    runs: (id: string, n: number) =>
      poll(
        () => log(id),
        (l) => l.length >= n,
        `flow ${id} to have run ${n} times`,
      ),
    /** The weather app's token `last_message`: what its remember action was last given. */
    lastMessage: async () => (await hub().call<string>('GET', `/api/manager/flowtoken/flowtoken/homey:app:${WEATHER}:last_message/value`)).body,
  };
}

/** A hub running the weather app and the crashy one (weather-app.ts), once the weather app made its token. */
export async function startWeatherHub(): Promise<RunningHub> {
  const appsDir = await tempDir('hearth-flows-apps-');
  await writeWeatherApp(appsDir);
  const hub = await startHub({ appsDir });
  await waitAppRunning(hub, WEATHER);
  await waitAppRunning(hub, CRASHY);
  // The app made its token in onInit.
  await poll(flowsOf(() => hub).lastMessage, (v) => v === '', 'the weather app to make its token');
  return hub;
}
