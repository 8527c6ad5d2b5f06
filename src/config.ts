/**
 * The hub's configuration: parsed once from flags > HEARTH_* environment > defaults, validated,
 * frozen. Defaults are data beside the schema.
 */

import type { KeyObject } from 'node:crypto';
import { resolve, sep } from 'node:path';
import { z } from 'zod';
import { loadPublicKey } from './apps/catalogue/key.js';
import { isZone, systemZone } from './core/system-zone.js';
import { transient } from './core/transient.js';

const port = transient(() => z.coerce.number().int().min(0).max(65535));
const positiveInt = transient(() => z.coerce.number().int().positive());

/** Every setting: its flag name, environment name, schema and default. */
/** The owner token's file in the data dir (0600); deleting it and restarting makes a new one. */
export const OWNER_TOKEN_FILE = 'owner-token';

export const CONFIG_FIELDS = transient(
  () =>
    ({
      host: { flag: 'host', env: 'HEARTH_HOST', schema: z.string().min(1), default: '0.0.0.0' },
      port: { flag: 'port', env: 'HEARTH_PORT', schema: port(), default: 8720 },
      dataDir: { flag: 'data-dir', env: 'HEARTH_DATA_DIR', schema: z.string().min(1), default: './data' },
      appsDir: { flag: 'apps-dir', env: 'HEARTH_APPS_DIR', schema: z.string().min(1), default: './apps' },
      /** App store catalogue: a folder or an http(s) URL holding index.json; '' = <data-dir>/store. */
      store: { flag: 'store', env: 'HEARTH_STORE', schema: z.string(), default: '' },
      /** An ed25519 public key (PEM file) the store's index.json must be signed with; '' = none. */
      storeKeyFile: { flag: 'store-key', env: 'HEARTH_STORE_KEY', schema: z.string(), default: '' },
      /** Where Get apps fetches repositories: '' = GitHub; else one origin serving GitHub's paths (a mirror, the tests' stand-in). */
      repoHost: {
        flag: 'repo-host',
        env: 'HEARTH_REPO_HOST',
        schema: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be an http(s) address' })]),
        default: '',
      },
      /** The npm registry Get apps installs an app's packages from. */
      npmRegistry: {
        flag: 'npm-registry',
        env: 'HEARTH_NPM_REGISTRY',
        schema: z.url({ protocol: /^https?$/, error: 'must be an http(s) address' }),
        default: 'https://registry.npmjs.org/',
      },
      /** The heap of each step of an app's build (npm, the TypeScript compiler), MiB. */
      appBuildMemoryMb: { flag: 'app-build-memory-mb', env: 'HEARTH_APP_BUILD_MEMORY_MB', schema: positiveInt(), default: 512 },
      /** How long an app's build may take at most, minutes. */
      appBuildMinutes: { flag: 'app-build-minutes', env: 'HEARTH_APP_BUILD_MINUTES', schema: positiveInt(), default: 20 },
      /** 'default' = the sound card; anything else is a folder to write one WAV per utterance into. */
      audioOut: { flag: 'audio-out', env: 'HEARTH_AUDIO_OUT', schema: z.string().min(1), default: 'default' },
      speechEngine: {
        flag: 'speech-engine',
        env: 'HEARTH_SPEECH_ENGINE',
        schema: z.enum(['auto', 'espeak-ng', 'say', 'none']),
        default: 'auto',
      },
      logLevel: {
        flag: 'log-level',
        env: 'HEARTH_LOG_LEVEL',
        schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
        default: 'info',
      },
      /** '' = <data-dir>/backups. */
      backupDir: { flag: 'backup-dir', env: 'HEARTH_BACKUP_DIR', schema: z.string(), default: '' },
      backupSchedule: { flag: 'backup-schedule', env: 'HEARTH_BACKUP_SCHEDULE', schema: z.string().min(1), default: '30 3 * * *' },
      backupKeep: { flag: 'backup-keep', env: 'HEARTH_BACKUP_KEEP', schema: positiveInt(), default: 7 },
      appHeapMb: { flag: 'app-heap-mb', env: 'HEARTH_APP_HEAP_MB', schema: positiveInt(), default: 128 },
      /** How apps are contained: bubblewrap namespaces when they work ('auto'), always ('bwrap'), never ('off'). */
      appSandbox: { flag: 'app-sandbox', env: 'HEARTH_APP_SANDBOX', schema: z.enum(['auto', 'bwrap', 'off']), default: 'auto' },
      /** Memory ceiling of each app (its data: heap and Buffers), MiB; app.json may ask for more up to the max. */
      appMemoryMb: { flag: 'app-memory-mb', env: 'HEARTH_APP_MEMORY_MB', schema: positiveInt(), default: 128 },
      appMemoryMaxMb: { flag: 'app-memory-max-mb', env: 'HEARTH_APP_MEMORY_MAX_MB', schema: positiveInt(), default: 512 },
      /** Disk quota of each app's userdata, MiB; app.json may ask for more up to the max. */
      appDiskMb: { flag: 'app-disk-mb', env: 'HEARTH_APP_DISK_MB', schema: positiveInt(), default: 64 },
      appDiskMaxMb: { flag: 'app-disk-max-mb', env: 'HEARTH_APP_DISK_MAX_MB', schema: positiveInt(), default: 1024 },
      /** Free space of the data filesystem, MiB, below which an app that writes is stopped (the store and backups live there). */
      appDiskFloorMb: { flag: 'app-disk-floor-mb', env: 'HEARTH_APP_DISK_FLOOR_MB', schema: positiveInt(), default: 256 },
      /** Seconds an app may use more than 90% of a core at a stretch before it is restarted. */
      appCpuBudgetS: { flag: 'app-cpu-budget-s', env: 'HEARTH_APP_CPU_BUDGET_S', schema: positiveInt(), default: 60 },
      /** Seconds an app has to finish starting (its onInit) before it counts as crashed: a slow board, or a heavy app, may need more. */
      appStartTimeoutS: { flag: 'app-start-timeout-s', env: 'HEARTH_APP_START_TIMEOUT_S', schema: positiveInt(), default: 15 },
      bodyLimit: { flag: 'body-limit', env: 'HEARTH_BODY_LIMIT', schema: positiveInt(), default: 1024 * 1024 },
      /** Failed authentications allowed per remote address per minute before 429. */
      authFailureLimit: { flag: 'auth-failure-limit', env: 'HEARTH_AUTH_FAILURE_LIMIT', schema: positiveInt(), default: 20 },
      timeZone: { flag: 'time-zone', env: 'HEARTH_TIME_ZONE', schema: z.string(), default: '' },
      /**
       * Debug: every answer is parsed against its operation's output schema, and one that does not
       * match fails loudly (500 naming the operation and the field, and an error in the log). The
       * test suite runs every hub with it; off, the hot path pays nothing.
       */
      checkAnswers: { flag: 'check-answers', env: 'HEARTH_CHECK_ANSWERS', schema: z.enum(['on', 'off']), default: 'off' },
    }) as const,
);

type Fields = ReturnType<typeof CONFIG_FIELDS>;
export type ConfigKey = keyof Fields;

export type Config = Readonly<{ [K in ConfigKey]: z.output<Fields[K]['schema']> }> & {
  /** From HEARTH_OWNER_TOKEN only: never a flag, so it does not show in `ps`. */
  readonly ownerToken: string | undefined;
  /** Resolved folder of the app store catalogue or its URL. */
  readonly storeLocation: string;
  /** The key read from storeKeyFile, or null when none is pinned. */
  readonly storeKey: KeyObject | null;
  readonly backupLocation: string;
  /** IANA zone the calendar resolutions use. */
  readonly zone: string;
};

export class ConfigError extends Error {}

/**
 * Builds the config from parsed flags (keys are flag names) and an environment.
 *
 * @example loadConfig({ port: '0', 'data-dir': '/tmp/x' }, process.env)
 */
export function loadConfig(flags: Readonly<Record<string, string | undefined>>, env: NodeJS.ProcessEnv): Config {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(CONFIG_FIELDS())) {
    const raw = flags[field.flag] ?? env[field.env];
    const source = flags[field.flag] !== undefined ? `--${field.flag}` : env[field.env] !== undefined ? field.env : 'default';
    const parsed = (field.schema as z.ZodType).safeParse(raw ?? field.default);
    if (!parsed.success) {
      throw new ConfigError(`invalid ${source} '${String(raw)}': ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    out[key] = parsed.data;
  }
  const dataDir = resolve(String(out.dataDir));
  const store = String(out.store);
  const backupDir = String(out.backupDir);
  const zone = String(out.timeZone) || systemZone();
  if (!isZone(zone)) throw new ConfigError(`invalid time zone '${zone}': use an IANA name such as Europe/Amsterdam`);
  const appsDir = resolve(String(out.appsDir));
  // One layout: app packages beside the data, never in it. Inside, `<data-dir>/apps/<id>` is
  // both a package and its userdata, and replacing the package (an upgrade, an uninstall)
  // would take the app's data with it.
  if (appsDir === dataDir || appsDir.startsWith(dataDir + sep)) {
    throw new ConfigError(
      `the apps folder ${appsDir} is inside the data dir ${dataDir}: put it beside it (e.g. --apps-dir ${resolve(dataDir, '..', 'apps')}), since app folders in the data dir hold each app's userdata`,
    );
  }
  const audioOut = String(out.audioOut);
  let storeKey: KeyObject | null = null;
  if (out.storeKeyFile !== '') {
    try {
      storeKey = loadPublicKey(resolve(String(out.storeKeyFile)));
    } catch (err) {
      throw new ConfigError(`invalid --store-key: ${(err as Error).message}`);
    }
  }
  return Object.freeze({
    ...(out as Omit<Config, 'ownerToken' | 'storeLocation' | 'storeKey' | 'backupLocation' | 'zone'>),
    dataDir,
    appsDir,
    audioOut: audioOut === 'default' ? audioOut : resolve(audioOut),
    ownerToken: env.HEARTH_OWNER_TOKEN || undefined,
    storeLocation: store === '' ? resolve(dataDir, 'store') : /^https?:\/\//.test(store) ? store : resolve(store),
    storeKey,
    backupLocation: backupDir === '' ? resolve(dataDir, 'backups') : resolve(backupDir),
    zone,
  });
}

/** Flag names `hearth start` accepts, for the CLI parser. */
export const CONFIG_FLAGS: () => readonly string[] = transient(() => Object.values(CONFIG_FIELDS()).map((f) => f.flag));
