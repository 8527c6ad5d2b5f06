/**
 * Homey's own Web API client (npm `homey-api`), to hold hearth to what Homey's users and apps run.
 * Its licence is not an open-source one, so it is no dependency of hearth's: a test installs a
 * pinned version into `node_modules/.cache/hearth-homey-api/` (outside the repository, gone with
 * `npm ci`) the first time it is needed, and loads it from there.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './hub.js';

export const HOMEY_API_VERSION = '3.20.0';
const CACHE = join(ROOT, 'node_modules/.cache/hearth-homey-api');
const INSTALLED = join(CACHE, HOMEY_API_VERSION);

/** What the tests use of a homey-api client (V2 and V3 local alike). */
export interface HomeyApiClient {
  readonly dashboards: HomeyApiManager;
  readonly apps: HomeyApiManager;
  readonly insights: HomeyApiManager;
  readonly [manager: string]: unknown;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  destroy(): void;
  isConnected(): boolean;
}

export interface HomeyApiManager {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  on(event: string, fn: (data: unknown) => void): void;
  [operation: string]: unknown;
}

interface ClientProps {
  token: string;
  baseUrl: string;
  strategy: string[];
  properties: { id: string; softwareVersion: string };
  debug?: (...words: unknown[]) => void;
}

export interface HomeyApiModule {
  HomeyAPI: { createLocalAPI(opts: { address: string; token: string; debug?: (...words: unknown[]) => void }): Promise<HomeyApiClient> };
  HomeyAPIV2: new (props: ClientProps) => HomeyApiClient;
  HomeyAPIV3Local: new (props: ClientProps) => HomeyApiClient;
}

/** Installs the pinned homey-api once (into a temp folder, then renamed) and loads it. */
export async function loadHomeyApi(): Promise<HomeyApiModule> {
  if (!existsSync(join(INSTALLED, 'node_modules/homey-api/package.json'))) {
    await mkdir(CACHE, { recursive: true });
    const staging = await mkdtemp(join(CACHE, '.staging-'));
    try {
      await writeFile(join(staging, 'package.json'), JSON.stringify({ private: true }));
      await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', `homey-api@${HOMEY_API_VERSION}`], {
        cwd: staging,
        timeout: 180_000,
      }).catch((err: Error) => {
        throw new Error(`could not install homey-api@${HOMEY_API_VERSION} from the npm registry for this test: ${err.message}`);
      });
      // Another test may have installed it meanwhile: the first rename wins.
      await rename(staging, INSTALLED).catch(() => undefined);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  return createRequire(join(INSTALLED, 'package.json'))('homey-api') as HomeyApiModule;
}

/** A socket.io 2 client socket (the one homey-api brings), as far as the tests use it. */
export interface SocketIo2 {
  emit(event: string, ...args: unknown[]): void;
  on(event: string, fn: (...args: unknown[]) => void): void;
  once(event: string, fn: (...args: unknown[]) => void): void;
  close(): void;
}

/** homey-api's own socket.io client (version 2), for talking the protocol by hand. */
export async function loadSocketIo2(): Promise<(url: string, options: object) => SocketIo2> {
  await loadHomeyApi();
  return createRequire(join(INSTALLED, 'node_modules/homey-api/package.json'))('socket.io-client') as (url: string, options: object) => SocketIo2;
}
