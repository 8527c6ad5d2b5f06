/**
 * The machine's time zone and zone names, read from the system's tz database rather than
 * through Intl: the first Intl.DateTimeFormat in a process maps some 5 MiB of ICU's locale data
 * into it for good (docs/performance.md), and an idle hub needs none of it. Intl stays the
 * answer on a system without /usr/share/zoneinfo.
 */
import { closeSync, openSync, readFileSync, readlinkSync, readSync } from 'node:fs';
import { localClock, type WallClock, zoneClock } from './cron.js';

const ZONEINFO = '/usr/share/zoneinfo';
const NAME = /^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/;

function hasTzdata(): boolean {
  try {
    readlinkSync(ZONEINFO);
    return true;
  } catch (err) {
    // EINVAL: it exists and is not a link (a folder), as on Debian.
    return (err as NodeJS.ErrnoException).code === 'EINVAL';
  }
}

function isTzif(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.toString('latin1') === 'TZif';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** True when `name` is an IANA zone this machine knows (`Europe/Amsterdam`, `UTC`). */
export function isZone(name: string): boolean {
  if (!NAME.test(name) || name.includes('..')) return false;
  if (name === 'UTC') return true;
  if (hasTzdata()) return isTzif(`${ZONEINFO}/${name}`);
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The zone name in a TZ value or a link to a zoneinfo file (`:/usr/share/zoneinfo/Europe/Oslo`). */
function zoneIn(text: string): string | null {
  const name = /(?:^|zoneinfo\/)([A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)*)$/.exec(text.replace(/^:/, ''))?.[1];
  return name && isZone(name) ? name : null;
}

/** The zone the system runs in: TZ, then /etc/localtime's link, then /etc/timezone. */
export function systemZone(): string {
  const candidates: (() => string)[] = [() => process.env.TZ ?? '', () => readlinkSync('/etc/localtime'), () => readFileSync('/etc/timezone', 'utf8').trim()];
  for (const read of candidates) {
    try {
      const zone = zoneIn(read());
      if (zone) return zone;
    } catch {
      // Not there: the next source.
    }
  }
  // A system that names its zone nowhere we read (or a POSIX TZ rule): ICU's own guess.
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The zone Date's local methods use: TZ (the daemon sets it to --time-zone), else the system's. */
export function processZone(): string {
  return zoneIn(process.env.TZ ?? '') ?? systemZone();
}

/** A wall clock for `zone`: Date's local fields when it is the process's zone, else Intl's. */
export function clockFor(zone: string): WallClock {
  return zone === processZone() ? localClock : zoneClock(zone);
}
