/**
 * The system contract: a probe that answers without a token (`GET /ping`) for service monitors
 * and discovery, the hub's version and whether it still needs its first-run setup, and the option
 * that records that setup was finished or skipped; and Homey's own operations (`getInfo`, the
 * hub's name, memory and storage), with this machine's figures.
 */
import { z } from 'zod';
import { defineContract, defineOption, op } from '../../core/contract.js';
import { MemoryInfo, StorageInfo, SystemInfo, SystemState } from './views.js';

export const OPTION_SETUP_DONE = 'setupDone';
export const OPTION_SETUP_STEP = 'setupStep';

export const systemContract = defineContract({
  name: 'system',
  eventScope: null,
  options: [
    defineOption({
      name: OPTION_SETUP_DONE,
      schema: z.boolean({ error: 'setupDone must be true or false' }),
      default: false,
      scopes: { get: null, set: 'service.system', unset: 'service.system' },
      summary: 'whether the first-run setup was finished or skipped',
    }),
    defineOption({
      name: OPTION_SETUP_STEP,
      schema: z.number({ error: 'setupStep must be a step number' }).int().min(0).max(2),
      default: 0,
      scopes: { get: null, set: 'service.system', unset: 'service.system' },
      summary: 'the first-run step the owner is at, set while the setup is walked: it lasts until finished or skipped, and a reload resumes there',
    }),
  ],
  operations: {
    ping: op(
      {
        method: 'GET',
        path: '/ping',
        scope: null,
        auth: 'none',
        extension: true,
        summary: 'Liveness probe; needs no token',
      },
      () => ({
        output: z.object({ ok: z.literal(true), version: z.string() }),
      }),
    ),
    getInfo: op(
      {
        method: 'GET',
        path: '/',
        scope: 'service.system.readonly',
        summary: "The hub's name, versions, address, time zone, uptime, processors, load and memory (Homey's getInfo)",
      },
      () => ({ output: SystemInfo() }),
    ),
    getSystemName: op({ method: 'GET', path: '/name', scope: 'service.system.readonly', summary: "The hub's name" }, () => ({ output: z.string() })),
    setSystemName: op({ method: 'PUT', path: '/name', scope: 'service.system', summary: 'Renames the hub' }, () => ({
      body: z.strictObject({ name: z.string().trim().min(1, 'name must not be empty').max(64, 'name must be at most 64 characters') }),
      output: z.string(),
    })),
    getMemoryInfo: op(
      {
        method: 'GET',
        path: '/memory',
        scope: 'service.system.readonly',
        summary: "The machine's memory and what the hub and each app use (Homey's getMemoryInfo)",
      },
      () => ({ output: MemoryInfo() }),
    ),
    getStorageInfo: op(
      {
        method: 'GET',
        path: '/storage',
        scope: 'service.system.readonly',
        summary:
          "The data disk's size and free space, and what the hub's data, backups and each app take (Homey's getStorageInfo; measured at most once a minute)",
      },
      () => ({ output: StorageInfo() }),
    ),
    getSystemState: op(
      {
        method: 'GET',
        path: '/state',
        // Any token: a signed-in page asks this first, whatever it may do after.
        scope: null,
        extension: true,
        summary: "The hub's version and whether it still needs its first-run setup",
      },
      () => ({
        output: SystemState(),
      }),
    ),
  },
});
