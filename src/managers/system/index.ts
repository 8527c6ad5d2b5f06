/**
 * System: a probe that answers without a token (`GET /api/manager/system/ping`) for service
 * monitors and discovery, and whether the hub still needs its first-run setup (the web app walks
 * a new owner through language and units, location and a first dashboard).
 */
import type { Manager } from '../../core/managers.js';
import { implement, JsonBytes, type Operation } from '../../core/operation.js';
import { HOMEY_VERSION, VERSION } from '../../version.js';
import type { ManagerContext } from '../context.js';
import { OPTION_SETUP_DONE, OPTION_SETUP_STEP, systemContract } from './contract.js';

export class SystemManager implements Manager {
  readonly name = systemContract.name;
  readonly contract = systemContract;
  readonly operations: readonly Operation[];
  private readonly pingBody = new TextEncoder().encode(JSON.stringify({ ok: true, version: VERSION }));

  constructor(private readonly ctx: ManagerContext) {
    this.operations = [
      ...ctx.options.register(this.name, systemContract.options),
      ...implement(systemContract.operations, {
        // Homey's headers too: Homey's client (homey-api's createLocalAPI) knows a Homey by them.
        ping: () => new JsonBytes<{ ok: true; version: string }>(this.pingBody, { 'x-homey-id': ctx.hubId, 'x-homey-version': HOMEY_VERSION }),
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

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
