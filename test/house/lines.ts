/** The lines of a tree's files that match a pattern, for the house tests that keep a habit out of the code. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Each line under `root` matching `pattern`, as `<path from root>:<line>: <text>`, in files `keep` takes; folders in `skip` are not entered. */
export function linesMatching(root: string, pattern: RegExp, keep: (rel: string) => boolean, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!skip.includes(e.name)) walk(path);
        continue;
      }
      const rel = relative(root, path);
      if (!keep(rel)) continue;
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (pattern.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
  };
  walk(root);
  return found;
}
