/**
 * Which process is an app's node, learnt only from what the app cannot write. In namespaces the
 * hub spawns prlimit, which becomes bubblewrap; bubblewrap reports the pid of the namespace's
 * first process (its reaper, pid 1 inside) on `--info-fd` before node runs, and node is that
 * process's child, pid 2 inside. The kernel writes both the list of children and each process's
 * pids per namespace (`NSpid:` in /proc/<pid>/status). Never a name: an app can set
 * `process.title = 'bwrap'`, and with it /proc/<pid>/comm (issue 22, finding 3).
 */
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CHANNEL_FD } from '../wire/frames.js';

/** The descriptor bubblewrap writes its JSON report to (closed before node starts). */
export const INFO_FD = CHANNEL_FD + 1;

/** Longest report bubblewrap writes (a few namespace ids): more is not bubblewrap talking. */
const MAX_INFO_BYTES = 4096;

/**
 * The reaper's pid from bubblewrap's report, once it has closed the descriptor; undefined when
 * the report is missing or not bubblewrap's form (bubblewrap failed before it made the namespace).
 */
export function reaperPid(info: Readable): Promise<number | undefined> {
  return new Promise((resolve) => {
    let text = '';
    info.setEncoding('utf8');
    info.on('data', (d: string) => {
      text += d;
      if (text.length > MAX_INFO_BYTES) info.destroy();
    });
    info.on('error', () => resolve(undefined));
    info.on('close', () => {
      try {
        const pid = (JSON.parse(text) as { 'child-pid'?: unknown })['child-pid'];
        resolve(Number.isSafeInteger(pid) && (pid as number) > 1 ? (pid as number) : undefined);
      } catch {
        resolve(undefined);
      }
    });
  });
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** The kernel's view of a process: its parent and its pid in each namespace, outermost first. */
export function statusOf(pid: number): { ppid: number; nspid: number[] } | null {
  const status = read(`/proc/${pid}/status`);
  if (status === null) return null;
  const ppid = /^PPid:\s+(\d+)$/m.exec(status)?.[1];
  const nspid = /^NSpid:\s+([\d\s]+)$/m.exec(status)?.[1];
  if (ppid === undefined || nspid === undefined) return null;
  return { ppid: Number(ppid), nspid: nspid.trim().split(/\s+/).map(Number) };
}

/** The pids of a process's children, as the kernel lists them (none once it has gone). */
export function childrenOf(pid: number): number[] {
  return read(`/proc/${pid}/task/${pid}/children`)?.trim().split(/\s+/).filter(Boolean).map(Number) ?? [];
}

/**
 * Node below bubblewrap's reaper: the reaper's child that is pid 2 of the reaper's namespace
 * (the reaper is pid 1 there). Undefined until node exists, or once it is gone.
 */
export function nodeBelow(reaper: number): number | undefined {
  const own = statusOf(reaper);
  if (own?.nspid.at(-1) !== 1) return undefined;
  for (const child of childrenOf(reaper)) {
    const s = statusOf(child);
    if (s && s.ppid === reaper && s.nspid.length === own.nspid.length && s.nspid.at(-1) === 2) return child;
  }
  return undefined;
}
