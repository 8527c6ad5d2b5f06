/**
 * System: a probe that answers without a token (`GET /api/manager/system/ping`) for service
 * monitors and discovery, whether the hub still needs its first-run setup (the web app walks a
 * new owner through language and units, location and a first dashboard), the hub's name, and
 * Homey's figures of the machine (figures.ts).
 */
import { hostname } from 'node:os';
import { z } from 'zod';
import { KiB } from '../../core/byte-bounds.js';
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { Section } from '../../core/store.js';
import type { ManagerContext } from '../context.js';
import { systemContract } from './contract.js';
import { type AppFigures, SystemFigures } from './figures.js';
import { systemOperations } from './operations.js';

const SECTION = 'system';
const SystemSection = z.object({ name: z.string().min(1).max(64).nullable() });

export class SystemManager implements Manager {
  readonly name = systemContract.name;
  readonly contract = systemContract;
  readonly operations: readonly Operation[];
  private section: Section<z.infer<typeof SystemSection>> | undefined;
  private readonly figures: SystemFigures;

  constructor(
    private readonly ctx: ManagerContext,
    /** Each app's memory for getMemoryInfo and its folders for getStorageInfo. */
    apps: AppFigures,
  ) {
    this.figures = new SystemFigures({
      dataDir: ctx.config.dataDir,
      appsDir: ctx.config.appsDir,
      backupDir: ctx.config.backupLocation,
      zone: ctx.config.zone,
      name: () => this.name_(),
      language: () => ctx.options.get<string>('i18n', 'language'),
      // Asked only once the hub listens (it answers requests).
      address: () => ctx.localAddress?.() ?? '',
      apps,
    });
    this.operations = systemOperations({
      options: ctx.options,
      hubId: ctx.hubId,
      figures: this.figures,
      name: () => this.name_(),
      setName: (name) => this.mustSection().update((d) => void (d.name = name)),
    });
  }

  /** The hub's name: the owner's, else the machine's. */
  private name_(): string {
    return this.section?.value.name ?? hostname();
  }

  private mustSection(): Section<z.infer<typeof SystemSection>> {
    if (!this.section) throw new Error('the system manager is not started');
    return this.section;
  }

  async start(): Promise<void> {
    this.section = this.ctx.store.section(SECTION, SystemSection, () => ({ name: null }), { bytes: { section: 4 * KiB, items: 'system settings' } });
  }
  async stop(): Promise<void> {}
}
