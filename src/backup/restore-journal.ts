/**
 * The restore's swap, made recoverable: before the first rename the restore writes a journal
 * naming every step (which folder is replaced by which staged tree, where the previous one
 * goes), and removes it only once every step and the carrying over are done. Each step can be
 * run again from any point it could have been stopped at (SIGKILL, a power cut): the next start
 * of a hub, `hearth restore` or `hearth backup` on that data dir finds the journal and finishes
 * the swap (rolls forward while the staged tree is there, back to the previous data when it is
 * not), so no start ever makes an empty data dir while a pre-restore copy exists.
 */

import { readdir, readFile, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { LOCK_FILE } from '../core/data-lock.js';
import { fsyncDir, writeFileDurable } from '../core/durable-file.js';
import { exists, makeDirs } from '../core/files.js';
import { DB_FILE } from '../core/store.js';
import { transient } from '../core/transient.js';
import { move, previousName, type SwapMode } from './swap.js';

const INSIGHTS_FILES = ['insights.db', 'insights.db-wal', 'insights.db-shm', 'insights.db-journal'];

/** What of the data dir a restore replaces: db.json always, apps and insights when the plan takes them. */
export const FilePlanSchema = transient(() => z.object({ apps: z.boolean(), insights: z.boolean() }));
export type FilePlan = z.infer<ReturnType<typeof FilePlanSchema>>;

/**
 * Top-level names of the data dir that the restore replaces. The SQLite side files must never
 * sit beside a different insights.db (SQLite would replay a foreign WAL into it). Everything else
 * (backups/, the app store catalogue, owner-token, what the plan leaves out) stays.
 */
export function ownedBy(plan: FilePlan): (name: string) => boolean {
  const owned = new Set([DB_FILE, LOCK_FILE, ...(plan.apps ? ['apps'] : []), ...(plan.insights ? INSIGHTS_FILES : [])]);
  return (name) => owned.has(name) || name.startsWith('db.json.') || name.startsWith('.db.json.');
}

export const INSIGHTS_FILE_NAMES: readonly string[] = INSIGHTS_FILES;

const Step = transient(() =>
  z.object({
    target: z.string(),
    fresh: z.string(),
    mode: z.enum(['beside', 'inside']),
    /** Where the replaced folder (beside) or entries (inside) go; null: there was nothing to replace. */
    previous: z.string().nullable(),
    /** 'data': the plan's names are replaced; 'apps': every entry not hidden. */
    kind: z.enum(['data', 'apps']),
    /** Inside only: 'out' moves the replaced entries aside, 'in' the staged ones in. */
    phase: z.enum(['out', 'in', 'done']),
  }),
);
type Step = z.infer<ReturnType<typeof Step>>;

const Journal = transient(() =>
  z.object({
    version: z.literal(1),
    dataDir: z.string(),
    steps: z.array(Step()),
    plan: FilePlanSchema(),
    /**
     * A nonce the staged data tree holds in MARKER: once the swap is done the data dir must hold
     * it, or the restore is not reported done (journals of older hubs have none).
     */
    marker: z.string().optional(),
    /** What the restore's record says once done (the archive, and what it left out). */
    summary: z.object({
      archive: z.string(),
      createdAt: z.string(),
      leftOut: z.array(z.string()),
      tokensAdded: z.number(),
    }),
  }),
);
export type Journal = z.infer<ReturnType<typeof Journal>>;
export type JournalSummary = Journal['summary'];

const NAME = '.restore-journal.json';
/** The file in the staged data tree that names its restore (Journal.marker). */
export const MARKER = '.restore-marker';

/** Where the journal of a restore of `dataDir` is: beside it, or inside it when it is swapped inside. */
export function journalPath(dataDir: string, mode: SwapMode): string {
  return mode === 'beside' ? join(dirname(dataDir), `.${basename(dataDir)}${NAME}`) : join(dataDir, NAME);
}

/** Plans one swap: `target` replaced by `fresh`, the previous one under a free pre-restore name. */
export async function planStep(target: string, fresh: string, mode: SwapMode, now: Date, kind: Step['kind']): Promise<Step> {
  const hidden = kind === 'apps';
  const previous = mode === 'inside' || (await exists(target)) ? await previousName(target, mode, now, hidden) : null;
  return { target, fresh, mode, previous, kind, phase: 'out' };
}

const save = (journal: Journal, path: string): Promise<void> => writeFileDurable(path, `${JSON.stringify(journal, null, 2)}\n`);

/** Whether `target` holds the staged tree of the restore whose marker is `marker` (undefined: an older journal, which had none). */
async function holdsRestored(target: string, marker: string | undefined): Promise<boolean> {
  if (marker === undefined) return exists(target);
  return (await readFile(join(target, MARKER), 'utf8').catch(() => null))?.trim() === marker;
}

/**
 * Clears the target for a rename into it. Whatever is there is not the home (it was made after
 * the data was moved aside: systemd makes a unit's StateDirectory before each start, or a writer
 * did not stop): an empty folder goes, anything else is kept beside under a name of its own.
 */
async function clearTarget(target: string): Promise<void> {
  if (!(await exists(target))) return;
  await rmdir(target).catch(async () => rename(target, await previousName(`${target}.made-during-restore`, 'beside', new Date())));
}

/** Runs one step from wherever it stopped. Beside: two renames; inside: entries out, then in. */
async function runStep(step: Step, plan: FilePlan, marker: string | undefined, persist: () => Promise<void>): Promise<void> {
  const { target, fresh, previous } = step;
  if (step.mode === 'beside') {
    if (previous && !(await exists(previous)) && (await exists(target)) && (await exists(fresh))) await rename(target, previous);
    if (await exists(fresh)) {
      // The staged tree is not in place yet.
      await clearTarget(target);
      await rename(fresh, target);
    } else if (previous && (await exists(previous)) && !(await holdsRestored(target, step.kind === 'data' ? marker : undefined))) {
      // The staged tree is gone and not in place (the restore failed and cleaned up): the previous data goes back.
      await clearTarget(target);
      await rename(previous, target);
    }
    await fsyncDir(dirname(target));
    step.phase = 'done';
    return;
  }
  const aside = previous as string;
  const replaced = step.kind === 'apps' ? (name: string) => !name.startsWith('.') : ownedBy(plan);
  if (step.phase === 'out') {
    await makeDirs(aside, 0o700);
    for (const name of await readdir(target)) {
      // The staging folder, the previous folder itself and the journal stay put.
      if (name !== basename(aside) && !name.startsWith('.restore.') && name !== NAME && replaced(name)) await rename(join(target, name), join(aside, name));
    }
    await fsyncDir(aside);
    step.phase = 'in';
    await persist();
  }
  if (step.phase === 'in') {
    for (const name of await readdir(fresh).catch(() => [] as string[])) await rename(join(fresh, name), join(target, name));
    await fsyncDir(target);
    step.phase = 'done';
  }
}

/**
 * Runs every step of `journal` (again), carries what the restore does not replace from the
 * previous data dir into the restored one, and removes the journal. Answers the names carried,
 * and whether the data dir holds the restored data (false: the staged data was gone, and the
 * previous data was put back).
 */
export async function completeJournal(journal: Journal, path: string): Promise<{ carried: string[]; restored: boolean }> {
  const persist = () => save(journal, path);
  for (const step of journal.steps) {
    if (step.phase !== 'done') await runStep(step, journal.plan, journal.marker, persist);
  }
  const carried: string[] = [];
  const data = journal.steps.find((s) => s.kind === 'data');
  const owned = ownedBy(journal.plan);
  if (data?.previous && data.mode === 'beside' && (await exists(data.previous))) {
    for (const name of await readdir(data.previous)) {
      if (owned(name) || (await exists(join(data.target, name)))) continue;
      await move(join(data.previous, name), join(data.target, name));
      carried.push(name);
    }
    await rm(join(data.previous, LOCK_FILE), { force: true });
  }
  if (data) await fsyncDir(data.target);
  const restored = data ? await holdsRestored(data.target, journal.marker) : true;
  await rm(path, { force: true });
  await fsyncDir(dirname(path));
  // Only once the journal is gone: a run of it again must still tell the restored data by it.
  if (data && restored) await rm(join(data.target, MARKER), { force: true });
  return { carried, restored };
}

/** Writes the journal of a restore about to swap (durably, before its first rename). */
export async function beginJournal(journal: Journal): Promise<string> {
  const data = journal.steps.find((s) => s.kind === 'data');
  const path = journalPath(journal.dataDir, data?.mode ?? 'beside');
  await save(journal, path);
  return path;
}

/**
 * Finishes a restore of `dataDir` that was stopped half-way, if there is one: its summary and
 * what was carried over, or null. Call with the data dir's lock held, before anything opens or
 * creates the data dir.
 */
export async function recoverRestore(
  dataDir: string,
): Promise<(JournalSummary & { carried: string[]; restored: boolean; previousData: string | null; previousApps: string | null }) | null> {
  for (const path of [journalPath(dataDir, 'beside'), journalPath(dataDir, 'inside')]) {
    const text = await readFile(path, 'utf8').catch(() => null);
    if (text === null) continue;
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* refused below */
    }
    const parsed = Journal().safeParse(json);
    if (!parsed.success || parsed.data.dataDir !== dataDir) {
      throw new Error(
        `${path} is not a restore journal of ${dataDir}; a restore may have been stopped half-way: look at ${dataDir}.pre-restore-* before removing it`,
      );
    }
    const journal = parsed.data;
    const { carried, restored } = await completeJournal(journal, path);
    const previousOf = (kind: Step['kind']) => journal.steps.find((s) => s.kind === kind)?.previous ?? null;
    // Put back, the previous data is the data dir again: no copy of it is aside.
    return { ...journal.summary, carried, restored, previousData: restored ? previousOf('data') : null, previousApps: previousOf('apps') };
  }
  return null;
}
