/**
 * The known word a mistyped one most likely meant ("permisions" -> "permissions", "--prot" ->
 * "--port"), for errors and warnings that name it. Edit distance (insertions, deletions,
 * substitutions and swaps of neighbours), case-blind.
 */

/** Edits that turn `a` into `b` (optimal string alignment). Both are short: names, flags. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => [i, ...Array<number>(y.length).fill(0)]);
  for (let j = 1; j <= y.length; j++) d[0]![j] = j;
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[x.length]![y.length]!;
}

/**
 * The candidate nearest `word`, or null when none is near enough to be a likely typo: at most a
 * third of the word's letters changed (and at most 3). Words over 64 characters are no typo.
 */
export function nearest(word: string, candidates: Iterable<string>): string | null {
  if (word.length > 64) return null;
  const allowed = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | null = null;
  let bestDistance = allowed + 1;
  for (const c of candidates) {
    const distance = editDistance(word, c);
    if (distance < bestDistance) {
      best = c;
      bestDistance = distance;
    }
  }
  return best;
}
