/**
 * Closes the file descriptors the hub inherited by accident. Whatever started the hub (a shell,
 * a test runner, a supervisor other than systemd) may leave descriptors open without
 * close-on-exec; Node never touches them, and every app the hub spawns would inherit them (a
 * pipe to the hub's parent on fd 251 was seen in every app). Node opens all of its own
 * descriptors close-on-exec, so one without that flag is not the hub's: it is closed before any
 * app starts. Linux only (it reads /proc/self/fdinfo); elsewhere nothing happens.
 */
import { closeSync, readdirSync, readFileSync } from 'node:fs';

const O_CLOEXEC = 0o2000000;

/** Closes every descriptor above stderr that lacks close-on-exec; returns the ones it closed. */
export function closeInheritedDescriptors(): number[] {
  let fds: string[];
  try {
    fds = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const closed: number[] = [];
  for (const name of fds) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    let flags: number;
    try {
      const line = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
      if (!line) continue;
      flags = parseInt(line[1]!, 8);
    } catch {
      continue; // the descriptor of the listing itself, gone by now
    }
    if (flags & O_CLOEXEC) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // already closed
    }
  }
  return closed;
}
