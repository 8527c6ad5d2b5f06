/**
 * A card's arguments in a flow: checked against the card's declared arguments when the flow is
 * saved (each by its type), and given their tokens when the flow runs. A token in a text or
 * number argument is written `[[name]]` (the trigger's own token) or `[[<ownerUri>|<id>]]` (a
 * global token: an app's, a logic variable `[[homey:manager:logic|<id>]]`).
 */
import type { Arg, Card } from '../../apps/manifest/flow-cards.js';

const TOKEN = /\[\[([^[\]]{1,300})\]\]/g;
const ONE_TOKEN = /^\[\[([^[\]]{1,300})\]\]$/;
const DATE = /^(0[1-9]|[12]\d|3[01])-(0[1-9]|1[0-2])-\d{4}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;
/** Argument types whose value may hold tokens (Homey's editor lets one drop tokens into them). */
const TAKES_TOKENS = new Set(['text', 'code', 'number', 'range']);

const hasToken = (v: unknown): boolean => typeof v === 'string' && /\[\[[^[\]]+\]\]/.test(v);

function valueProblem(arg: Arg, value: unknown): string | null {
  if (TAKES_TOKENS.has(arg.type) && hasToken(value)) return null;
  switch (arg.type) {
    case 'text':
    case 'code':
      return typeof value === 'string' && value.length <= 10_000 ? null : 'must be a text of at most 10,000 characters';
    case 'number':
    case 'range': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (arg.min !== null && value < arg.min) return `must be at least ${arg.min}`;
      if (arg.max !== null && value > arg.max) return `must be at most ${arg.max}`;
      return null;
    }
    case 'checkbox':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'dropdown':
      return typeof value === 'string' && (arg.values ?? []).some((v) => v.id === value)
        ? null
        : `must be one of ${(arg.values ?? []).map((v) => v.id).join(', ') || '(no choices)'}`;
    case 'autocomplete':
      return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string'
        ? null
        : 'must be one of its choices (an object with a name)';
    case 'date':
      return typeof value === 'string' && DATE.test(value) ? null : 'must be a date as dd-mm-yyyy';
    case 'time':
      return typeof value === 'string' && TIME.test(value) ? null : 'must be a time as HH:mm';
    case 'color':
      return typeof value === 'string' && COLOR.test(value) ? null : 'must be a colour as #rrggbb';
    case 'device':
      return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string' ? null : 'must be a device {id, name}';
    default:
      // A type hearth does not know: its value is the app's to read.
      return null;
  }
}

/** Why a card's arguments in a flow cannot be saved, or null. */
export function argsProblem(card: Card, args: Record<string, unknown>): string | null {
  for (const name of Object.keys(args)) {
    if (!card.args.some((a) => a.name === name)) return `card '${card.title}' has no argument '${name}'`;
  }
  for (const arg of card.args) {
    const value = args[arg.name];
    if (value === undefined || value === null || value === '') {
      if (arg.required && arg.type !== 'checkbox') return `card '${card.title}' needs its argument '${arg.name}' (${arg.title})`;
      continue;
    }
    const problem = valueProblem(arg, value);
    if (problem) return `argument '${arg.name}' of card '${card.title}' ${problem}`;
  }
  return null;
}

/** The tokens an argument names (`name`, or `<ownerUri>|<id>`). */
export function tokensIn(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const v of Object.values(args)) if (typeof v === 'string') for (const m of v.matchAll(TOKEN)) out.push(m[1]!);
  return out;
}

/** A token's value by its name in an argument; throws (with a sentence) when there is no such token. */
export type TokenLookup = (ref: string) => string | number | boolean | null;

/**
 * The arguments with their tokens' values: an argument that is one token takes the value as it
 * is (a number stays a number); tokens inside a text are written into it. A number argument must
 * still be a number after that.
 */
export function withTokens(card: Card, args: Record<string, unknown>, lookup: TokenLookup): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args };
  for (const arg of card.args) {
    const value = args[arg.name];
    if (typeof value !== 'string' || !hasToken(value)) continue;
    const whole = ONE_TOKEN.exec(value);
    let next: unknown = whole ? lookup(whole[1]!) : value.replace(TOKEN, (_m, ref: string) => String(lookup(ref) ?? ''));
    if (arg.type === 'number' || arg.type === 'range') {
      const n = typeof next === 'number' ? next : Number(next);
      if (typeof next === 'boolean' || next === null || next === '' || !Number.isFinite(n)) {
        throw new Error(`argument '${arg.name}' of card '${card.title}' is a number, and its token gave ${JSON.stringify(next)}`);
      }
      next = n;
    } else if (arg.type === 'text' || arg.type === 'code') {
      next = next === null ? '' : String(next);
    }
    out[arg.name] = next;
  }
  return out;
}
