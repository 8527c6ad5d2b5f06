// A memory cgroup around a bench's processes (the `board` bench: a whole home within 512 MiB).
// cgroup v1 (a `memory` hierarchy) and v2 (the unified one) alike: a child of the cgroup this
// process is in, so it needs no root beyond the right to write there. Every process started in it
// (the hub, bubblewrap, the apps' nodes) is counted and limited together, page cache included.
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sleep } from './lib.mjs';

const ROOT = '/sys/fs/cgroup';

async function ownPaths() {
  const lines = (await readFile('/proc/self/cgroup', 'utf8')).trim().split('\n');
  const v1 = lines.map((l) => l.split(':')).find(([, ctl]) => ctl.split(',').includes('memory'));
  if (v1) return { version: 1, parent: join(ROOT, 'memory', v1[2]) };
  const v2 = lines.map((l) => l.split(':')).find(([id]) => id === '0');
  return v2 ? { version: 2, parent: join(ROOT, v2[2]) } : null;
}

const field = (text, name) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

/**
 * A new memory cgroup named `name`, limited to `limit` bytes (null: no limit, counted only), or
 * the reason none can be made here. `procs` is the file a process writes its pid into to join;
 * `pids()` its processes, `peak()` the most they held at once (as the kernel charges it: a page
 * another cgroup read first is not charged here), `oomKills()` how many the kernel killed for it,
 * `remove()` kills what is left in it and deletes it.
 */
export async function memoryCgroup(name, limit) {
  const own = await ownPaths().catch(() => null);
  if (!own) return { reason: 'this machine has no memory cgroup' };
  const dir = join(own.parent, name);
  try {
    await mkdir(dir);
    if (limit !== null) await writeFile(join(dir, own.version === 1 ? 'memory.limit_in_bytes' : 'memory.max'), String(limit));
  } catch (err) {
    await rmdir(dir).catch(() => {});
    return { reason: `a memory cgroup cannot be made at ${dir}: ${err.code ?? err.message}` };
  }
  const read = (file) => readFile(join(dir, file), 'utf8');
  return {
    dir,
    procs: join(dir, 'cgroup.procs'),
    async peak() {
      return Number((await read(own.version === 1 ? 'memory.max_usage_in_bytes' : 'memory.peak')).trim());
    },
    async pids() {
      return (await read('cgroup.procs')).trim().split('\n').filter(Boolean).map(Number);
    },
    async oomKills() {
      return own.version === 1 ? field(await read('memory.oom_control'), 'oom_kill') : field(await read('memory.events'), 'oom_kill');
    },
    async remove() {
      for (let i = 0; i < 50; i++) {
        const pids = await this.pids();
        if (pids.length === 0) break;
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {}
        }
        await sleep(100);
      }
      await rmdir(dir).catch(() => {});
    },
  };
}

/** `args` of `node` run as a process of the cgroup whose procs file is `procs`: [executable, args]. */
export const inCgroup = (procs, node, args) => ['/bin/sh', ['-c', `echo $$ > '${procs}' && exec "$@"`, 'sh', node, ...args]];
