/**
 * A separate process that takes a data dir's lock the way a hub does (dist/core/data-lock.js),
 * for tests of what refuses while a hub runs.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { ROOT } from './hub.js';

export interface LockHolder {
  readonly pid: number;
  kill(): Promise<void>;
}

export async function holdDataLock(dataDir: string): Promise<LockHolder> {
  const module = pathToFileURL(join(ROOT, 'dist/core/data-lock.js')).href;
  const code = `const { acquireDataLock } = await import(${JSON.stringify(module)});
    await acquireDataLock(${JSON.stringify(dataDir)}); console.log('locked'); setInterval(() => {}, 60000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  if (line !== 'locked') throw new Error(`the lock holder said '${line}'`);
  return {
    pid: child.pid!,
    async kill() {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    },
  };
}
