/**
 * Homey's own client (npm homey-api, V3 local and V2) with the hub's flows: it lists the cards,
 * creates a flow from them, starts it, and reads the logic variable the flow's action used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HomeyApiClient, type HomeyApiModule, homeyClient, loadHomeyApi } from '../../helpers/homey-api.js';
import { OWNER, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { flowsOf } from './helpers.js';
import { WEATHER, writeWeatherApp } from './weather-app.js';

interface ApiCard {
  id: string;
  title: string;
  ownerUri: string;
}
interface FlowManager {
  getFlowCardTriggers(): Promise<Record<string, ApiCard>>;
  getFlowCardActions(): Promise<Record<string, ApiCard>>;
  getFlowCardAction(opts: { id: string }): Promise<ApiCard>;
  createFlow(opts: { flow: Record<string, unknown> }): Promise<{ id: string; name: string; enabled: boolean }>;
  triggerFlow(opts: { id: string }): Promise<unknown>;
  getFlows(): Promise<Record<string, { name: string }>>;
  deleteFlow(opts: { id: string }): Promise<unknown>;
}
interface LogicManager {
  getVariable(opts: { id: string }): Promise<{ id: string; name: string; value: unknown }>;
  getVariables(): Promise<Record<string, { name: string }>>;
}
interface FlowTokenManager {
  getFlowTokens(): Promise<Record<string, { id: string; title: string; value: unknown }>>;
}

let hub: RunningHub;
let homeyApi: HomeyApiModule;
const clients: HomeyApiClient[] = [];
const { lastMessage } = flowsOf(() => hub);

beforeAll(async () => {
  homeyApi = await loadHomeyApi();
  const appsDir = await tempDir('hearth-flows-homey-api-');
  await writeWeatherApp(appsDir);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, WEATHER);
  await poll(lastMessage, (v) => v === '', 'the weather app to make its token');
}, 240_000);

afterAll(async () => {
  for (const c of clients) c.destroy();
  await hub?.cleanup();
});

async function clientOf(flavour: 'V3 local' | 'V2'): Promise<HomeyApiClient> {
  const client = await homeyClient(homeyApi, hub.url, OWNER, flavour);
  clients.push(client);
  return client;
}

describe.each(['V3 local', 'V2'] as const)('homey-api %s', (flavour) => {
  it('lists the cards, creates a flow from them, starts it, and reads the variable it used', async () => {
    const variable = await hub.call<{ id: string }>('POST', '/api/manager/logic/variable', {
      body: { name: `Who ${flavour}`, type: 'string', value: flavour },
    });
    expect(variable.status).toBe(201);
    const client = await clientOf(flavour);
    const flow = (client as unknown as { flow: FlowManager }).flow;
    const logic = (client as unknown as { logic: LogicManager }).logic;

    const triggers = Object.values(await flow.getFlowCardTriggers());
    const wind = triggers.find((c) => c.title === 'The wind starts')!;
    expect(wind.ownerUri).toBe(`homey:app:${WEATHER}`);
    const remember = Object.values(await flow.getFlowCardActions()).find((c) => c.title === 'Remember a message')!;
    // The client finds a card again by the id it listed it under.
    expect((await flow.getFlowCardAction({ id: remember.id })).title).toBe('Remember a message');

    const created = await flow.createFlow({
      flow: {
        name: `Wind (${flavour})`,
        trigger: { id: wind.id, args: {} },
        conditions: [],
        actions: [{ id: remember.id, args: { message: `wind, says [[homey:manager:logic|${variable.body.id}]]` } }],
      },
    });
    expect(created).toMatchObject({ name: `Wind (${flavour})`, enabled: true });
    expect(Object.values(await flow.getFlows()).map((f) => f.name)).toContain(`Wind (${flavour})`);
    await flow.triggerFlow({ id: created.id });
    expect(await lastMessage()).toBe(`wind, says ${flavour}`);

    const read = await logic.getVariable({ id: variable.body.id });
    expect(read).toMatchObject({ name: `Who ${flavour}`, value: flavour });
    expect(Object.values(await logic.getVariables()).map((v) => v.name)).toContain(`Who ${flavour}`);
    const tokens = await (client as unknown as { flowtoken: FlowTokenManager }).flowtoken.getFlowTokens();
    expect(tokens[`homey:manager:logic:${variable.body.id}`]).toMatchObject({ id: `homey:manager:logic:${variable.body.id}`, title: `Who ${flavour}` });
    await flow.deleteFlow({ id: created.id });
  });
});
