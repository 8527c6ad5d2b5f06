/** The crash log of an app (getAppStd): the tails of its output and how its last run ended; and a crash kept in its record. */
import type { Logger } from 'pino';
import type { RecordSection } from '../../core/store.js';
import type { AppRecord } from './app-record.js';
import { MAX_REPORTS } from './app-record.js';
import type { LogSince } from './ring.js';
import type { AppSupervisor, CrashReport } from './supervisor.js';

/** Crash times an app's record keeps (the backoff counts them across hub restarts). */
const KEPT_CRASHES = 20;

/** Logs a crash and keeps it in the app's record, with the crash times that count for its backoff. */
export function recordCrash(section: RecordSection<AppRecord>, log: Logger, id: string, report: CrashReport, crashes: readonly number[]): void {
  log.warn({ app: id, crash: report }, 'app crashed');
  section
    .updateSome([id], (d) => {
      if (!d[id]) return;
      d[id].lastCrash = report;
      d[id].crashes = crashes.slice(-KEPT_CRASHES);
    })
    .catch((err: unknown) => log.error({ err, app: id }, 'could not record the crash'));
}

/** What getAppStd answers. */
/** What an app wrote after a reader's cursors, with its run state: what a follower of its log reads. */
export interface AppLog {
  state: string;
  stdout: LogSince;
  stderr: LogSince;
}

export interface CrashLog {
  stdout: string;
  stderr: string;
  crashed: boolean;
  crashedMessage: string | null;
  exitCode: number | null;
  exitSignal: string | null;
  exitCount: number;
  lastCrash: AppRecord['lastCrash'];
  reports: AppRecord['reports'];
}

export function crashLogOf(sup: AppSupervisor, r: AppRecord): CrashLog {
  const s = sup.state;
  return {
    stdout: sup.stdout.text(),
    stderr: sup.stderr.text(),
    crashed: s.crashed,
    crashedMessage: s.crashedMessage,
    exitCode: s.exitCode,
    exitSignal: s.exitSignal,
    exitCount: s.exitCount,
    lastCrash: r.lastCrash,
    reports: r.reports,
  };
}

/** The record's reports with `message` (what a person said when fetching the log) added, newest last. */
export function withReport(r: AppRecord, message: string): AppRecord['reports'] {
  return [...r.reports, { at: new Date().toISOString(), message: message.slice(0, 4096), crash: r.lastCrash }].slice(-MAX_REPORTS);
}
