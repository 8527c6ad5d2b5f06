/**
 * Remembers which apps run, so a hub that died abnormally knows at its next start which apps were
 * running when it did. A file `<data-dir>/apps/running.json` names them with the machine's boot
 * id; a clean stop removes it. Found at start with the same boot id, the hub died without
 * stopping (a crash, a kill, the watchdog); with another boot id the machine restarted (a power
 * cut, a reboot), which is no app's doing and does not count.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { writeFileDurable } from '../../core/durable-file.js';
import type { Section } from '../../core/store.js';
import type { AppsSection } from './app-record.js';
import { type ProcessIdentity, startTimeOf } from './leftovers.js';

const FILE = 'running.json';

/** The kernel's id of this boot, or '' where there is none. */
async function bootId(): Promise<string> {
  return (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => '')).trim();
}

/** The record the last hub left; null when there is none (its last stop was clean, or it never ran). */
async function readRecord(file: string): Promise<{ boot?: unknown; running?: unknown; processes?: unknown } | null> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null ? (value as { boot?: unknown; running?: unknown; processes?: unknown }) : null;
  } catch {
    return null;
  }
}

/**
 * The hub died abnormally while `suspects` ran: each counts one death; the second in a row
 * disables it, so an app that takes the hub down cannot take it down again and again. The other
 * apps' counts start over.
 */
export function countHubDeath(records: AppsSection, suspects: readonly string[]): string[] {
  const disabled: string[] = [];
  for (const [id, r] of Object.entries(records)) {
    if (!suspects.includes(id)) {
      r.hubDeaths = 0;
      continue;
    }
    r.hubDeaths += 1;
    if (r.hubDeaths >= 2 && r.enabled) {
      r.enabled = false;
      r.disabledReason = `the hub died ${r.hubDeaths} times in a row while this app ran, so it starts disabled; enable it to try again`;
      disabled.push(id);
    }
  }
  return disabled;
}

/**
 * Counts an abnormal hub death against the apps that ran then. No suspects (the last stop was
 * clean, or the machine rebooted since) ends the row: every count starts over.
 */
export async function countHubDeaths(section: Section<AppsSection>, suspects: readonly string[], log: Logger): Promise<void> {
  if (suspects.length === 0) return forgiveHubDeaths(section, log);
  log.warn({ apps: suspects }, 'the hub did not stop cleanly last time; these apps were running');
  let disabled: string[] = [];
  await section.update((d) => {
    disabled = countHubDeath(d, suspects);
  });
  if (disabled.length > 0) log.error({ apps: disabled }, 'the hub died twice in a row while these apps ran: they start disabled');
}

/**
 * Every count of deaths starts over: the hub stopped cleanly, or has run long enough that its
 * next death is not "in a row" with the last (a crash loop under systemd dies within minutes).
 */
export async function forgiveHubDeaths(section: Section<AppsSection>, log: Logger): Promise<void> {
  if (Object.values(section.value).every((r) => r.hubDeaths === 0)) return;
  await section
    .update((d) => {
      for (const r of Object.values(d)) r.hubDeaths = 0;
    })
    .catch((err: unknown) => log.error({ err }, 'could not start the counts of hub deaths over'));
}

export class RunningApps {
  private readonly file: string;
  private readonly running = new Set<string>();
  /** The process the hub spawned for each running app, as the kernel knows it (leftovers.ts). */
  private readonly processes = new Map<string, ProcessIdentity>();
  private boot = '';
  private writing: Promise<void> = Promise.resolve();

  constructor(appsDataDir: string) {
    this.file = join(appsDataDir, FILE);
  }

  /**
   * What the previous hub left: the apps that ran when it died abnormally (none after a clean
   * stop or a reboot), and the processes it had spawned for them; starts a fresh record.
   */
  async open(): Promise<{ suspects: string[]; processes: ProcessIdentity[] }> {
    this.boot = await bootId();
    const before = await readRecord(this.file);
    await this.save();
    if (!before || before.boot !== this.boot || this.boot === '') return { suspects: [], processes: [] };
    const suspects = Array.isArray(before.running) ? before.running.filter((id): id is string => typeof id === 'string') : [];
    const listed = typeof before.processes === 'object' && before.processes !== null ? Object.values(before.processes as Record<string, unknown>) : [];
    const processes = listed.filter(
      (p): p is ProcessIdentity =>
        typeof p === 'object' &&
        p !== null &&
        Number.isSafeInteger((p as ProcessIdentity).pid) &&
        (p as ProcessIdentity).pid > 1 &&
        Number.isSafeInteger((p as ProcessIdentity).start),
    );
    return { suspects, processes };
  }

  /** Notes that an app runs, or no longer does; written at once (a crash must find it). */
  set(id: string, running: boolean): void {
    if (this.running.has(id) === running) return;
    if (running) this.running.add(id);
    else {
      this.running.delete(id);
      this.processes.delete(id);
    }
    void this.save();
  }

  /** Notes the process the hub just spawned for app `id` (its pid, and its start time read now). */
  spawned(id: string, pid: number): void {
    const start = startTimeOf(pid);
    if (start === null) return;
    this.processes.set(id, { pid, start });
    void this.save();
  }

  private save(): Promise<void> {
    const text = `${JSON.stringify({ boot: this.boot, running: [...this.running].sort(), processes: Object.fromEntries(this.processes) })}\n`;
    this.writing = this.writing.then(() => writeFileDurable(this.file, text)).catch(() => undefined);
    return this.writing;
  }

  /** A clean stop: nothing ran when the hub died, because it did not die. */
  async close(): Promise<void> {
    await this.writing;
    await rm(this.file, { force: true });
  }
}
