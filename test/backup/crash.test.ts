/**
 * A backup killed with SIGKILL half-way leaves no file that looks like a finished backup, and
 * the next backup cleans up what it left. The backup runs in a real child process, compiled
 * from src/ with tsc (Node 20 cannot run TypeScript), so the kill is a real one.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBackup, listBackups, verifyArchive } from '../../src/backup/index.js';
import { compileSources } from '../helpers/compile.js';
import { poll } from '../helpers/poll.js';
import { type Fixture, makeFixture } from './fixtures.js';

const repo = resolve(import.meta.dirname, '..', '..');
// Inside the repo so the compiled code resolves tar and better-sqlite3 from node_modules.
const build = join(repo, 'node_modules', '.cache', `hearth-backup-test-${process.pid}`);
let f: Fixture;

beforeAll(async () => {
  await compileSources(build, 'src', ['src/backup/index.ts']);
  f = await makeFixture({ insightRows: 100, bigFileMb: 48 });
}, 120_000);

afterAll(async () => {
  await rm(build, { recursive: true, force: true });
  if (f) await rm(f.root, { recursive: true, force: true });
});

async function waitForPartial(dir: string, child: ReturnType<typeof spawn>): Promise<string> {
  const partial = await poll(
    async () => {
      if (child.exitCode !== null) throw new Error(`backup child exited (${child.exitCode}) before it could be killed`);
      const names = await readdir(dir).catch(() => [] as string[]);
      const name = names.find((n) => n.endsWith('.partial'));
      return name && (await stat(join(dir, name)).catch(() => null))?.size ? name : undefined;
    },
    (name) => name !== undefined,
    'a partial archive with bytes in it',
    6000,
    10,
  );
  return partial!;
}

it('SIGKILL mid-backup leaves no complete-looking archive; the next run cleans up and succeeds', async () => {
  await mkdir(f.outDir, { recursive: true });
  const script = join(f.root, 'child.mjs');
  await writeFile(
    script,
    `import { createBackup } from ${JSON.stringify(join(build, 'backup', 'index.js'))};
const [dataDir, appsDir, outDir, insightsDb] = process.argv.slice(2);
await createBackup({ dataDir, appsDir, outDir, insightsDb, storeSnapshot: '{"schemaVersion":1}', hubVersion: 'child' });
`,
  );
  const child = spawn(process.execPath, [script, f.dataDir, f.appsDir, f.outDir, f.insightsDb], { stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
  const partial = await waitForPartial(f.outDir, child);
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  const left = await readdir(f.outDir);
  expect(left).toContain(partial);
  expect(partial).toMatch(/^\.hearth-backup-.*\.partial$/);
  // Nothing a person, getState or retention would take for a backup.
  expect(left.filter((n) => !n.startsWith('.'))).toEqual([]);
  expect(await listBackups(f.outDir)).toEqual([]);

  const next = await createBackup({
    dataDir: f.dataDir,
    appsDir: f.appsDir,
    outDir: f.outDir,
    insightsDb: f.insightsDb,
    storeSnapshot: f.snapshot,
    hubVersion: 'test',
    gzipLevel: 1,
  });
  expect((await readdir(f.outDir)).sort()).toEqual([next.file, `${next.file}.sha256`]);
  expect((await verifyArchive(next.path)).manifest.files['data/apps/com.example.lights/big.bin']?.size).toBe(48 * 1024 * 1024);
});
