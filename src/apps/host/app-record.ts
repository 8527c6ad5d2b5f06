/**
 * What the hub remembers about each app in the store (db.json section `apps`): whether it is
 * enabled, where it came from, its settings values, and its last crash and crash reports.
 * The app's files live in the apps folder; its logs and userdata under <data-dir>/apps/<id>/.
 */
import { z } from 'zod';
import { nullRecord, safeRecord } from '../../core/null-prototype.js';
import { usesNetwork } from '../manifest/permissions.js';

export const CrashReportSchema = z.object({
  at: z.string(),
  message: z.string(),
  exitCode: z.number().nullable(),
  exitSignal: z.string().nullable(),
});

export const AppRecord = z.object({
  enabled: z.boolean(),
  autoupdate: z.boolean(),
  origin: z.enum(['local', 'appstore']),
  channel: z.string().nullable(),
  settings: safeRecord(z.string(), z.unknown()),
  lastCrash: CrashReportSchema.nullable().default(null),
  /** When the app crashed lately (ms since the epoch, newest last): its backoff survives a hub restart. */
  crashes: z.array(z.number()).max(20).default([]),
  /** Abnormal hub deaths in a row while the app ran (a reboot does not count); two disable it. */
  hubDeaths: z.number().int().nonnegative().default(0),
  /** Why the hub disabled the app itself (not a person), shown until it is enabled again. */
  disabledReason: z.string().nullable().default(null),
  /**
   * Whether the owner lets the app use the network (the LAN and the internet). null: nobody
   * decided, and the app's kind decides (networkGranted).
   */
  network: z.boolean().nullable().default(null),
  /**
   * Where a local app came from when it was fetched from a repository (Get apps): the repository,
   * the ref asked for and the commit installed. null: put in the apps folder, or uploaded.
   */
  source: z
    .object({ repo: z.string().max(300), ref: z.string().max(200).nullable(), commit: z.string().regex(/^[0-9a-f]{40}$/) })
    .nullable()
    .default(null),
  /** Messages people attached when they fetched the crash log (getAppStd), newest last. */
  reports: z.array(z.object({ at: z.string(), message: z.string(), crash: CrashReportSchema.nullable() })).default([]),
});
export type AppRecord = z.infer<typeof AppRecord>;

export const AppsSection = safeRecord(z.string(), AppRecord);
export type AppsSection = z.infer<typeof AppsSection>;

export const STORE_SECTION = 'apps';
export const MAX_REPORTS = 20;

export function newRecord(origin: AppRecord['origin'], channel: string | null = null): AppRecord {
  return {
    enabled: true,
    autoupdate: true,
    origin,
    channel,
    settings: nullRecord(),
    lastCrash: null,
    crashes: [],
    hubDeaths: 0,
    disabledReason: null,
    network: null,
    source: null,
    reports: [],
  };
}

/**
 * Whether the app may use the network: the owner's grant, or when nobody decided, its kind's
 * default. A local app (a folder someone with the hub's files put in the apps folder, as a
 * developer runs an app on Homey) has it; a store app has it when its release asks for
 * hearth:network:access, which the owner saw before installing. Homey gives every app the
 * network and no Homey app asks for it, so the owner grants it at install or later.
 */
export function networkGranted(record: Pick<AppRecord, 'network' | 'origin'>, permissions: readonly string[]): boolean {
  return record.network ?? (record.origin === 'local' || usesNetwork(permissions));
}
