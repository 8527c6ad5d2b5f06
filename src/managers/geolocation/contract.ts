/**
 * The geolocation contract: where the hub is (coordinates) and its postal address, as options,
 * and a state with both and whether each is set.
 */
import { z } from 'zod';
import { defineContract, defineOption, lazy, stateOperation } from '../../core/contract.js';
import { safeRecord } from '../../core/null-prototype.js';

function degrees(name: string, limit: number) {
  const range = { error: `${name} must be between -${limit} and ${limit} degrees` };
  return z
    .number({ error: `${name} must be a number of degrees` })
    .min(-limit, range)
    .max(limit, range);
}

export const Location = lazy(() =>
  z.strictObject({
    latitude: degrees('latitude', 90),
    longitude: degrees('longitude', 180),
    /** Radius in metres. */
    accuracy: z.number().min(0, { error: 'accuracy is a radius in metres: 0 or more' }).max(100_000).optional(),
  }),
);
export type Location = z.infer<ReturnType<typeof Location>>;

const ADDRESS_FIELDS = 20;
export const Address = lazy(() =>
  safeRecord(z.string().min(1).max(50), z.string().max(200), {
    error: 'address must be an object of strings, e.g. {"city": "Utrecht"}',
  }).refine((a) => Object.keys(a).length <= ADDRESS_FIELDS, { error: `address may have at most ${ADDRESS_FIELDS} fields` }),
);
export type Address = z.infer<ReturnType<typeof Address>>;

const scopes = { get: 'service.geolocation.readonly', set: 'service.geolocation', unset: 'service.geolocation' } as const;

export const geolocationContract = defineContract({
  name: 'geolocation',
  eventScope: 'service.geolocation.readonly',
  options: [
    defineOption({ name: 'location', schema: Location(), default: null, scopes, summary: 'the coordinates of the hub' }),
    defineOption({ name: 'address', schema: Address(), default: null, scopes, summary: 'the postal address of the hub' }),
  ],
  operations: {
    getState: stateOperation({
      summary: 'Location and address, and whether each is set',
      output: () =>
        z.object({
          location: Location().nullable(),
          address: z.record(z.string(), z.string()).nullable(),
          locationSet: z.boolean(),
          addressSet: z.boolean(),
        }),
    }),
  },
});
