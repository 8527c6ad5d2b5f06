/**
 * The fuzz test's generator: a seeded PRNG (mulberry32: the same seed gives the same cases on
 * every machine) and hostile ids, query strings and bodies built from it. No dependency: the
 * point is the inputs, not the shrinking a library would add.
 */

/** mulberry32: 32 bits of state, good enough to spread cases, and reproducible from a seed. */
export class Gen {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

const PROTO_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** Path segments as they go into the URL (already encoded where a raw form would be invalid). */
export const HOSTILE_IDS: readonly string[] = [
  ...PROTO_NAMES,
  'a'.repeat(4000),
  '%2F',
  'a%2Fb',
  '..',
  '%2E%2E',
  '%2E%2E%2F%2E%2E%2Fdata',
  '.',
  '',
  '%00',
  '%E0%A4%A',
  '%20',
  encodeURIComponent('ü😀\u202eא'),
  encodeURIComponent('\'"<>;'),
  'null',
  '0',
  '-1',
  'com.test.widgets%3Aclock',
  'com.test.widgets%3Aconstructor',
  'com.test.widgets%3A__proto__',
];

const deepArray = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const wideObject = (n: number, prefix = 'k'): string => `{${Array.from({ length: n }, (_, i) => `"${prefix}${i}":${i}`).join(',')}}`;
const PROTO_OBJECT = '{"__proto__":{"polluted":true,"state":1},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}';

/** One hostile JSON value, as text. */
export function hostileValue(g: Gen): { text: string; describe: string } {
  switch (g.int(13)) {
    case 0:
      return { text: 'null', describe: 'null' };
    case 1:
      return { text: g.pick(['1e308', '-0', '123456789012345678901234567890', '0.1', '-1', '1e-400']), describe: 'a number' };
    case 2: {
      const s = g.pick(['', 'x'.repeat(70_000), '__proto__', '\u0000', 'ü😀\u202e', '<script>alert(1)</script>', '../../etc/passwd', '%2F', '\ud800']);
      return { text: JSON.stringify(s), describe: `a string of ${s.length}` };
    }
    case 3:
      return { text: g.pick(['true', 'false']), describe: 'a boolean' };
    case 4:
      return { text: g.pick(['[]', '[1,"a",null,{}]', '[[]]']), describe: 'an array' };
    case 5:
      return { text: '{}', describe: '{}' };
    case 6:
      return { text: PROTO_OBJECT, describe: 'prototype keys' };
    case 7: {
      const n = 300_000 + g.int(100_000);
      return { text: deepArray(n), describe: `${n} nested arrays` };
    }
    case 8:
      return { text: deepObject(60_000), describe: '60000 nested objects' };
    case 9:
      return { text: wideObject(20_000), describe: 'an object of 20000 keys' };
    case 10:
      return { text: `[${Array.from({ length: 100_000 }, (_, i) => i).join(',')}]`, describe: 'an array of 100000 numbers' };
    case 11:
      return { text: deepArray(33), describe: '33 nested arrays' };
    default:
      return { text: `{"__proto__":${deepArray(40)},"a":1}`, describe: '__proto__ holding 40 nested arrays' };
  }
}

export interface HostileBody {
  readonly text: string;
  readonly contentType: string;
  readonly describe: string;
}

/** Every path to a value inside `value` (objects and arrays), the root included as []. */
function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  const out = [at];
  if (Array.isArray(value)) for (const [i, v] of value.entries()) out.push(...paths(v, [...at, i]));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  return out;
}

const MARKER = 'FUZZ_MARKER_7f3a';

/** `template` with the value at `path` replaced by the JSON text `raw`. */
function replaceAt(template: unknown, path: ReadonlyArray<string | number>, raw: string): string {
  if (path.length === 0) return raw;
  const copy = JSON.parse(JSON.stringify(template)) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  at[path[path.length - 1]!] = MARKER;
  return JSON.stringify(copy).replace(`"${MARKER}"`, () => raw);
}

/** `{...}` text with `"key": raw` as its first member. */
function withFirstKey(objectText: string, key: string, raw: string): string {
  const rest = objectText.slice(1).trimStart();
  return `{${JSON.stringify(key)}:${raw}${rest.startsWith('}') ? '' : ','}${rest}`;
}

/** A request body built by spoiling a valid `template` one way or another. */
export function hostileBody(g: Gen, template: unknown): HostileBody {
  const json = 'application/json';
  const base = JSON.stringify(template);
  const mode = g.int(10);
  if (mode <= 3) {
    const all = paths(template);
    const path = g.pick(all);
    const value = hostileValue(g);
    return { text: replaceAt(template, path, value.text), contentType: json, describe: `${value.describe} at '${path.join('.')}'` };
  }
  if (mode === 4) {
    const key = g.pick(['__proto__', 'constructor', 'prototype']);
    const value = g.pick([PROTO_OBJECT, '{"polluted":true}', '{"value":1,"state":{}}', 'null', '1']);
    const text = typeof template === 'object' && template !== null && !Array.isArray(template) ? withFirstKey(base, key, value) : base;
    return { text, contentType: json, describe: `'${key}': ${value.slice(0, 40)} in the body` };
  }
  if (mode === 5) {
    const value = hostileValue(g);
    return { text: value.text, contentType: json, describe: `the body is ${value.describe}` };
  }
  if (mode === 6) {
    const text = typeof template === 'object' && template !== null && !Array.isArray(template) ? withFirstKey(base, 'extra', wideObject(5_000, 'x')) : base;
    return { text, contentType: json, describe: 'an unknown field holding 5000 keys' };
  }
  if (mode === 7) {
    const text = g.pick(['{"value": {', '\u0000\u0001', '{"a":1}garbage', '[', '{"a":1,"a":2}', "{'a':1}", '\ufeff{}']);
    return { text, contentType: json, describe: `malformed JSON ${JSON.stringify(text)}` };
  }
  if (mode === 8) {
    const contentType = g.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']);
    return { text: base, contentType, describe: `a valid body as '${contentType}'` };
  }
  return { text: base, contentType: json, describe: 'the valid body' };
}

/** A query string with hostile values for the operation's own parameters and hostile extra keys. */
export function hostileQuery(g: Gen, own: readonly string[]): string {
  const pairs: string[] = [];
  for (const name of own) {
    if (g.chance(0.2)) continue;
    let value: string;
    if (name === 'settings') {
      value = g.pick(['{"units":"metric"}', PROTO_OBJECT, `{"a":${deepArray(1000)}}`, deepArray(1000), 'null', '[]', '{', '"x"']);
    } else if (name === 'settingId') {
      value = g.pick(['city', ...PROTO_NAMES, '', 'x'.repeat(3000)]);
    } else {
      value = g.pick(['', 'c', 'true', '1', ...PROTO_NAMES, 'ü😀', 'x'.repeat(3000), '%', '../..']);
    }
    pairs.push(`${name}=${encodeURIComponent(value)}`);
  }
  const extras = g.int(3);
  for (let i = 0; i < extras; i++) {
    const key = g.pick([...PROTO_NAMES, '__proto__[polluted]', 'a[b]', '', 'constructor[prototype][polluted]']);
    pairs.push(`${encodeURIComponent(key)}=${g.pick(['1', '', 'true', '%00'])}`);
  }
  if (g.chance(0.1)) pairs.push(...own.map((n) => `${n}=1`)); // a repeated parameter
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}
