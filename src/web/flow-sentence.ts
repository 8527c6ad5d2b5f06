/**
 * A flow as a sentence a family reads: "When Front door: the door was left open, and Reading lamp
 * is turned on, then create a notification: “The door is open for [Minutes open] minutes”".
 * Each card by Homey's `titleFormatted` with its arguments filled in (a device or a choice by its
 * name, a text in quotes, a token by its title), a device's own card with the device's name.
 */
import { titleParts } from '../managers/flow/title.js';
import type { CardView, FlowView } from '../managers/flow/views.js';

/** What of a card the sentence needs. */
export type CardWords = Pick<CardView, 'title' | 'titleFormatted' | 'ownerUri' | 'ownerName' | 'args' | 'tokens'>;
type Kind = 'trigger' | 'condition' | 'action';

const lower = (t: string): string => t.charAt(0).toLowerCase() + t.slice(1);
const TOKEN = /\[\[([^[\]]+)\]\]/g;

/** An argument's value in words, or null when it has none. */
function valueWords(arg: CardView['args'][number], value: unknown, tokenTitle: (ref: string) => string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'object') {
    const named = (value as { name?: unknown }).name;
    return typeof named === 'string' ? named : null;
  }
  if (arg.type === 'dropdown') return arg.values?.find((v) => v.id === value)?.label ?? String(value);
  if (arg.type === 'text' || arg.type === 'code') return `“${String(value).replace(TOKEN, (_, ref: string) => `[${tokenTitle(ref)}]`)}”`;
  if (arg.type === 'checkbox') return value === true ? 'yes' : 'no';
  return String(value);
}

/** One card as words; `tokenTitle` names a token its text holds. */
export function cardWords(
  card: CardWords | undefined,
  kind: Kind,
  ref: { id: string; args: Record<string, unknown>; inverted?: boolean },
  tokenTitle: (ref: string) => string,
): string {
  if (!card) return lower(ref.id.slice(ref.id.lastIndexOf(':') + 1).replace(/_/g, ' '));
  const parts = titleParts(card.titleFormatted ?? card.title);
  const words = parts
    .map((part) => {
      if ('text' in part) return part.text;
      if ('turn' in part) return part.turn[ref.inverted ? 1 : 0];
      const arg = card.args.find((a) => a.name === part.arg);
      if (!arg) return part.arg;
      // An optional argument left empty says nothing (and its brackets go with it).
      return valueWords(arg, ref.args[arg.name], tokenTitle) ?? (arg.required ? lower(arg.title) : '');
    })
    .join('')
    .replace(/\(\s*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  // "Turn on" reads "turn on" mid-sentence; a name in the first blank ("Front door: …") keeps its capital.
  const sentence = parts[0] && 'text' in parts[0] ? lower(words) : words;
  // A device's own card says which device: "Reading lamp is turned on", "Reading lamp: turn off".
  if (card.ownerUri.startsWith('homey:device:')) return kind === 'action' ? `${card.ownerName}: ${sentence}` : `${card.ownerName} ${sentence}`;
  return sentence;
}

/** The home's cards by kind, then by id (a device's condition "Is turned on" and its action "Turn on" share an id). */
export type CardsByKind = Record<Kind, Record<string, CardWords>>;

export function flowSentence(flow: Pick<FlowView, 'trigger' | 'conditions' | 'actions'>, cards: CardsByKind): string {
  const trigger = cards.trigger[flow.trigger.id];
  // The trigger's own tokens by their titles; another's (a variable, a device's value) as "a value".
  const tokenTitle = (ref: string): string => trigger?.tokens.find((t) => t.id === ref)?.title ?? 'a value';
  const when = cardWords(trigger, 'trigger', flow.trigger, tokenTitle);
  const and = flow.conditions.map((c) => cardWords(cards.condition[c.id], 'condition', c, tokenTitle));
  const then = flow.actions.filter((a) => a.group === 'then').map((a) => cardWords(cards.action[a.id], 'action', a, tokenTitle));
  return `When ${when}${and.length > 0 ? `, and ${and.join(', and ')}` : ''}, then ${then.length > 0 ? then.join(', then ') : 'nothing yet'}`;
}
