/**
 * A card's title as a person reads it. Homey writes a condition's title with both readings,
 * `It !{{is|is not}} raining`: the first when the condition is as written, the second when the
 * flow turns it round ("inverted").
 */
const BOTH = /!\{\{([^|{}]*)\|([^|{}]*)\}\}/g;

export function readTitle(title: string, inverted = false): string {
  return title.replace(BOTH, (_, as: string, turned: string) => (inverted ? turned : as));
}

/** A piece of a card's title: words, an argument's blank (`[[dim]]`), or a condition's two readings. */
export type TitlePart = { text: string } | { arg: string } | { turn: readonly [string, string] };

const PARTS = /\[\[([^[\]]+)\]\]|!\{\{([^|{}]*)\|([^|{}]*)\}\}/g;

/**
 * A title cut into its pieces, so an editor can put each argument's field where Homey's
 * `titleFormatted` names it ("Dim [[device]] to [[dim]]") and show which words turning a
 * condition round changes.
 */
export function titleParts(title: string): TitlePart[] {
  const parts: TitlePart[] = [];
  let from = 0;
  for (const m of title.matchAll(PARTS)) {
    if (m.index > from) parts.push({ text: title.slice(from, m.index) });
    parts.push(m[1] !== undefined ? { arg: m[1].trim() } : { turn: [m[2] ?? '', m[3] ?? ''] });
    from = m.index + m[0].length;
  }
  if (from < title.length) parts.push({ text: title.slice(from) });
  return parts;
}
