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
import { implement, JsonBytes, type Operation } from '../../core/operation.js';
import type { Section } from '../../core/store.js';
import { HOMEY_VERSION, VERSION } from '../../version.js';
import type { ManagerContext } from '../context.js';
import { OPTION_SETUP_DONE, OPTION_SETUP_STEP, systemContract } from './contract.js';
import { type AppFigures, SystemFigures } from './figures.js';

const SECTION = 'system';
const SystemSection = z.object({ name: z.string().min(1).max(64).nullable() });

export class SystemManager implements Manager {
  readonly name = systemContract.name;
  readonly contract = systemContract;
  readonly operations: readonly Operation[];
  private readonly pingBody = new TextEncoder().encode(JSON.stringify({ ok: true, version: VERSION }));
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
    this.operations = [
      ...ctx.options.register(this.name, systemContract.options),
      ...implement(systemContract.operations, {
        // Homey's headers too: Homey's client (homey-api's createLocalAPI) knows a Homey by them.
        ping: () => new JsonBytes<{ ok: true; version: string }>(this.pingBody, { 'x-homey-id': ctx.hubId, 'x-homey-version': HOMEY_VERSION }),
        getInfo: () => this.figures.info(),
        getSystemName: () => this.name_(),
        setSystemName: async ({ body }) => {
          await this.mustSection().update((d) => void (d.name = body.name));
          return body.name;
        },
        getMemoryInfo: () => this.figures.memory(),
        getStorageInfo: () => this.figures.storageInfo(),
        getSystemState: () => ({
          version: VERSION,
          firstRun: this.firstRun(),
          setupStep: ctx.options.isSet(this.name, OPTION_SETUP_STEP) ? ctx.options.get<number>(this.name, OPTION_SETUP_STEP) : null,
        }),
      }),
    ];
  }

  private firstRun(): boolean {
    const o = this.ctx.options;
    if (o.get<boolean>(this.name, OPTION_SETUP_DONE)) return false;
    if (o.isSet(this.name, OPTION_SETUP_STEP)) return true;
    return !o.isSet('i18n', 'language') && !o.isSet('i18n', 'units') && !o.isSet('geolocation', 'location');
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
