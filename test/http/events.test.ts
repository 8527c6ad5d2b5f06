/**
 * Events over WebSocket: option.update delivered only to tokens with the manager's read scope,
 * the PIN never sent, `?token=` for browsers, revoked tokens dropped, big frames refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvents } from '../helpers/events.js';
import { OWNER, type RunningHub, startHub } from '../helpers/hub.js';
import { pause } from '../helpers/poll.js';

let hub: RunningHub;
async function token(scopes: string[]): Promise<{ id: string; token: string }> {
  const res = await hub.call<{ id: string; token: string }>('POST', '/api/manager/tokens/token', { body: { name: 't', scopes } });
  return res.body;
}

beforeAll(async () => {
  hub = await startHub();
});
afterAll(() => hub.cleanup());

describe('event namespaces', () => {
  it('delivers option.update {name, value} to a token with the read scope', async () => {
    const reader = await token(['service.system.readonly']);
    const client = await openEvents(hub.wsUrl, 'i18n', reader.token);
    await hub.call('PUT', '/api/manager/i18n/option/language', { body: { value: 'de' } });
    const frame = await client.next((f) => f.event === 'option.update');
    expect(frame).toEqual({ event: 'option.update', args: [{ name: 'language', value: 'de' }] });
    await hub.call('DELETE', '/api/manager/i18n/option/language');
    const reset = await client.next((f) => f.event === 'option.update' && (f.args[0] as { value: string }).value === 'en');
    expect(reset.args).toEqual([{ name: 'language', value: 'en' }]);
    client.close();
  });

  it('refuses the upgrade for a token without the read scope, and without a token', async () => {
    const other = await token(['service.speech']);
    await expect(openEvents(hub.wsUrl, 'i18n', other.token)).rejects.toThrow('upgrade refused: 403');
    await expect(openEvents(hub.wsUrl, 'geolocation', other.token)).rejects.toThrow('upgrade refused: 403');
    await expect(openEvents(hub.wsUrl, 'i18n', null)).rejects.toThrow('upgrade refused: 401');
    await expect(openEvents(hub.wsUrl, 'i18n', 'hth_wrong')).rejects.toThrow('upgrade refused: 401');
  });

  it('sends a namespace only its own events', async () => {
    const geo = await openEvents(hub.wsUrl, 'geolocation', OWNER);
    const i18n = await openEvents(hub.wsUrl, 'i18n', OWNER);
    await hub.call('PUT', '/api/manager/i18n/option/units', { body: { value: 'imperial' } });
    await hub.call('PUT', '/api/manager/geolocation/option/location', { body: { value: { latitude: 3, longitude: 4 } } });
    const g = await geo.next((f) => f.event === 'option.update');
    expect(g.args).toEqual([{ name: 'location', value: { latitude: 3, longitude: 4 } }]);
    await i18n.next((f) => (f.args[0] as { name: string }).name === 'units');
    expect(geo.frames.every((f) => (f.args[0] as { name: string }).name === 'location')).toBe(true);
    expect(i18n.frames.every((f) => (f.args[0] as { name: string }).name === 'units')).toBe(true);
    geo.close();
    i18n.close();
  });

  it('accepts ?token= for browsers', async () => {
    const client = await openEvents(hub.wsUrl, 'geolocation', OWNER, 'query');
    await hub.call('DELETE', '/api/manager/geolocation/option/address');
    expect((await client.next((f) => f.event === 'option.update')).args).toEqual([{ name: 'address', value: null }]);
    client.close();
  });

  it('never carries the PIN', async () => {
    const client = await openEvents(hub.wsUrl, 'google-assistant', OWNER);
    await hub.call('PUT', '/api/manager/google-assistant/option/pinCode', { body: { value: '918273' } });
    const frame = await client.next((f) => f.event === 'option.update');
    expect(frame.args).toEqual([{ name: 'pinCode', set: true }]);
    expect(JSON.stringify(client.frames)).not.toContain('918273');
    client.close();
  });

  it('closes the sockets of a token when it is revoked', async () => {
    const reader = await token(['service.system.readonly']);
    const client = await openEvents(hub.wsUrl, 'i18n', reader.token);
    const closed = new Promise<number>((r) => client.socket.once('close', (code) => r(code)));
    await hub.call('DELETE', `/api/manager/tokens/token/${reader.id}`);
    expect(await closed).toBe(1008);
  });

  it('drops a client that sends a frame over the small limit', async () => {
    const client = await openEvents(hub.wsUrl, 'i18n', OWNER);
    const closed = new Promise<number>((r) => client.socket.once('close', (code) => r(code)));
    client.socket.send('x'.repeat(64 * 1024));
    expect(await closed).toBe(1009);
    // ws reports the frame as an error on the hub's socket first: heard, not the end of the hub.
    await pause(100, "the hub has heard the frame's error on its socket by now");
    expect((await hub.call('GET', '/api/manager/i18n/option/language')).status).toBe(200);
  });

  it('holds at most 64 sockets a token: the next is closed with 1013 and why, and a freed place is taken again', async () => {
    const reader = await token(['service.system.readonly']);
    const open = await Promise.all(Array.from({ length: 64 }, () => openEvents(hub.wsUrl, 'i18n', reader.token)));
    const extra = await openEvents(hub.wsUrl, 'i18n', reader.token);
    const [code, reason] = await new Promise<[number, string]>((r) => extra.socket.once('close', (c, why) => r([c, String(why)])));
    expect(code).toBe(1013);
    expect(reason).toBe('this token holds 64 event sockets, its most; close some first');
    // The 64 still get their events; another token is not held by this one's cap.
    const other = await openEvents(hub.wsUrl, 'i18n', OWNER);
    await hub.call('PUT', '/api/manager/i18n/option/units', { body: { value: 'imperial' } });
    await open[63]!.next((f) => f.event === 'option.update');
    await other.next((f) => f.event === 'option.update');
    // One closed: its place is free again.
    const gone = new Promise((r) => open[0]!.socket.once('close', r));
    open[0]!.close();
    await gone;
    const again = await openEvents(hub.wsUrl, 'i18n', reader.token);
    await hub.call('DELETE', '/api/manager/i18n/option/units');
    expect((await again.next((f) => f.event === 'option.update')).args[0]).toMatchObject({ name: 'units' });
    for (const c of [...open.slice(1), other, again]) c.close();
  });

  it('answers a plain GET of a namespace with a JSON error, not an upgrade', async () => {
    const res = await hub.call<{ error_description: string }>('GET', '/api/manager/i18n');
    expect(res.status).toBe(400);
    expect(res.body.error_description).toContain('WebSocket');
  });
});
