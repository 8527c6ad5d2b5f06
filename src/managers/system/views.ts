/**
 * What the system manager answers, as zod schemas the web app takes its types from. Free of Node
 * imports, so the browser build can type-check against it.
 */

import { z } from 'zod';
import { lazy } from '../../core/contract.js';

export const SystemState = lazy(() =>
  z.object({
    version: z.string(),
    /**
     * True while the setup is neither finished nor skipped and either it was begun (setupStep is
     * set: saving the language in step 1 does not end it) or the hub was never configured (none of
     * language, units or location ever set: a hub configured another way is not asked).
     */
    firstRun: z.boolean(),
    /** The step the setup was left at (0 language and units, 1 location, 2 first dashboard); null before it is begun. */
    setupStep: z.number().int().min(0).max(2).nullable(),
  }),
);
export type SystemState = z.infer<ReturnType<typeof SystemState>>;

/** `getInfo`, in Homey's shape (the fields apps and dashboards read), with this machine's figures. */
export const SystemInfo = lazy(() =>
  z.object({
    name: z.string(),
    homeyVersion: z.string().describe('the Homey version whose API this hub speaks'),
    hearthVersion: z.string(),
    homeyModelId: z.string(),
    homeyModelName: z.string(),
    homeyPlatform: z.string(),
    homeyPlatformVersion: z.number().int(),
    hostname: z.string(),
    platform: z.string(),
    arch: z.string(),
    nodeVersion: z.string(),
    address: z.string().describe('where the hub is reached on the LAN: <address>:<port>'),
    language: z.string(),
    timezone: z.string(),
    date: z.string(),
    uptime: z.number().describe('seconds since the machine booted'),
    bootDate: z.string(),
    cpus: z.array(z.object({ model: z.string(), speed: z.number(), times: z.record(z.string(), z.number()) })),
    loadavg: z.array(z.number()),
    totalmem: z.number(),
    freemem: z.number(),
    devmode: z.boolean(),
  }),
);
export type SystemInfo = z.infer<ReturnType<typeof SystemInfo>>;

/** What uses memory or disk, by owner (`homey` for the hub, `homey:app:<id>` for an app), as Homey lists it. */
const Usage = lazy(() => z.record(z.string(), z.object({ name: z.string(), size: z.number().describe('bytes') })));

export const MemoryInfo = lazy(() =>
  z.object({
    total: z.number(),
    free: z.number().describe('bytes available (MemAvailable)'),
    swap: z.object({ total: z.number(), free: z.number() }),
    types: Usage(),
  }),
);
export type MemoryInfo = z.infer<ReturnType<typeof MemoryInfo>>;

export const StorageInfo = lazy(() =>
  z.object({
    total: z.number(),
    free: z.number(),
    used: z.number(),
    types: Usage(),
  }),
);
export type StorageInfo = z.infer<ReturnType<typeof StorageInfo>>;
