/**
 * The flow handlers: flows and their folders, running a flow or a card by hand, the cards as
 * the caller sees them (which it may run, card-rights.ts), their autocomplete. A caller that
 * saves, turns on or tests a flow must hold the rights of every card it names.
 */
import { randomUUID } from 'node:crypto';
import { type CardKind, deviceOf } from '../../apps/manifest/flow-cards.js';
import type { Actor } from '../../core/actor.js';
import { HearthError, invalid } from '../../core/errors.js';
import { implement, type Operation } from '../../core/operation.js';
import type { TokenInfo } from '../../core/tokens.js';
import { checkCardRights, forCaller } from './card-rights.js';
import type { CardRegistry } from './cards.js';
import { flowContract } from './contract.js';
import type { AppCaller, FlowEngine, Tokens } from './engine.js';
import type { RunLog } from './run-log.js';
import { type FlowsService, refsOf } from './service.js';
import type { CardView } from './views.js';

const KIND_OF_PATH: Record<string, CardKind> = { flowcardtrigger: 'trigger', flowcardcondition: 'condition', flowcardaction: 'action' };
const notHere = (): never => {
  throw new HearthError(
    'not_implemented',
    'advanced flows are not part of hearth: build the flow as a standard flow (a trigger, conditions, then and else actions)',
  );
};

/** Every card of `kind` as `token` sees them (which it may run). */
function viewsFor(cards: CardRegistry, token: TokenInfo | null, kind: CardKind): Record<string, CardView> {
  const views = cards.views(kind);
  for (const [id, v] of Object.entries(views)) views[id] = forCaller(token, v);
  return views;
}

/** Throws a 403 when `token` may not run one of the cards `flow` names (card-rights.ts); cards that do not exist are the service's to refuse. */
function mayRun(cards: CardRegistry, token: TokenInfo | null, flow: Parameters<typeof refsOf>[0]): void {
  checkCardRights(
    token,
    refsOf(flow).flatMap(([kind, ref]) => {
      const card = cards.find(kind, ref.id);
      const named = cards.describe(kind, ref.id);
      return card ? [{ card, kind, name: named ? `'${named.ownerName}: ${named.title}'` : card.id }] : [];
    }),
  );
}

/** Runs one card by hand (runFlowCardCondition/Action): its arguments checked, its tokens given. */
async function runCard(
  engine: FlowEngine,
  runs: RunLog,
  kind: 'condition' | 'action',
  id: string,
  body: { args: Record<string, unknown>; tokens: Record<string, unknown>; state: Record<string, unknown> },
  by: Actor | null,
): Promise<unknown> {
  const tokens: Tokens = {};
  for (const [k, v] of Object.entries(body.tokens)) if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) tokens[k] = v as Tokens[string];
  // What the card does, its caller did (a device it switches names them).
  const runId = `manual-${randomUUID()}`;
  if (by) runs.actAs(runId, by);
  try {
    return await engine.runCard(kind, { id, args: body.args }, tokens, body.state, runId);
  } catch (err) {
    if (err instanceof HearthError) throw err;
    throw invalid((err as Error).message);
  }
}

export interface FlowSide {
  readonly service: FlowsService;
  readonly cards: CardRegistry;
  readonly engine: FlowEngine;
  readonly runs: RunLog;
  /** Calls an app's flow side (autocomplete of its cards' arguments). */
  readonly call: AppCaller;
}

export function flowOperations({ service, cards, engine, runs, call }: FlowSide): Operation[] {
  return implement(flowContract.operations, {
    getState: () => {
      const flows = Object.values(service.list());
      return {
        flows: flows.length,
        enabled: flows.filter((f) => f.enabled).length,
        broken: flows.filter((f) => f.broken).length,
        folders: Object.keys(service.folderList()).length,
      };
    },
    getFlows: () => service.list(),
    getFlow: ({ params }) => service.get(params.id),
    createFlow: ({ body }, ctx) => {
      mayRun(cards, ctx.token, body);
      return service.create(body);
    },
    updateFlow: ({ params, body }, ctx) => {
      // The cards it is given; and all of them when it is turned on (it will run them).
      const before = service.record(params.id);
      mayRun(cards, ctx.token, body.enabled === true && !before.enabled ? { ...before, ...body } : body);
      return service.update(params.id, body);
    },
    deleteFlow: async ({ params }) => {
      await service.remove(params.id);
      runs.forget(params.id);
      engine.forget(params.id);
    },
    triggerFlow: async ({ params }, ctx) => {
      const flow = service.record(params.id);
      const view = service.view(flow);
      if (view.broken) throw new HearthError('conflict', `flow '${flow.name}' is broken: ${view.brokenReason}`);
      if (!view.triggerable) throw new HearthError('conflict', `flow '${flow.name}' cannot be started by hand: its trigger brings tokens its cards use`);
      return engine.run(flow, {}, {}, null, true, ctx.token?.actor ?? null);
    },
    testFlow: ({ body }, ctx) => {
      mayRun(cards, ctx.token, body.flow);
      return engine.run(service.unsaved(body.flow), body.tokens, {}, null, false, ctx.token?.actor ?? null);
    },
    getFlowLog: ({ params }) => {
      service.record(params.id);
      return runs.of(params.id);
    },
    getFlowLastRuns: () => runs.latest(),
    getFlowFolders: () => service.folderList(),
    getFlowFolder: ({ params }) => service.folder(params.id),
    createFlowFolder: ({ body }) => service.createFolder(body),
    updateFlowFolder: ({ params, body }) => service.updateFolder(params.id, body),
    deleteFlowFolder: async ({ params }) => {
      await service.removeFolder(params.id);
    },
    getFlowCardTriggers: (_input, ctx) => viewsFor(cards, ctx.token, 'trigger'),
    getFlowCardTrigger: ({ params }, ctx) => forCaller(ctx.token, cards.view(cards.byPath('trigger', params.uri, params.id))),
    getFlowCardConditions: (_input, ctx) => viewsFor(cards, ctx.token, 'condition'),
    getFlowCardCondition: ({ params }, ctx) => forCaller(ctx.token, cards.view(cards.byPath('condition', params.uri, params.id))),
    runFlowCardCondition: async ({ params, body }, ctx) => {
      const card = cards.byPath('condition', params.uri, params.id);
      mayRun(cards, ctx.token, { conditions: [{ id: card.id, args: {} }] });
      return (await runCard(engine, runs, 'condition', card.id, body, ctx.token?.actor ?? null)) === true;
    },
    getFlowCardActions: (_input, ctx) => viewsFor(cards, ctx.token, 'action'),
    getFlowCardAction: ({ params }, ctx) => forCaller(ctx.token, cards.view(cards.byPath('action', params.uri, params.id))),
    runFlowCardAction: async ({ params, body }, ctx) => {
      const card = cards.byPath('action', params.uri, params.id);
      mayRun(cards, ctx.token, { actions: [{ id: card.id, args: {} }] });
      const answer = await runCard(engine, runs, 'action', card.id, body, ctx.token?.actor ?? null);
      return typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? (answer as Record<string, unknown>) : null;
    },
    getFlowCardAutocomplete: async ({ params, query }) => {
      const kind = KIND_OF_PATH[params.type]!;
      const card = cards.byPath(kind, params.uri, params.id);
      if (!card.args.some((a) => a.name === query.name && a.type === 'autocomplete'))
        throw invalid(`card '${card.title}' has no autocomplete argument '${query.name}'`);
      let args: Record<string, unknown> = {};
      if (query.args) {
        try {
          const parsed: unknown = JSON.parse(query.args);
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
        } catch {
          throw invalid('args must be the other arguments as a JSON object');
        }
      }
      if (card.system) return card.system.autocomplete?.(query.name, query.query) ?? [];
      const device = deviceOf(card, args);
      return call(card.appId, 'flow.autocomplete', { kind, card: card.cardId, device, name: query.name, query: query.query, args }, 5_000);
    },
    getAdvancedFlows: notHere,
    getAdvancedFlow: notHere,
    createAdvancedFlow: notHere,
    updateAdvancedFlow: notHere,
    deleteAdvancedFlow: notHere,
    triggerAdvancedFlow: notHere,
  });
}
