/** Values made on first use and let go when unused (docs/performance.md). */
/** How long a transient value is kept unused: let go between one and two of these after its last use. */
const HOLD_MS = 30_000;
interface Held {
  used: boolean;
  drop(): void;
}
const held = new Set<Held>();
let sweeper: ReturnType<typeof setInterval> | undefined;

function sweep(): void {
  for (const h of held) {
    if (h.used) h.used = false;
    else {
      h.drop();
      held.delete(h);
    }
  }
  if (held.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

/**
 * Like `lazy`, for what is used in bursts (an app's manifest is read when the app is installed
 * or started, the configuration once): built on first use and let go 30-60 s after its last,
 * then built again by the next use. One unref'd timer sweeps them all while any is held, so it
 * keeps no process alive and an idle hub has none.
 */
export function transient<const T>(build: () => T): () => T {
  let value: T | undefined;
  const h: Held = {
    used: false,
    drop: () => {
      value = undefined;
    },
  };
  return () => {
    h.used = true;
    if (value === undefined) {
      value = build();
      held.add(h);
      sweeper ??= setInterval(sweep, HOLD_MS).unref();
    }
    return value;
  };
}
