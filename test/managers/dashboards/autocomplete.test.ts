/**
 * getAppWidgetAutocomplete answered by the fixture app's listeners in a real child process:
 * results and their cap, every error the operation promises (404/400/409/502/504), a slow app
 * that does not hold up the hub, and the app crashing with the request in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, CLOCK, type ErrorBody, NOTE, poll, startWithApp, type TestHub, waitAppRunning } from './helpers.js';

let t: TestHub;

beforeAll(async () => {
  t = await startWithApp();
});
afterAll(() => t?.close());

type Item = { id: string | number; name: string; description?: string };

function ask(widget: string, query: Record<string, string>) {
  const qs = new URLSearchParams(query).toString();
  return t.hub.call<Item[] & ErrorBody>('GET', `${BASE}/appwidget/${widget}/autocomplete?${qs}`);
}

describe('getAppWidgetAutocomplete', () => {
  it("answers with the app listener's results for the query and the widget settings", async () => {
    const r = await ask(CLOCK, { settingId: 'city', query: 'p', settings: JSON.stringify({ units: 'metric' }) });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { id: 0, name: 'Paris', description: 'units=metric' },
      { id: 1, name: 'Prague', description: 'units=metric' },
      { id: 2, name: 'Porto', description: 'units=metric' },
    ]);
    const all = await ask(CLOCK, { settingId: 'city', query: '' });
    expect(all.body.map((x) => x.name)).toEqual(['Amsterdam', 'Berlin', 'Paris', 'Prague', 'Porto', 'Rome']);
    expect(all.body[0]!.description).toBe('units=none');
    const nullSettings = await ask(CLOCK, { settingId: 'city', query: 'r', settings: 'null' });
    expect(nullSettings.body).toEqual([{ id: 0, name: 'Rome', description: 'units=none' }]);
  });

  it('caps the results at 100', async () => {
    const r = await ask(CLOCK, { settingId: 'many', query: '' });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(100);
    expect(r.body[99]).toEqual({ id: 'c99', name: 'City 99' });
  });

  it('refuses bad input with 400 and an unknown widget with 404', async () => {
    const cases: Array<[string, Record<string, string>, number, RegExp]> = [
      [CLOCK, { query: 'p' }, 400, /'settingId' is required/],
      [CLOCK, { settingId: 'city' }, 400, /'query' is required/],
      [CLOCK, { settingId: 'city', query: 'p', settings: '{not json' }, 400, /JSON-encoded object/],
      [CLOCK, { settingId: 'city', query: 'p', settings: '[1,2]' }, 400, /not an array/],
      [CLOCK, { settingId: 'nope', query: 'p' }, 400, /has no setting 'nope'; its settings: city, slow/],
      [CLOCK, { settingId: 'seconds', query: 'p' }, 400, /of type 'checkbox', not autocomplete/],
      [NOTE, { settingId: 'city', query: 'p' }, 400, /has no setting 'city'/],
      ['com.test.widgets:nope', { settingId: 'city', query: 'p' }, 404, /app widget 'com\.test\.widgets:nope' does not exist/],
      ['com.nobody.here:clock', { settingId: 'city', query: 'p' }, 404, /does not exist/],
    ];
    for (const [widget, query, status, message] of cases) {
      const r = await ask(widget, query);
      expect({ widget, query, status: r.status }).toEqual({ widget, query, status });
      expect(r.body.error_description).toMatch(message);
    }
  });

  it('answers 404 when the app registered no listener for the setting', async () => {
    const r = await ask(CLOCK, { settingId: 'unheard', query: 'x' });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: 'not_found', statusCode: 404 });
    expect(r.body.error_description).toMatch(/no autocomplete listener for widget 'clock' setting 'unheard'/);
  });

  it("answers 502 with the listener's message when it throws", async () => {
    const r = await ask(CLOCK, { settingId: 'broken', query: 'x' });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ error: 'bad_gateway', statusCode: 502 });
    expect(r.body.error_description).toContain('the city service is down');
  });

  it('answers 502 when the listener answers something that is not a list of {id, name}', async () => {
    const r = await ask(CLOCK, { settingId: 'malformed', query: 'x' });
    expect(r.status).toBe(502);
    expect(r.body.error).toBe('bad_gateway');
    expect(r.body.error_description).toMatch(/malformed result/);
  });

  it('answers 504 when the listener does not answer within 5 s, and the hub serves others meanwhile', async () => {
    const order: string[] = [];
    const slow = ask(CLOCK, { settingId: 'slow', query: 'x' }).then((r) => {
      order.push('slow');
      return r;
    });
    // While the app sits on the slow request: other requests, including another autocomplete
    // to the same app, are answered.
    const quick = await ask(CLOCK, { settingId: 'city', query: 'r' });
    const list = await t.hub.call('GET', `${BASE}/appwidget`);
    order.push('others');
    expect(quick.body.map((x) => x.name)).toEqual(['Rome']);
    expect(list.status).toBe(200);
    const r = await slow;
    expect(order).toEqual(['others', 'slow']);
    expect(r.status).toBe(504);
    expect(r.body).toMatchObject({ error: 'timeout', statusCode: 504 });
    // The app is still fine afterwards.
    expect((await ask(CLOCK, { settingId: 'city', query: 'b' })).body.map((x) => x.name)).toEqual(['Berlin']);
  }, 20_000);

  it('answers 503 past 32 requests waiting on one app, and frees the slots when they time out', async () => {
    const asked = Array.from({ length: 40 }, () => ask(CLOCK, { settingId: 'slow', query: 'x' }));
    expect((await t.hub.call('GET', `${BASE}/appwidget/${CLOCK}`)).status).toBe(200);
    const answers = await Promise.all(asked);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(32).fill(504), ...Array(8).fill(503)].sort());
    const refused = answers.find((r) => r.status === 503)!;
    expect(refused.body.error).toBe('unavailable');
    expect(refused.body.error_description).toMatch(/has 32 autocomplete requests waiting/);
    expect((await ask(CLOCK, { settingId: 'city', query: 'ber' })).body.map((x) => x.name)).toEqual(['Berlin']);
  }, 30_000);

  it('answers 409 while the app is not running', async () => {
    expect((await t.hub.call('PUT', '/api/manager/apps/app/com.test.widgets/disable')).status).toBe(200);
    try {
      const r = await ask(CLOCK, { settingId: 'city', query: 'p' });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ error: 'conflict' });
      expect(r.body.error_description).toMatch(/app 'com\.test\.widgets' is not running/);
    } finally {
      expect((await t.hub.call('PUT', '/api/manager/apps/app/com.test.widgets/enable')).status).toBe(200);
      await waitAppRunning(t.hub, 'com.test.widgets');
    }
    expect((await ask(CLOCK, { settingId: 'city', query: 'a' })).body.map((x) => x.name)).toEqual(['Amsterdam']);
  });

  it('answers 502 when the app dies with the request in flight, and the app comes back', async () => {
    const r = await ask(CLOCK, { settingId: 'crash', query: 'x' });
    expect(r.status).toBe(502);
    expect(r.body.error).toBe('bad_gateway');
    expect(r.body.error_description).toMatch(/exited/);
    const app = await poll(
      () => t.hub.call<{ exitCount: number }>('GET', '/api/manager/apps/app/com.test.widgets'),
      (res) => res.body.exitCount >= 1,
      'the exit recorded',
    );
    expect(app.body.exitCount).toBe(1);
    // The supervisor restarts it; autocomplete works again once it runs.
    await waitAppRunning(t.hub, 'com.test.widgets');
    expect((await ask(CLOCK, { settingId: 'city', query: 'pa' })).body.map((x) => x.name)).toEqual(['Paris']);
  }, 30_000);
});
