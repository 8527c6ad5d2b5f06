/** Reads an app's translations (locales/<language>.json) for getAppLocales. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** locales/<lang>.json of an app folder, keyed by language; unreadable files are left out. */
export async function readLocales(appDir: string): Promise<Record<string, unknown>> {
  const dir = join(appDir, 'locales');
  const files = await readdir(dir).catch(() => [] as string[]);
  const out: Record<string, unknown> = {};
  for (const f of files.filter((f) => /^[a-z]{2,3}(-[A-Za-z0-9]+)?\.json$/.test(f))) {
    try {
      out[f.slice(0, -5)] = JSON.parse(await readFile(join(dir, f), 'utf8'));
    } catch {
      // A broken locale file must not hide the good ones.
    }
  }
  return out;
}
