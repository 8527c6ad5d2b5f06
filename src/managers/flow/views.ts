/**
 * What a flow is, on the wire and in the data file: one trigger card, conditions (each may be
 * inverted; conditions of one group must all hold, and the flow goes on when any group holds),
 * and actions in a "then" and an "else" branch, each with an optional delay in seconds.
 * Cards are named by Homey's id, `homey:<kind>:<owner>:<card>` (`homey:app:com.example:dim`).
 * Homey's client V2 sends `{uri, id}` with the card's own id: both are read as the same card.
 */

import { z } from 'zod';
import { ActorView } from '../../core/actor.js';
import { lazy } from '../../core/contract.js';
import { safeRecord } from '../../core/null-prototype.js';

const JsonObject = lazy(() => safeRecord(z.string(), z.unknown()));

/** Limits of one flow: far beyond what anyone builds by hand. */
export const FLOW_LIMITS = { conditions: 50, actions: 50, argsBytes: 64 * 1024, flows: 5_000, folders: 500, delaySeconds: 7 * 24 * 3600 };

/** Homey's card id: `homey:<app|manager|device>:<owner>:<card>`. */
export const CARD_ID = /^homey:(app|manager|device):[^:\s]{1,128}:[A-Za-z0-9_.-]{1,128}$/;

/** A card's id as Homey's clients send it: whole, or V2's `uri` and the card's own id. */
function cardId(card: { id: string; uri?: string | undefined }): string {
  if (card.uri === undefined || card.id.startsWith(`${card.uri}:`)) return card.id;
  return `${card.uri}:${card.id}`;
}

const CardIdField = lazy(() => z.string().min(1).max(300));
const Args = lazy(() =>
  JsonObject()
    .default(() => ({}))
    .refine((a) => JSON.stringify(a).length <= FLOW_LIMITS.argsBytes, {
      error: `a card's arguments take at most ${FLOW_LIMITS.argsBytes / 1024} KiB`,
    }),
);
const Droptoken = lazy(() => z.string().max(300).nullable().default(null));
const checkedId = <T extends { id: string; uri?: string | undefined }>(card: T, ctx: z.RefinementCtx) => {
  const id = cardId(card);
  if (!CARD_ID.test(id)) ctx.addIssue({ code: 'custom', path: ['id'], message: `'${id}' is not a card id such as homey:app:com.example:my_card` });
  return id;
};

/** The trigger of a flow, as given. */
export const TriggerInput = lazy(() =>
  z
    .object({ id: CardIdField(), uri: z.string().max(200).optional(), args: Args(), droptoken: Droptoken() })
    .transform((c, ctx) => ({ id: checkedId(c, ctx), args: c.args })),
);
export const ConditionInput = lazy(() =>
  z
    .object({
      id: CardIdField(),
      uri: z.string().max(200).optional(),
      args: Args(),
      droptoken: Droptoken(),
      inverted: z.boolean().default(false),
      group: z
        .string()
        .regex(/^group[1-9]$/, 'must be group1 to group9')
        .default('group1'),
    })
    .transform((c, ctx) => ({ id: checkedId(c, ctx), args: c.args, droptoken: c.droptoken, inverted: c.inverted, group: c.group })),
);
export const ActionInput = lazy(() =>
  z
    .object({
      id: CardIdField(),
      uri: z.string().max(200).optional(),
      args: Args(),
      droptoken: Droptoken(),
      group: z.enum(['then', 'else']).default('then'),
      delay: z.number().min(0).max(FLOW_LIMITS.delaySeconds).nullable().default(null),
    })
    .transform((c, ctx) => ({ id: checkedId(c, ctx), args: c.args, droptoken: c.droptoken, group: c.group, delay: c.delay })),
);

const Name = lazy(() => z.string().trim().min(1, 'a flow needs a name').max(200));
const FolderRef = lazy(() => z.string().min(1).max(64).nullable());

export const FlowCreate = lazy(() =>
  z.object({
    name: Name(),
    folder: FolderRef().optional(),
    enabled: z.boolean().default(true),
    trigger: TriggerInput(),
    conditions: z.array(ConditionInput()).max(FLOW_LIMITS.conditions).default([]),
    actions: z.array(ActionInput()).max(FLOW_LIMITS.actions).default([]),
  }),
);
export type FlowCreate = z.output<ReturnType<typeof FlowCreate>>;
export const FlowUpdate = lazy(() =>
  z.object({
    name: Name().optional(),
    folder: FolderRef().optional(),
    enabled: z.boolean().optional(),
    trigger: TriggerInput().optional(),
    conditions: z.array(ConditionInput()).max(FLOW_LIMITS.conditions).optional(),
    actions: z.array(ActionInput()).max(FLOW_LIMITS.actions).optional(),
  }),
);
export type FlowUpdate = z.output<ReturnType<typeof FlowUpdate>>;

const StoredTrigger = lazy(() => z.object({ id: z.string(), args: JsonObject() }));
const StoredCondition = lazy(() =>
  z.object({ id: z.string(), args: JsonObject(), droptoken: z.string().nullable(), inverted: z.boolean(), group: z.string() }),
);
const StoredAction = lazy(() =>
  z.object({
    id: z.string(),
    args: JsonObject(),
    droptoken: z.string().nullable(),
    group: z.enum(['then', 'else']),
    delay: z.number().nullable(),
  }),
);
export type TriggerRef = z.infer<ReturnType<typeof StoredTrigger>>;
export type ConditionRef = z.infer<ReturnType<typeof StoredCondition>>;
export type ActionRef = z.infer<ReturnType<typeof StoredAction>>;

/** A flow in the data file. */
export const FlowRecord = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    folder: z.string().nullable(),
    enabled: z.boolean(),
    trigger: StoredTrigger(),
    conditions: z.array(StoredCondition()),
    actions: z.array(StoredAction()),
    created: z.string(),
  }),
);
export type FlowRecord = z.infer<ReturnType<typeof FlowRecord>>;

export const FolderRecord = lazy(() => z.object({ id: z.string(), name: z.string(), parent: z.string().nullable() }));
export type FolderRecord = z.infer<ReturnType<typeof FolderRecord>>;

/** A card of a flow as answered: its `uri` too (Homey's client V2 builds its ids from it). */
const Uri = lazy(() => ({ uri: z.string() }));

export const FlowView = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    folder: z.string().nullable(),
    enabled: z.boolean(),
    /** Whether `triggerFlow` can start it: its trigger card brings no tokens the flow would miss. */
    triggerable: z.boolean(),
    /** A card or token it uses no longer exists (its app was uninstalled, its device deleted): it stays, and does not run. */
    broken: z.boolean(),
    brokenReason: z.string().nullable(),
    trigger: StoredTrigger().extend(Uri()),
    conditions: z.array(StoredCondition().extend(Uri())),
    actions: z.array(StoredAction().extend(Uri())),
  }),
);
export type FlowView = z.infer<ReturnType<typeof FlowView>>;

export const FolderView = lazy(() => FolderRecord());
export type FolderView = FolderRecord;

const ArgView = lazy(() =>
  z.object({
    name: z.string(),
    type: z.string(),
    title: z.string(),
    placeholder: z.string().nullable(),
    values: z.array(z.object({ id: z.string(), label: z.string() })).nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    step: z.number().nullable(),
    filter: z.string().nullable(),
    required: z.boolean(),
  }),
);
const TokenView = lazy(() => z.object({ id: z.string(), type: z.string(), title: z.string(), example: z.string().nullable() }));

export const CardView = lazy(() =>
  z.object({
    id: z.string(),
    /** The owner's uri again (Homey's client V2 builds its ids from it). */
    uri: z.string(),
    ownerUri: z.string(),
    ownerId: z.string(),
    ownerName: z.string(),
    type: z.enum(['trigger', 'condition', 'action']),
    title: z.string(),
    titleFormatted: z.string().nullable(),
    hint: z.string().nullable(),
    args: z.array(ArgView()),
    tokens: z.array(TokenView()),
    droptoken: z.array(z.string()).nullable(),
    deprecated: z.boolean(),
    highlight: z.boolean(),
    duration: z.boolean(),
    /** The scope running it needs besides the flows scope (card-rights.ts), or null. */
    needs: z.string().nullable(),
    /** Whether the caller's token may run it (hearth's own field: the flow editor greys out the others). */
    usable: z.boolean(),
  }),
);
export type CardView = z.infer<ReturnType<typeof CardView>>;

/** One step of a run: a card that ran (or was skipped), what it answered or why it failed. */
const Step = lazy(() =>
  z.object({
    card: z.string(),
    /** The card's title and its owner's name (an app, a device, the hub's), when it ran: null for a card that no longer exists. */
    title: z.string().nullable(),
    ownerName: z.string().nullable(),
    kind: z.enum(['trigger', 'condition', 'action']),
    /** The card's place in the flow: 0 for the trigger, else its index among the flow's conditions or its actions (then and else together). */
    index: z.number().int().min(0),
    outcome: z.enum(['true', 'false', 'done', 'failed', 'skipped']),
    error: z.string().nullable(),
    at: z.string(),
  }),
);
/** One run of a flow, as its log keeps it. */
export const RunView = lazy(() =>
  z.object({
    id: z.string(),
    flow: z.string(),
    started: z.string(),
    ended: z.string().nullable(),
    /** `ran`: its branch ran; `failed`: a card failed (the steps say which and why); `stopped`: a bound held it. */
    result: z.enum(['running', 'ran', 'failed', 'stopped']),
    branch: z.enum(['then', 'else']).nullable(),
    error: z.string().nullable(),
    steps: z.array(Step()),
    by: ActorView().nullable().describe("hearth's: who started it by hand (a person, a script's token), null when its trigger did"),
  }),
);
export type RunView = z.infer<ReturnType<typeof RunView>>;
export type RunStep = z.infer<ReturnType<typeof Step>>;
