/** Values made on first use (docs/performance.md: an idle hub uses a few of the schemas it declares). */

/**
 * A value (a schema) built the first time it is asked for, then kept. A zod 4 schema costs about
 * 2 KiB of heap and 20 µs to build, and the contracts declare some 3,000 of them; an idle hub
 * uses a few dozen (docs/performance.md). Schemas shared within a contract are declared with it
 * and used as `Id()`.
 */
export function lazy<const T>(build: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = build();
      made = true;
    }
    return value;
  };
}
