/**
 * The SDK calls an app makes about its flow cards and tokens: a trigger fired, a token made or
 * set, the arguments of the flows on a card. An app reaches its own cards, tokens and devices
 * only: another app's are "not found", as if they did not exist.
 */
import type { SdkRouter } from '../../apps/host/router.js';
import { deviceOf } from '../../apps/manifest/flow-cards.js';
import { invalid, notFound } from '../../core/errors.js';
import type { FlowTokens } from '../flowtoken/registry.js';
import type { CardRegistry } from './cards.js';
import type { FlowEngine, Tokens } from './engine.js';
import type { FlowsService } from './service.js';

export interface AppSideDeps {
  readonly cards: CardRegistry;
  readonly flows: FlowsService;
  readonly engine: FlowEngine;
  readonly tokens: FlowTokens;
  /** The app that owns a device, or null when there is no such device. */
  readonly deviceApp: (deviceId: string) => string | null;
}

export function serveFlows(router: SdkRouter, d: AppSideDeps): Array<() => void> {
  const ownDevice = (appId: string, device: string | null): void => {
    if (device !== null && d.deviceApp(device) !== appId) throw notFound(`the app has no device '${device}'`);
  };
  return [
    router.handle('flow.trigger', (app, { card: cardId, device, tokens, state, cause, filtered }) => {
      const card = d.cards.find('trigger', `${app.uri}:${cardId}`);
      if (!card) throw notFound(`the app declares no trigger card '${cardId}'`);
      ownDevice(app.id, device);
      if (card.deviceArg && device === null) throw invalid(`trigger '${cardId}' is a device card: trigger it with one of the app's devices`);
      // The card's tokens, each of its type (an image by its id); a token the card does not declare is left out.
      const given: Tokens = {};
      for (const t of card.tokens) {
        const v = tokens[t.name];
        if (v === undefined || v === null) {
          given[t.name] = null;
          continue;
        }
        if ((t.type === 'image' ? 'string' : t.type) !== typeof v)
          throw invalid(`token '${t.name}' of trigger '${cardId}' is a ${t.type}, not ${JSON.stringify(v)}`);
        given[t.name] = v;
      }
      // The app's call answers at once; the flows' runs go on without it.
      void d.engine.fire(card, d.flows.onTrigger(card.id), device, given, state, cause, filtered ?? null);
      return null;
    }),
    router.handle('flow.token.create', (app, def) => {
      d.tokens.create(app.id, def);
      return null;
    }),
    router.handle('flow.token.set', (app, { id, value }) => {
      d.tokens.set(app.id, id, value);
      return null;
    }),
    router.handle('flow.token.unregister', (app, { id }) => {
      d.tokens.unregister(app.id, id);
      return null;
    }),
    router.handle('flow.argumentValues', (app, { kind, card: cardId, device }) => {
      const card = d.cards.find(kind, `${app.uri}:${cardId}`);
      if (!card) throw notFound(`the app declares no ${kind} card '${cardId}'`);
      ownDevice(app.id, device);
      const out: Array<Record<string, unknown>> = [];
      for (const f of d.flows.records()) {
        const refs = kind === 'trigger' ? [f.trigger] : kind === 'condition' ? f.conditions : f.actions;
        for (const ref of refs) {
          if (ref.id !== card.id) continue;
          if (device !== null && card.deviceArg && deviceOf(card, ref.args) !== device) continue;
          out.push(ref.args);
        }
      }
      return out;
    }),
  ];
}
