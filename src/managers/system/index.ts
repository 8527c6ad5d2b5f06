/**
 * System: a probe that answers without a token (`GET /api/manager/system/ping`) for service
 * monitors and discovery.
 */
import { z } from 'zod';
import { defineOperation, type Operation } from '../../core/operation.js';
import type { Manager, ManagerContext } from '../../core/managers.js';
import { VERSION } from '../../version.js';

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
    ];
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
