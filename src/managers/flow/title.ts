/**
 * A card's title as a person reads it. Homey writes a condition's title with both readings,
 * `It !{{is|is not}} raining`: the first when the condition is as written, the second when the
 * flow turns it round ("inverted").
 */
const BOTH = /!\{\{([^|{}]*)\|([^|{}]*)\}\}/g;

export function readTitle(title: string, inverted = false): string {
  return title.replace(BOTH, (_, as: string, turned: string) => (inverted ? turned : as));
}
