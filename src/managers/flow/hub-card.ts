/**
 * A card the hub runs itself (its own, system-cards.ts, and the devices', device-cards.ts): a card
 * as apps' cards are read (apps/manifest/flow-cards.ts), with what does its work in the hub.
 */
import type { Arg, Card, CardKind, Token } from '../../apps/manifest/flow-cards.js';

/** How a hub card works: what an app's listeners do for an app's card. */
export interface SystemImpl {
  /** A trigger's filter: whether the flow on it goes on (all go on without one). */
  filter?(args: Record<string, unknown>, state: Record<string, unknown>, flow: { id: string }): boolean;
  /** A condition's answer, or an action's work. `runId` is the run it belongs to. */
  run?(args: Record<string, unknown>, runId: string): Promise<unknown> | unknown;
  autocomplete?(name: string, query: string): Array<{ name: string; [field: string]: unknown }>;
  /** Why a flow using the card with `args` cannot run (what it names is gone), or null. */
  broken?(args: Record<string, unknown>): string | null;
}
export type HubCard = Card & { readonly system?: SystemImpl; readonly ownerName?: string };

/** The id of an autocomplete argument's chosen item (`{id, name}`), or null when none was chosen. */
export const idOf = (v: unknown): string | null =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' ? (v as { id: string }).id : null;

/** An argument of a hub card: required, no bounds unless given. */
export function hubArg(name: string, type: Arg['type'], title: string, extra: Partial<Arg> = {}): Arg {
  return { name, type, title, placeholder: null, values: null, min: null, max: null, step: null, filter: null, required: true, ...extra };
}

/** A hub card of `owner` (`homey:manager:<id>` or `homey:device:<id>`). */
export function hubCard(
  owner: { uri: string; id: string; name: string },
  spec: { cardId: string; kind: CardKind; title: string; titleFormatted?: string; args?: Arg[]; tokens?: Token[]; hint?: string },
  system: SystemImpl,
): HubCard {
  return {
    id: `${owner.uri}:${spec.cardId}`,
    ownerUri: owner.uri,
    appId: owner.id,
    cardId: spec.cardId,
    kind: spec.kind,
    title: spec.title,
    titleFormatted: spec.titleFormatted ?? null,
    hint: spec.hint ?? null,
    args: spec.args ?? [],
    tokens: spec.tokens ?? [],
    droptoken: null,
    deprecated: false,
    highlight: false,
    duration: false,
    deviceArg: null,
    system,
    ownerName: owner.name,
  };
}
