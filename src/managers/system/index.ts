/**
 * System: a probe that answers without a token (`GET /api/manager/system/ping`) for service
 * monitors and discovery, and whether the hub still needs its first-run setup (the web app walks
 * a new owner through language and units, location and a first dashboard).
 */
import { z } from 'zod';
import { defineOperation, type Operation } from '../../core/operation.js';
import type { Manager, ManagerContext } from '../../core/managers.js';
import { defineOption } from '../../core/options.js';
import { VERSION } from '../../version.js';
import { SystemState } from './views.js';

const OPTION_SETUP_DONE = 'setupDone';

const OPTIONS = [
  defineOption({
    name: OPTION_SETUP_DONE,
    schema: z.boolean({ error: 'setupDone must be true or false' }),
    default: false,
    scopes: { get: null, set: 'service.system', unset: 'service.system' },
    summary: 'whether the first-run setup was finished or skipped',
  }),
];

export class SystemManager implements Manager {
  readonly name = 'system';
  readonly eventScope = null;
  readonly operations: readonly Operation[];

  constructor(private readonly ctx: ManagerContext) {
    this.operations = [
      defineOperation({
        id: 'ping',
        method: 'GET',
        path: '/ping',
        scope: null,
        auth: 'none',
        extension: true,
        summary: 'Liveness probe; needs no token',
        output: z.object({ ok: z.literal(true), version: z.string() }),
        handler: () => ({ ok: true, version: VERSION }),
      }),
      ...ctx.options.register(this.name, OPTIONS),
      defineOperation({
        id: 'getSystemState',
        method: 'GET',
        path: '/state',
        // Any token: a signed-in page asks this first, whatever it may do after.
        scope: null,
        extension: true,
        summary: "The hub's version and whether it still needs its first-run setup",
        output: SystemState,
        handler: (): SystemState => ({ version: VERSION, firstRun: this.firstRun() }),
      }),
    ];
  }

  private firstRun(): boolean {
    const o = this.ctx.options;
    if (o.get<boolean>(this.name, OPTION_SETUP_DONE)) return false;
    return !o.isSet('i18n', 'language') && !o.isSet('i18n', 'units') && !o.isSet('geolocation', 'location');
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
