/**
 * What the web app takes from the hub's own modules by value (not `import type`) reaches no
 * package: a value imported from a contract once pulled zod into the bundle (100 -> 192 KB). Each
 * value import from outside src/web is followed through the modules it loads; any of them that
 * loads a package by value is named with the chain that reached it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');
const WEB = join(SRC, 'web');
/** Packages the web app is built with on purpose. */
const WEB_PACKAGES = /^(preact|preact\/hooks|uplot|uqr)$/;

/** `import ... from '<spec>'` with values (a type-only import or an import of types only is left out). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)';/gms)) {
    if (m[1]) continue;
    const names = m[2]!
      .replace(/[{}]/g, '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
    out.push(m[3]!);
  }
  for (const m of text.matchAll(/^import\s+'([^']+)';/gm)) out.push(m[1]!);
  return out;
}

/** The .ts/.tsx file a relative specifier (written with .js) names. */
function fileOf(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  for (const ext of ['.ts', '.tsx']) {
    try {
      readFileSync(base + ext);
      return base + ext;
    } catch {}
  }
  return null;
}

function webFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? webFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

it("the web app's value imports of the hub's modules reach no package", () => {
  const problems = new Set<string>();
  const seen = new Set<string>();
  const follow = (file: string, chain: string[]): void => {
    for (const spec of valueImports(file)) {
      if (!spec.startsWith('.')) {
        if (!WEB_PACKAGES.test(spec) && !spec.endsWith('.css')) problems.add(`${[...chain, relative(SRC, file)].join(' -> ')} loads '${spec}'`);
        continue;
      }
      if (spec.endsWith('.css')) continue;
      const next = fileOf(file, spec);
      if (!next || next.startsWith(WEB) || seen.has(next)) continue;
      seen.add(next);
      follow(next, [...chain, relative(SRC, file)]);
    }
  };
  for (const file of webFiles(WEB)) {
    for (const spec of valueImports(file)) {
      if (!spec.startsWith('.')) continue;
      const target = fileOf(file, spec);
      if (target && !target.startsWith(WEB) && !seen.has(target)) {
        seen.add(target);
        follow(target, [relative(SRC, file)]);
      }
    }
  }
  expect([...problems]).toEqual([]);
  // It can fail: it follows what the web app loads from the hub's modules.
  expect(seen.size).toBeGreaterThan(3);
});
