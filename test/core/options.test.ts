/**
 * Every geolocation, i18n and google-assistant operation: round trip, domain validation with a
 * 400 naming the problem, the default back after DELETE, persistence across a restart, and state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub } from '../helpers/hub.js';

interface OptionCase {
  manager: string;
  name: string;
  default: unknown;
  valid: unknown[];
  invalid: Array<{ value: unknown; mentions: string }>;
}

const CASES: OptionCase[] = [
  {
    manager: 'geolocation',
    name: 'location',
    default: null,
    valid: [
      { latitude: 52.09, longitude: 5.12 },
      { latitude: -90, longitude: 180, accuracy: 25 },
    ],
    invalid: [
      { value: { latitude: 91, longitude: 5 }, mentions: 'latitude must be between -90 and 90' },
      { value: { latitude: 10, longitude: -181 }, mentions: 'longitude must be between -180 and 180' },
      { value: { latitude: '52', longitude: 5 }, mentions: 'latitude must be a number' },
      { value: { latitude: 10 }, mentions: "'value.longitude' is required" },
      { value: { latitude: 1, longitude: 1, altitude: 3 }, mentions: "'value.altitude' is not allowed" },
      { value: 'Utrecht', mentions: "'value'" },
    ],
  },
  {
    manager: 'geolocation',
    name: 'address',
    default: null,
    valid: [{ street: 'Oudegracht 1', city: 'Utrecht', country: 'NL' }],
    invalid: [
      { value: { city: 42 }, mentions: "'value.city'" },
      { value: ['Utrecht'], mentions: 'address must be an object of strings' },
    ],
  },
  {
    manager: 'i18n',
    name: 'language',
    default: 'en',
    valid: ['nl', 'de'],
    invalid: [
      { value: 'xx', mentions: "unknown language 'xx'; supported: en, nl" },
      { value: 7, mentions: 'language must be a string' },
    ],
  },
  {
    manager: 'i18n',
    name: 'units',
    default: 'metric',
    valid: ['imperial', 'metric'],
    invalid: [{ value: 'kelvin', mentions: 'units must be "metric" or "imperial"' }],
  },
  {
    manager: 'google-assistant',
    name: 'pinCode',
    default: null,
    valid: ['1234', '00001111'],
    invalid: [
      { value: '123', mentions: 'pinCode must be 4 to 8 digits' },
      { value: '123456789', mentions: 'pinCode must be 4 to 8 digits' },
      { value: '12a4', mentions: 'pinCode must be 4 to 8 digits' },
      { value: 1234, mentions: 'pinCode must be a string' },
    ],
  },
];

let hub: RunningHub;
beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.cleanup());

for (const c of CASES) {
  const path = `/api/manager/${c.manager}/option/${c.name}`;
  describe(`${c.manager} option ${c.name}`, () => {
    it('reads the default before anything is set', async () => {
      const res = await hub.call('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ value: c.default });
    });

    it('round-trips valid values (with and without a trailing slash)', async () => {
      for (const value of c.valid) {
        const put = await hub.call('PUT', `${path}/`, { body: { value } });
        expect(put.status).toBe(200);
        expect(put.body).toEqual({ value });
        expect((await hub.call('GET', path)).body).toEqual({ value });
      }
    });

    it('refuses invalid values with a 400 naming the problem, and keeps the old value', async () => {
      const before = (await hub.call('GET', path)).body;
      for (const bad of c.invalid) {
        const res = await hub.call<{ error: string; error_description: string; statusCode: number }>('PUT', path, { body: { value: bad.value } });
        expect(res.status, JSON.stringify(bad.value)).toBe(400);
        expect(res.body.error).toBe('invalid_parameter');
        expect(res.body.statusCode).toBe(400);
        expect(res.body.error_description).toContain(bad.mentions);
      }
      expect((await hub.call('GET', path)).body).toEqual(before);
    });

    it('refuses a body without value, and unknown fields', async () => {
      const missing = await hub.call<{ error_description: string }>('PUT', path, { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.error_description).toBe("body field 'value' is required");
      const extra = await hub.call<{ error_description: string }>('PUT', path, { body: { value: c.valid[0], other: 1 } });
      expect(extra.status).toBe(400);
      expect(extra.body.error_description).toContain("'other' is not allowed");
    });

    it('restores the default on DELETE with 204', async () => {
      await hub.call('PUT', path, { body: { value: c.valid[0] } });
      const del = await hub.call('DELETE', path);
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expect((await hub.call('GET', path)).body).toEqual({ value: c.default });
      expect((await hub.call('DELETE', path)).status).toBe(204);
    });
  });
}

describe('state', () => {
  it('i18n state lists language, units and the supported languages', async () => {
    await hub.call('PUT', '/api/manager/i18n/option/language', { body: { value: 'nl' } });
    const res = await hub.call<{ language: string; units: string; languages: Record<string, string> }>('GET', '/api/manager/i18n/state');
    expect(res.status).toBe(200);
    expect(res.body.language).toBe('nl');
    expect(res.body.units).toBe('metric');
    expect(res.body.languages.nl).toBe('Nederlands');
    expect(Object.keys(res.body.languages)).toContain('en');
  });

  it('geolocation state says what is set', async () => {
    await hub.call('DELETE', '/api/manager/geolocation/option/address');
    await hub.call('PUT', '/api/manager/geolocation/option/location', { body: { value: { latitude: 1, longitude: 2 } } });
    const res = await hub.call('GET', '/api/manager/geolocation/state');
    expect(res.body).toEqual({ location: { latitude: 1, longitude: 2 }, address: null, locationSet: true, addressSet: false });
  });

  it('google-assistant state says whether a PIN is set, never the PIN', async () => {
    await hub.call('PUT', '/api/manager/google-assistant/option/pinCode', { body: { value: '482916' } });
    const res = await hub.call('GET', '/api/manager/google-assistant/state');
    expect(res.body).toEqual({ pinCodeSet: true });
    expect(res.text).not.toContain('482916');
    await hub.call('DELETE', '/api/manager/google-assistant/option/pinCode');
    expect((await hub.call('GET', '/api/manager/google-assistant/state')).body).toEqual({ pinCodeSet: false });
  });
});

describe('persistence', () => {
  it('keeps options across a restart and never logs the PIN', async () => {
    const first = await startHub();
    try {
      await first.call('PUT', '/api/manager/i18n/option/units', { body: { value: 'imperial' } });
      await first.call('PUT', '/api/manager/google-assistant/option/pinCode', { body: { value: '73519' } });
      expect(await first.stop()).toBe(0);
      const second = await startHub({ dataDir: first.dataDir, appsDir: first.appsDir });
      try {
        expect((await second.call('GET', '/api/manager/i18n/option/units')).body).toEqual({ value: 'imperial' });
        expect((await second.call('GET', '/api/manager/google-assistant/option/pinCode')).body).toEqual({ value: '73519' });
      } finally {
        await second.kill();
      }
      expect([...first.output].join('\n')).not.toContain('73519');
    } finally {
      await first.cleanup();
    }
  });
});
