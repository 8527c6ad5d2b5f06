/**
 * Geolocation: where the hub is (coordinates) and its postal address. Options only.
 */
import { z } from 'zod';
import { defineStateOperation, type Operation } from '../../core/operation.js';
import type { Manager, ManagerContext } from '../../core/managers.js';
import { defineOption } from '../../core/options.js';
import { safeRecord } from '../../core/records.js';

function degrees(name: string, limit: number) {
  const range = { error: `${name} must be between -${limit} and ${limit} degrees` };
  return z.number({ error: `${name} must be a number of degrees` }).min(-limit, range).max(limit, range);
}

export const Location = z.strictObject({
  latitude: degrees('latitude', 90),
  longitude: degrees('longitude', 180),
  /** Radius in metres. */
  accuracy: z.number().min(0, { error: 'accuracy is a radius in metres: 0 or more' }).max(100_000).optional(),
});
export type Location = z.infer<typeof Location>;

const ADDRESS_FIELDS = 20;
export const Address = safeRecord(z.string().min(1).max(50), z.string().max(200), {
  error: 'address must be an object of strings, e.g. {"city": "Utrecht"}',
}).refine((a) => Object.keys(a).length <= ADDRESS_FIELDS, { error: `address may have at most ${ADDRESS_FIELDS} fields` });
export type Address = z.infer<typeof Address>;

const scopes = { get: 'service.geolocation.readonly', set: 'service.geolocation', unset: 'service.geolocation' } as const;
const OPTIONS = [
  defineOption({ name: 'location', schema: Location, default: null, scopes, summary: 'the coordinates of the hub' }),
  defineOption({ name: 'address', schema: Address, default: null, scopes, summary: 'the postal address of the hub' }),
];

export class GeolocationManager implements Manager {
  readonly name = 'geolocation';
  readonly eventScope = 'service.geolocation.readonly';
  readonly operations: readonly Operation[];

  constructor(private readonly ctx: ManagerContext) {
    this.operations = [
      ...ctx.options.register(this.name, OPTIONS),
      defineStateOperation({
        summary: 'Location and address, and whether each is set',
        output: z.object({
          location: Location.nullable(),
          address: z.record(z.string(), z.string()).nullable(),
          locationSet: z.boolean(),
          addressSet: z.boolean(),
        }),
        handler: () => ({
          location: this.location(),
          address: ctx.options.get<Address | null>(this.name, 'address'),
          locationSet: ctx.options.isSet(this.name, 'location'),
          addressSet: ctx.options.isSet(this.name, 'address'),
        }),
      }),
    ];
  }

  location(): Location | null {
    return this.ctx.options.get<Location | null>(this.name, 'location');
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
