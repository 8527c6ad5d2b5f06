/**
 * The part of the protocol that carries flows (protocol.ts holds the rest): an app's cards fire
 * (`trigger`) and its tokens change, and the hub runs its cards' listeners (a trigger's filter,
 * a condition, an action, an argument's autocomplete). Cards are named as app.json names them
 * (`kind` and the card's id); the hub knows them as `homey:app:<appId>:<id>`.
 */
import { z } from 'zod';
import { safeRecord } from '../../core/null-prototype.js';
import { openCall } from './open-call.js';

const JsonObject = safeRecord(z.string(), z.unknown());
const CardId = z.string().min(1).max(128);
const DeviceId = z.string().min(1).max(64);
const TokenId = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be 1-128 letters, digits, _ . or -');
/** A token's value: Homey's token types are string, number, boolean and image (an image's id). */
export const TokenValue = z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]);
export const TOKEN_TYPES = ['string', 'number', 'boolean', 'image'] as const;
/** The run of a flow that was going on in the app when it called (its listener was running): how the hub bounds a flow that triggers itself. */
const Cause = z.string().max(64).nullable();
const Kind = z.enum(['trigger', 'condition', 'action']);
/** How many flows' arguments one trigger may hand the app to filter at once. */
export const MAX_FILTERED = 5_000;
/** How many lists of flows' arguments (flow.filter) an app keeps: a list a trigger card, or a device's on a device card. */
export const FILTER_LISTS_KEPT = 64;
/** A list of flows' arguments, by the id the hub gave it. */
const ListId = z.string().min(1).max(256);
/** Which of a list's arguments go on: their indexes. */
const Going = z.array(z.number().int().nonnegative().max(MAX_FILTERED)).max(MAX_FILTERED);

const call = openCall;

/** Calls an app makes about its flow cards and tokens. */
export const FLOW_HUB_CALLS = {
  /**
   * `card.trigger(tokens, state)` (or a device trigger's `trigger(device, tokens, state)`).
   * `filtered`: the run listener's answer for the list the hub last asked about for this card
   * (and device), given by the app beforehand; the hub takes it when that list is still the
   * card's, and asks (flow.filter) otherwise. It is the app's own answer either way.
   */
  'flow.trigger': call(
    () =>
      z.object({
        card: CardId,
        device: DeviceId.nullable(),
        tokens: safeRecord(z.string(), TokenValue),
        state: JsonObject,
        cause: Cause,
        filtered: z.object({ list: ListId, go: Going }).optional(),
      }),
    () => z.null(),
  ),
  /** `homey.flow.createToken(id, {type, title, value})`. */
  'flow.token.create': call(
    () => z.object({ id: TokenId, type: z.enum(TOKEN_TYPES), title: z.string().min(1).max(200), value: TokenValue }),
    () => z.null(),
  ),
  'flow.token.set': call(
    () => z.object({ id: TokenId, value: TokenValue }),
    () => z.null(),
  ),
  'flow.token.unregister': call(
    () => z.object({ id: TokenId }),
    () => z.null(),
  ),
  /** `card.getArgumentValues(device?)`: the arguments of every flow on the card (a device argument as `{id, name}`). */
  'flow.argumentValues': call(
    () => z.object({ kind: Kind, card: CardId, device: DeviceId.nullable() }),
    () => z.array(JsonObject),
  ),
} as const;

/** Calls the hub makes into an app's cards. */
export const FLOW_APP_CALLS = {
  /**
   * A trigger fired: which of the flows on it go on, by the card's run listener (args, state). The
   * flows' distinct arguments are a list the app keeps by its id (`list`): they come with the
   * call only when the list is new (the flows changed); without them, an app that does not have
   * the list answers `missing` and is sent it. The answer: the indexes in the list of the
   * arguments that go on. A card without a listener lets every flow go on.
   */
  'flow.filter': call(
    () =>
      z.object({
        card: CardId,
        device: DeviceId.nullable(),
        list: ListId,
        args: z.array(JsonObject).max(MAX_FILTERED).optional(),
        state: JsonObject,
      }),
    () => z.union([z.object({ go: Going }), z.object({ missing: z.literal(true) })]),
  ),
  /** A condition or an action runs: its listener with the flow's arguments (tokens already in them). A condition answers true or false. */
  'flow.run': call(
    () =>
      z.object({
        kind: z.enum(['condition', 'action']),
        card: CardId,
        device: DeviceId.nullable(),
        args: JsonObject,
        state: JsonObject,
        run: z.string().max(64),
      }),
    () => z.unknown(),
  ),
  /** An argument's autocomplete listener. */
  'flow.autocomplete': call(
    () => z.object({ kind: Kind, card: CardId, device: DeviceId.nullable(), name: z.string().max(128), query: z.string().max(1000), args: JsonObject }),
    () => z.array(z.looseObject({ name: z.string() })).max(500),
  ),
} as const;
