/**
 * Remembers which apps run, so a hub that died abnormally knows at its next start which apps were
 * running when it did. A file `<data-dir>/apps/running.json` names them with the machine's boot
 * id; a clean stop removes it. Found at start with the same boot id, the hub died without
 * stopping (a crash, a kill, the watchdog); with another boot id the machine restarted (a power
 * cut, a reboot), which is no app's doing and does not count.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileDurable } from '../core/durable-file.js';
import type { Logger } from 'pino';
import type { Section } from '../core/store.js';
import type { AppsSection } from './records.js';

const FILE = 'running.json';

/** The kernel's id of this boot, or '' where there is none. */
async function bootId(): Promise<string> {
  return (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => '')).trim();
}

/** The record the last hub left; null when there is none (its last stop was clean, or it never ran). */
async function readRecord(file: string): Promise<{ boot?: unknown; running?: unknown } | null> {
  try {
    const value: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof value === 'object' && value !== null ? (value as { boot?: unknown; running?: unknown }) : null;
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
  private boot = '';
  private writing: Promise<void> = Promise.resolve();

  constructor(appsDataDir: string) {
    this.file = join(appsDataDir, FILE);
  }

  /**
   * The apps that ran when the previous hub died abnormally (none after a clean stop or a
   * reboot); starts a fresh record.
   */
  async open(): Promise<string[]> {
    this.boot = await bootId();
    const before = await readRecord(this.file);
    await this.save();
    if (!before || before.boot !== this.boot || this.boot === '' || !Array.isArray(before.running)) return [];
    return before.running.filter((id): id is string => typeof id === 'string');
  }

  /** Notes that an app runs, or no longer does; written at once (a crash must find it). */
  set(id: string, running: boolean): void {
    if (this.running.has(id) === running) return;
    if (running) this.running.add(id);
    else this.running.delete(id);
    void this.save();
  }

  private save(): Promise<void> {
    const text = `${JSON.stringify({ boot: this.boot, running: [...this.running].sort() })}\n`;
    this.writing = this.writing.then(() => writeFileDurable(this.file, text)).catch(() => undefined);
    return this.writing;
  }

  /** A clean stop: nothing ran when the hub died, because it did not die. */
  async close(): Promise<void> {
    await this.writing;
    await rm(this.file, { force: true });
  }
}
