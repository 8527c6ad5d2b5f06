/**
 * The energy contract (Homey's energy manager): the home's power now (the live report, per zone
 * and device, with its meter's view and what the devices do not account for), what it used and
 * made per day, week, month and year (kWh from insights), and the prices the owner sets. Field
 * names are Homey's where its clients read them (docs/energy.md).
 */
import { z } from 'zod';
import { defineContract, defineOption, lazy, op, stateOperation } from '../../core/contract.js';

const Watts = lazy(() =>
  z.object({
    W: z.number().nullable().describe('watts now'),
    cost: z.number().nullable().describe('what an hour at this power costs at the fixed price (null: no price set)'),
  }),
);

export const LiveItem = lazy(() =>
  z.object({
    type: z.enum(['zone', 'device', 'cumulative']).describe("a zone inside (its devices' sum), a device, or the home's own meter"),
    id: z.string(),
    name: z.string(),
    zoneId: z.string().nullable(),
    values: Watts(),
    approximated: z.boolean(),
    canApproximate: z.boolean(),
    isHomeBattery: z.boolean(),
    isElectricCar: z.boolean(),
    isGenerator: z.boolean(),
    includedInTotal: z.boolean().describe('counted in totalConsumed (a meter or a generator is not)'),
  }),
);
export type LiveItem = z.infer<ReturnType<typeof LiveItem>>;

export const LiveReport = lazy(() =>
  z.object({
    zoneId: z.string(),
    zoneName: z.string(),
    currency: z.string(),
    totalConsumed: Watts().describe('what the devices in the zone draw'),
    totalGenerated: Watts().describe('what its solar panels (and discharging batteries) make'),
    totalCumulative: Watts().describe("what the home's meters say it takes from the grid (negative: exporting); W null without a meter"),
    totalUnaccounted: Watts().describe('what the meter sees that no device accounts for (meter + made - devices); W null without a meter'),
    items: z.array(LiveItem()),
  }),
);
export type LiveReport = z.infer<ReturnType<typeof LiveReport>>;

const Kwh = lazy(() => z.number().nullable());
export const EnergyTotals = lazy(() =>
  z.object({
    consumedPeriod: z.number().describe('kWh the home used: by its meter when it has one, else the sum of its devices'),
    generatedPeriod: z.number(),
    importedPeriod: Kwh().describe('kWh from the grid (null: no meter)'),
    exportedPeriod: Kwh(),
    unaccountedPeriod: Kwh().describe('kWh the meter saw that no device accounts for'),
    costPeriod: Kwh().describe('at the fixed price (null: none set)'),
  }),
);
export type EnergyTotals = z.infer<ReturnType<typeof EnergyTotals>>;

export const EnergyReport = lazy(() =>
  z.object({
    period: z.string().describe("the report's day, week, month or year"),
    start: z.iso.datetime(),
    end: z.iso.datetime(),
    currency: z.string(),
    electricity: EnergyTotals().extend({
      devices: z.record(
        z.string(),
        z.object({
          name: z.string(),
          zone: z.string().nullable(),
          consumedPeriod: Kwh().optional(),
          generatedPeriod: Kwh().optional(),
          importedPeriod: Kwh().optional(),
          exportedPeriod: Kwh().optional(),
        }),
      ),
      zones: z.record(z.string(), z.object({ consumedPeriod: z.number(), generatedPeriod: z.number() })).describe('each zone with the zones inside it'),
    }),
    gas: z.object({ importedPeriod: Kwh() }),
    water: z.object({ importedPeriod: Kwh() }),
    subReports: z.record(z.string(), z.object({ electricity: EnergyTotals() })).describe('by hour (a day), day (a week or month) or month (a year)'),
  }),
);
export type EnergyReport = z.infer<ReturnType<typeof EnergyReport>>;

/** Homey's fixed price: `{costs: {<part>: {value}}}`, the parts added up per kWh (or m³). */
const FixedPrice = lazy(() =>
  z.strictObject({
    costs: z
      .record(z.string().min(1).max(40), z.strictObject({ value: z.number().min(0).max(1000) }))
      .refine((c) => Object.keys(c).length >= 1 && Object.keys(c).length <= 10, { error: 'a price has 1 to 10 parts' }),
  }),
);
const Currency = lazy(() => z.string().regex(/^[A-Z]{3}$/, { error: 'a currency is its three-letter code, such as EUR' }));
const scopes = { get: 'service.energy.readonly', set: 'service.energy', unset: 'service.energy' } as const;
const price = (name: 'electricityPriceFixed' | 'gasPriceFixed' | 'waterPriceFixed', what: string) =>
  defineOption({ name, schema: FixedPrice(), default: null, scopes, summary: `the fixed price of ${what}` });

const Live = lazy(() => z.object({ consumed: z.number(), generated: z.number(), cumulative: z.number().nullable() }));
const Cache = lazy(() => z.string().max(10).optional().describe("Homey's client's own flag; ignored"));

export const energyContract = defineContract({
  name: 'energy',
  eventScope: 'service.energy.readonly',
  events: lazy(() => ({ 'live.update': [Live()] })),
  options: [
    price('electricityPriceFixed', 'electricity per kWh'),
    price('gasPriceFixed', 'gas per m³'),
    price('waterPriceFixed', 'water per m³'),
    defineOption({ name: 'currency', schema: Currency(), default: 'EUR', scopes, summary: 'the currency of the prices (ISO 4217)' }),
  ],
  operations: {
    getState: stateOperation({
      summary: "What the home's energy is made of: devices by role and the meters",
      scope: 'service.energy.readonly',
      output: () =>
        z.object({
          consumers: z.number().int(),
          generators: z.number().int(),
          batteries: z.number().int(),
          meters: z.array(z.string()).describe("the devices that measure the whole home (Homey's cumulative)"),
          calculated: z.number().int().describe('devices whose kWh the hub works out from their power'),
        }),
    }),
    getLiveReport: op(
      { method: 'GET', path: '/live', scope: 'service.energy.readonly', summary: 'The power now of a zone (default the home): its zones, devices and meters' },
      () => ({
        query: z.object({ zone: z.string().min(1).max(64).optional() }),
        output: LiveReport(),
      }),
    ),
    getReportDay: op({ method: 'GET', path: '/report/day', scope: 'service.energy.readonly', summary: 'kWh of a day (YYYY-MM-DD), by hour' }, () => ({
      query: z.object({ date: z.string().max(20), cache: Cache() }),
      output: EnergyReport(),
    })),
    getReportWeek: op({ method: 'GET', path: '/report/week', scope: 'service.energy.readonly', summary: 'kWh of an ISO week (YYYY-Www), by day' }, () => ({
      query: z.object({ isoWeek: z.string().max(20), cache: Cache() }),
      output: EnergyReport(),
    })),
    getReportMonth: op({ method: 'GET', path: '/report/month', scope: 'service.energy.readonly', summary: 'kWh of a month (YYYY-MM), by day' }, () => ({
      query: z.object({ yearMonth: z.string().max(20), cache: Cache() }),
      output: EnergyReport(),
    })),
    getReportYear: op({ method: 'GET', path: '/report/year', scope: 'service.energy.readonly', summary: 'kWh of a year (YYYY), by month' }, () => ({
      query: z.object({ year: z.string().max(20), cache: Cache() }),
      output: EnergyReport(),
    })),
    getReportsAvailable: op(
      { method: 'GET', path: '/reports/available', scope: 'service.energy.readonly', summary: 'The first and last day there is energy history for' },
      () => ({ output: z.object({ first: z.string().nullable(), last: z.string().nullable() }) }),
    ),
    getCurrency: op({ method: 'GET', path: '/currency', scope: 'service.energy.readonly', summary: 'The currency of the prices, and its symbol' }, () => ({
      output: z.object({ currency: z.string(), symbol: z.string() }),
    })),
    getElectricityPriceType: op(
      { method: 'GET', path: '/price/electricity/type', scope: 'service.energy.readonly', summary: "'fixed' when a price per kWh is set, else 'disabled'" },
      () => ({ output: z.enum(['fixed', 'disabled']) }),
    ),
    deleteReports: op(
      { method: 'DELETE', path: '/reports', scope: 'service.energy', summary: "Forget the energy history the hub worked out from devices' power", status: 204 },
      () => ({}),
    ),
  },
});
