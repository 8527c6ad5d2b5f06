/**
 * Flow cards as apps declare them (app.json `flow`, composed from `.homeycompose/flow/` and the
 * drivers' `driver.flow.compose.json`), read into what the engine and the editor need: the
 * card's kind, texts, arguments and tokens. A card hearth cannot read is left out with a
 * sentence why (the app still runs; only that card is missing), never the whole app.
 */

import { z } from 'zod';
import { transient } from '../../core/transient.js';
import { describeIssues } from '../../core/zod-issues.js';

/** Flow card kinds as app.json lists them, and as `homey.flow.get<Kind>Card` finds them. */
export const FLOW_KINDS = ['triggers', 'conditions', 'actions'] as const;
export type FlowKind = (typeof FLOW_KINDS)[number];

export const CARD_KINDS = ['trigger', 'condition', 'action'] as const;
export type CardKind = (typeof CARD_KINDS)[number];
const LISTS: Record<CardKind, 'triggers' | 'conditions' | 'actions'> = { trigger: 'triggers', condition: 'conditions', action: 'actions' };

/**
 * Homey's argument types; each is checked in a flow as managers/flow/arg-values.ts says. `code`
 * (a text in a code editor, HomeyScript's) is a text. A type hearth does not know is kept, and
 * its value taken as given: an app's other cards are no reason to lose the card.
 */
export const ARG_TYPES = ['text', 'code', 'autocomplete', 'number', 'range', 'date', 'time', 'dropdown', 'checkbox', 'color', 'device'] as const;
export type ArgType = (typeof ARG_TYPES)[number] | (string & {});

/** A device argument's filter as Homey writes it, a string (`driver_id=lamp&class=light|socket`) or an object of the same. */
const Filter = transient(() =>
  z.union([
    z.string().max(1000),
    z.record(z.string(), z.union([z.string(), z.array(z.string())])).transform((o) =>
      Object.entries(o)
        .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('|') : v}`)
        .join('&'),
    ),
  ]),
);

const Localized = transient(() => z.union([z.string(), z.record(z.string(), z.string())]));
const ArgDef = transient(() =>
  z.looseObject({
    type: z.string().min(1).max(64),
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -'),
    title: Localized().optional(),
    placeholder: Localized().optional(),
    values: z.array(z.looseObject({ id: z.string(), label: Localized().optional(), title: Localized().optional() })).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().optional(),
    filter: Filter().optional(),
    required: z.boolean().optional(),
  }),
);
const TokenDef = transient(() =>
  z.looseObject({
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be 1-128 letters, digits, _ . or -'),
    type: z.enum(['string', 'number', 'boolean', 'image']),
    title: Localized().optional(),
    example: z.unknown().optional(),
  }),
);
const CardDef = transient(() =>
  z.looseObject({
    // Any text, as Homey's validator takes (real apps have spaces in theirs): paths encode it.
    id: z.string().regex(/^\P{Cc}{1,128}$/u, 'must be 1-128 characters without control characters'),
    title: Localized(),
    titleFormatted: Localized().optional(),
    hint: Localized().optional(),
    args: z.array(ArgDef()).max(32).optional(),
    tokens: z.array(TokenDef()).max(64).optional(),
    droptoken: z.array(z.string()).optional(),
    deprecated: z.boolean().optional(),
    highlight: z.boolean().optional(),
    duration: z.boolean().optional(),
  }),
);

export interface Arg {
  readonly name: string;
  readonly type: ArgType;
  readonly title: string;
  readonly placeholder: string | null;
  /** A dropdown's choices. */
  readonly values: ReadonlyArray<{ id: string; label: string }> | null;
  readonly min: number | null;
  readonly max: number | null;
  readonly step: number | null;
  /** A device argument's filter, as Homey writes it (`driver_id=lamp`, `class=light|socket`). */
  readonly filter: string | null;
  readonly required: boolean;
}

export interface Token {
  readonly name: string;
  readonly type: 'string' | 'number' | 'boolean' | 'image';
  readonly title: string;
  readonly example: string | null;
}

/** One card of an app, as the engine and the editor know it. */
export interface Card {
  /** `homey:app:<appId>:<cardId>` (Homey's id of the card). */
  readonly id: string;
  /** `homey:app:<appId>`. */
  readonly ownerUri: string;
  readonly appId: string;
  /** The card's id in app.json. */
  readonly cardId: string;
  readonly kind: CardKind;
  readonly title: string;
  readonly titleFormatted: string | null;
  readonly hint: string | null;
  readonly args: readonly Arg[];
  readonly tokens: readonly Token[];
  readonly droptoken: readonly string[] | null;
  readonly deprecated: boolean;
  readonly highlight: boolean;
  readonly duration: boolean;
  /** The device argument, when the card is about one of the app's devices (a device card). */
  readonly deviceArg: Arg | null;
}

/** The device a device card's arguments name (its device argument's `{id}`), or null: the one reading of it. */
export function deviceOf(card: Pick<Card, 'deviceArg'>, args: Readonly<Record<string, unknown>>): string | null {
  const value = card.deviceArg ? args[card.deviceArg.name] : undefined;
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string' ? value.id : null;
}

/** A text in `language`, else English, else the first the app gave. */
export function localized(text: unknown, language: string): string | null {
  if (typeof text === 'string') return text;
  if (typeof text !== 'object' || text === null) return null;
  const t = text as Record<string, unknown>;
  const pick = t[language] ?? t.en ?? Object.values(t)[0];
  return typeof pick === 'string' ? pick : null;
}

/** The cards of one app, and a sentence for each card it declares that hearth cannot read. */
export function readCards(appId: string, raw: Record<string, unknown>, language: string): { cards: Card[]; unreadable: string[] } {
  const flow = raw.flow as Record<string, unknown> | undefined;
  const cards: Card[] = [];
  const unreadable: string[] = [];
  const ownerUri = `homey:app:${appId}`;
  for (const kind of CARD_KINDS) {
    const list = flow?.[LISTS[kind]];
    if (!Array.isArray(list)) continue;
    const seen = new Set<string>();
    list.forEach((entry, i) => {
      const parsed = CardDef().safeParse(entry);
      if (!parsed.success) {
        unreadable.push(`flow.${LISTS[kind]}[${i}]: ${describeIssues(parsed.error, '', 1).replace(/^: /, '')}`);
        return;
      }
      const d = parsed.data;
      if (seen.has(d.id)) {
        unreadable.push(`flow.${LISTS[kind]}[${i}]: a second ${kind} card '${d.id}'`);
        return;
      }
      seen.add(d.id);
      const args: Arg[] = (d.args ?? []).map((a) => ({
        name: a.name,
        type: a.type,
        title: localized(a.title, language) ?? a.name,
        placeholder: localized(a.placeholder, language),
        values: a.values ? a.values.map((v) => ({ id: v.id, label: localized(v.label ?? v.title, language) ?? v.id })) : null,
        min: a.min ?? null,
        max: a.max ?? null,
        step: a.step ?? null,
        filter: a.filter ?? null,
        required: a.required ?? true,
      }));
      cards.push({
        id: `${ownerUri}:${d.id}`,
        ownerUri,
        appId,
        cardId: d.id,
        kind,
        title: localized(d.title, language) ?? d.id,
        titleFormatted: localized(d.titleFormatted, language),
        hint: localized(d.hint, language),
        args,
        tokens: (d.tokens ?? []).map((t) => ({
          name: t.name,
          type: t.type,
          title: localized(t.title, language) ?? t.name,
          example: t.example === undefined || t.example === null ? null : (localized(t.example, language) ?? String(t.example)),
        })),
        droptoken: d.droptoken ?? null,
        deprecated: d.deprecated ?? false,
        highlight: d.highlight ?? false,
        duration: d.duration ?? false,
        deviceArg: args.find((a) => a.type === 'device') ?? null,
      });
    });
  }
  return { cards, unreadable };
}
