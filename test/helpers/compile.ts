/**
 * Compiles some of src/ to JavaScript for a test that runs it in a child process of its own (a
 * backup killed mid-write, an insights writer killed mid-commit): tests run from source, a child
 * needs JavaScript. Strict, as the build compiles it (the code's narrowing relies on it).
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');

/** Compiles `entries` (paths below the repository) and what they import below `rootDir` into `outDir`. */
export async function compileSources(outDir: string, rootDir: string, entries: readonly string[]): Promise<void> {
  await promisify(execFile)(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      ...['--outDir', outDir, '--rootDir', join(ROOT, rootDir)],
      ...['--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'],
      ...['--strict', '--skipLibCheck', '--esModuleInterop', '--types', 'node'],
      ...entries.map((e) => join(ROOT, e)),
    ],
    { cwd: ROOT },
  );
}
