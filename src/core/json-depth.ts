/**
 * How deep a free-form JSON value may nest. `JSON.parse` takes any depth, but `JSON.stringify`,
 * `structuredClone` and zod recurse, and throw a RangeError a few thousand levels down: a body
 * of ~400k nested arrays fits in 1 MiB, parses, and would only fail later, as a 500 after
 * the value had been checked and perhaps stored. Every value from outside is held to this bound
 * where it is parsed. 32 is deeper than any real setting, widget state or location needs.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * True when `value` nests objects or arrays deeper than `max` levels (a scalar is depth 0,
 * `[]` and `{}` are 1). Walks with its own stack, so a hostile value cannot overflow it.
 *
 * @example exceedsDepth(JSON.parse('[[[1]]]'), 2) // true
 */
export function exceedsDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
