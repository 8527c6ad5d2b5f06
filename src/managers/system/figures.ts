/**
 * The hub's figures in Homey's shapes (`system.getInfo`, `getMemoryInfo`, `getStorageInfo`),
 * from this machine: /proc and os for memory, load and uptime, statfs and a bounded walk for the
 * disk. What Homey measures per app (memory, storage) is measured per app here too: the apps'
 * sampled memory (the usage the Apps page shows) and their folders' blocks on disk.
 */
import { lstat, readdir, readFile, statfs } from 'node:fs/promises';
import { arch, cpus, freemem, hostname, loadavg, platform, totalmem, uptime } from 'node:os';
import { join } from 'node:path';
import { folderUsage } from '../../apps/host/disk-usage.js';
import { HOMEY_VERSION, VERSION } from '../../version.js';
import type { MemoryInfo, StorageInfo, SystemInfo } from './views.js';

/** What the figures read from the apps runtime (AppRuntime.list() fits). */
export interface AppFigures {
  list(): Record<string, { readonly name: string; readonly usage: { readonly mem: number } }>;
}

export interface FigureSources {
  readonly dataDir: string;
  readonly appsDir: string;
  readonly backupDir: string;
  readonly zone: string;
  readonly name: () => string;
  readonly language: () => string;
  readonly address: () => string;
  readonly apps: AppFigures;
}

/** How long a storage answer is reused: walking every app's folder is slow on an SD card (Homey's own takes seconds). */
const STORAGE_FRESH_MS = 60_000;

export class SystemFigures {
  private storage: { at: number; value: Promise<StorageInfo> } | null = null;

  constructor(private readonly src: FigureSources) {}

  info(): SystemInfo {
    const now = new Date();
    return {
      name: this.src.name(),
      homeyVersion: HOMEY_VERSION,
      hearthVersion: VERSION,
      homeyModelId: 'hearth',
      homeyModelName: `hearth on ${platform()} ${arch()}`,
      homeyPlatform: 'local',
      homeyPlatformVersion: 2,
      hostname: hostname(),
      platform: platform(),
      arch: arch(),
      nodeVersion: process.versions.node,
      address: this.src.address(),
      language: this.src.language(),
      timezone: this.src.zone,
      date: now.toISOString(),
      uptime: Math.round(uptime()),
      bootDate: new Date(now.getTime() - uptime() * 1000).toISOString(),
      cpus: cpus().map((c) => ({ model: c.model, speed: c.speed, times: c.times })),
      loadavg: loadavg(),
      totalmem: totalmem(),
      freemem: freemem(),
      devmode: false,
    };
  }

  async memory(): Promise<MemoryInfo> {
    const meminfo = await readFile('/proc/meminfo', 'utf8').catch(() => '');
    const kib = (key: string): number | null => {
      const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(meminfo);
      return m ? Number(m[1]) * 1024 : null;
    };
    const types: MemoryInfo['types'] = { homey: { name: 'hearth', size: process.memoryUsage.rss() } };
    for (const [id, app] of Object.entries(this.src.apps.list())) {
      if (app.usage.mem > 0) types[`homey:app:${id}`] = { name: app.name, size: app.usage.mem };
    }
    return {
      total: totalmem(),
      free: kib('MemAvailable') ?? freemem(),
      swap: { total: kib('SwapTotal') ?? 0, free: kib('SwapFree') ?? 0 },
      types,
    };
  }

  storageInfo(): Promise<StorageInfo> {
    if (this.storage && Date.now() - this.storage.at < STORAGE_FRESH_MS) return this.storage.value;
    const value = this.measureStorage();
    this.storage = { at: Date.now(), value };
    value.catch(() => {
      this.storage = null;
    });
    return value;
  }

  private async measureStorage(): Promise<StorageInfo> {
    const fs = await statfs(this.src.dataDir);
    const total = fs.blocks * fs.bsize;
    const free = fs.bavail * fs.bsize;
    const types: StorageInfo['types'] = {};
    const { dataDir, appsDir } = this.src;
    // The hub's own files (the data dir but the apps' runtime folders, each walked once below, and
    // the backups kept in it); per app, its folder (its code) and its runtime folder (userdata, logs).
    let data = 0;
    for (const name of await readdir(dataDir).catch(() => [] as string[])) {
      if (name === 'apps') continue;
      const info = await lstat(join(dataDir, name)).catch(() => null);
      if (!info) continue;
      data += info.blocks * 512 + (info.isDirectory() ? (await folderUsage(join(dataDir, name))).bytes : 0);
    }
    const backups = this.src.backupDir.startsWith(`${dataDir}/`) ? await folderUsage(this.src.backupDir) : { bytes: 0 };
    types['homey:manager:system:database'] = { name: 'Data', size: data - backups.bytes };
    if (backups.bytes > 0) types['homey:manager:backup'] = { name: 'Backups', size: backups.bytes };
    for (const [id, app] of Object.entries(this.src.apps.list())) {
      const size = (await folderUsage(join(appsDir, id))).bytes + (await folderUsage(join(dataDir, 'apps', id))).bytes;
      types[`homey:app:${id}`] = { name: app.name, size };
    }
    const counted = Object.values(types).reduce((n, t) => n + t.size, 0);
    const used = total - free;
    types.other = { name: 'Other', size: Math.max(0, used - counted) };
    return { total, free, used, types };
  }
}
