/**
 * What hearth runs of an app: why it cannot run an app at all (every driver needs a radio,
 * another runtime, another platform), and the features it declares that hearth leaves unrun,
 * one sentence each (the App object's `unsupported`, shown on the Apps page).
 */
import type { z } from 'zod';
import { radioOf } from './drivers.js';
import { FLOW_KINDS, type FlowKind, readCards } from './flow-cards.js';
import type { Schema } from './manifest.js';

type Parsed = z.output<ReturnType<typeof Schema>>;

/** Homey features that need what hearth has not: their app.json keys, and why. */
const UNRUN_FEATURES: ReadonlyArray<readonly [string, string]> = [
  ['signals', 'RF signals (hearth has no radios)'],
  ['screensavers', 'LED ring screensavers (hearth has no LED ring)'],
];

/** How app.json names Node.js as the runtime (Homey's own apps write both). */
const NODE_RUNTIMES = ['nodejs', 'node'];

export function describeUnrun(m: Parsed, raw: Record<string, unknown>): { flow: Record<FlowKind, string[]>; unrun: string[] } {
  const flow = { triggers: [], conditions: [], actions: [] } as Record<FlowKind, string[]>;
  for (const kind of FLOW_KINDS) flow[kind] = (m.flow?.[kind] ?? []).map((c) => c.id);
  const unrun: string[] = [];
  // Flow cards run; one hearth cannot read is named (the app's others still run).
  unrun.push(...readCards(m.id, raw, 'en').unreadable.map((u) => `${u}; this card is left out`));
  for (const [key, what] of UNRUN_FEATURES) if (raw[key] !== undefined) unrun.push(what);
  for (const d of m.drivers) {
    const radio = radioOf(d);
    if (radio) unrun.push(`driver ${d.id}: it needs a ${radio} radio, which hearth has not; its devices cannot be added`);
  }
  return { flow, unrun };
}

/** Why hearth cannot run this app at all, or null. */
export function incompatibility(m: Parsed): string | null {
  const radios = m.drivers.map(radioOf);
  if (radios.length > 0 && radios.every((r) => r !== null)) {
    return `every driver it declares needs a radio (${[...new Set(radios)].join(', ')}), and hearth has none`;
  }
  if (m.runtime !== undefined && !NODE_RUNTIMES.includes(m.runtime)) return `it needs the ${m.runtime} runtime; hearth runs Node.js apps`;
  if (m.platforms && !m.platforms.includes('local')) return `it runs on ${m.platforms.join(', ')} only, not on a local hub`;
  return null;
}
