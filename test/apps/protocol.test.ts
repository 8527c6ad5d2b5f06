/**
 * The IPC protocol: the child's dependency-free guard agrees with the zod schema on what the
 * hub sends; the RpcPeer correlates answers and times out; the SDK call router checks
 * permissions, arguments and results.
 */
import { describe, expect, it } from 'vitest';
import { type CallerApp, SdkRouter } from '../../src/apps/host/router.js';
import { HubMessage } from '../../src/apps/wire/protocol.js';
import { answerOf, type CallMessage, isHubMessage, RpcError, RpcPeer } from '../../src/apps/wire/wire.js';
import { HearthError } from '../../src/core/errors.js';

const state = {
  language: 'en',
  units: 'metric',
  strings: { hello: 'Hello' },
  english: { hello: 'Hello' },
  settings: { k: 1 },
  defaults: { name: 'friend' },
  location: null,
  timezone: 'Europe/Amsterdam',
  homeyVersion: '12.3.0',
};
const valid: unknown[] = [
  {
    type: 'call',
    id: 1,
    method: 'init',
    args: {
      app: { id: 'a.b', version: '1.0.0', dir: '/x', main: 'app.js', userdata: '/y' },
      manifest: { id: 'a.b', version: '1.0.0', sdk: 3, name: { en: 'A' }, brandColor: '#000' },
      permissions: ['homey:manager:speech-output'],
      state,
    },
  },
  { type: 'call', id: 2, method: 'gc', args: {} },
  { type: 'call', id: 3, method: 'autocomplete', args: { widgetId: 'w', settingId: 's', query: 'q', settings: {} } },
  { type: 'result', id: 4, result: null },
  { type: 'result', id: 5, result: { a: 1 } },
  { type: 'error', id: 6, error: { code: 'timeout', message: 'late' } },
  { type: 'call', id: 7, method: 'api', args: { widgetId: null, route: 'getThing', params: { id: '1' }, query: {}, body: null } },
  { type: 'event', event: { name: 'settings.set', key: 'k', value: 1 } },
  { type: 'event', event: { name: 'settings.unset', key: 'k' } },
  { type: 'event', event: { name: 'i18n.update', language: 'nl', units: 'imperial', strings: { hello: 'Hallo' }, english: { hello: 'Hello' } } },
  { type: 'event', event: { name: 'geolocation.update', location: { latitude: 52.1, longitude: 5.1 } } },
];
const invalid: unknown[] = [
  null,
  'call',
  [],
  { type: 'nope' },
  { type: 'call', id: -1, method: 'gc', args: {} },
  { type: 'call', id: 1.5, method: 'gc', args: {} },
  { type: 'call', id: 1, method: 7, args: {} },
  { type: 'call', id: 1, method: 'gc', args: null },
  { type: 'result', id: 'x', result: 1 },
  { type: 'result', id: 1 },
  { type: 'error', id: 1, error: { code: 1, message: 'x' } },
  { type: 'error', id: 1, error: 'boom' },
  { type: 'event', event: null },
  { type: 'event', event: { name: 3 } },
];

describe('protocol', () => {
  it('the child guard accepts every message the hub schema accepts', () => {
    for (const m of valid) {
      expect(HubMessage.safeParse(m).success, JSON.stringify(m)).toBe(true);
      expect(isHubMessage(m), JSON.stringify(m)).toBe(true);
    }
  });

  it('the child guard refuses malformed envelopes the hub schema refuses', () => {
    for (const m of invalid) {
      expect(HubMessage.safeParse(m).success, JSON.stringify(m)).toBe(false);
      expect(isHubMessage(m), JSON.stringify(m)).toBe(false);
    }
  });
});

describe('RpcPeer', () => {
  it('correlates answers by id, in any order', async () => {
    const sent: CallMessage[] = [];
    const peer = new RpcPeer((m) => sent.push(m), 1000);
    const a = peer.call('insights.getLog', { id: 'a' });
    const b = peer.call('insights.getLog', { id: 'b' });
    expect(sent.map((m) => m.id)).toEqual([1, 2]);
    peer.settle({ type: 'result', id: 2, result: 'B' });
    peer.settle({ type: 'error', id: 1, error: { code: 'not_found', message: 'no a' } });
    await expect(b).resolves.toBe('B');
    await expect(a).rejects.toMatchObject({ code: 'not_found', message: 'no a' });
    expect(peer.inFlight).toBe(0);
  });

  it('times out a call nobody answers, and drops a late answer', async () => {
    const peer = new RpcPeer(() => undefined, 20);
    const p = peer.call('gc', {});
    await expect(p).rejects.toMatchObject({ code: 'timeout' });
    expect(peer.inFlight).toBe(0);
    // The late answer finds no call: it is dropped (settle says so), not given to a later call with that id.
    expect(peer.settle({ type: 'result', id: 1, result: 1 })).toBe(false);
    const next = peer.call('gc', {});
    expect(peer.settle({ type: 'result', id: 2, result: 'second' })).toBe(true);
    await expect(next).resolves.toBe('second');
  });

  it('fails every outstanding call when the other side goes away', async () => {
    const peer = new RpcPeer(() => undefined, 1000);
    const p = peer.call('ping', {});
    peer.rejectAll('closed', 'the app exited');
    await expect(p).rejects.toMatchObject({ code: 'closed' });
  });

  it('turns thrown errors into wire errors with a code', () => {
    expect(answerOf(3, { ok: false, error: new RpcError('busy', 'slow down') })).toEqual({
      type: 'error',
      id: 3,
      error: { code: 'busy', message: 'slow down' },
    });
    expect(answerOf(4, { ok: false, error: new TypeError('x is not a function') })).toEqual({
      type: 'error',
      id: 4,
      error: { code: 'app_error', message: 'x is not a function' },
    });
    expect(answerOf(5, { ok: true, result: undefined })).toEqual({ type: 'result', id: 5, result: null });
  });
});

describe('SdkRouter', () => {
  const app = (permissions: CallerApp['permissions'] = []): CallerApp => ({ id: 'com.x.y', uri: 'homey:app:com.x.y', version: '1.0.0', permissions });

  it('passes validated arguments and the calling app to the handler', async () => {
    const router = new SdkRouter();
    router.handle('insights.createLog', (caller, args) => ({ id: args.id, uri: caller.uri, title: args.options.title, type: args.options.type }));
    // Insights needs no permission; the log type defaults to number.
    const result = await router.dispatch(app(), 'insights.createLog', { id: 'temp', options: { title: 'T' } });
    expect(result).toEqual({ id: 'temp', uri: 'homey:app:com.x.y', title: 'T', type: 'number' });
  });

  it('refuses a call whose permission is missing before the handler runs', async () => {
    const router = new SdkRouter();
    let ran = false;
    router.handle('speech.say', () => {
      ran = true;
      return null;
    });
    await expect(router.dispatch(app(), 'speech.say', { text: 'hi' })).rejects.toMatchObject({
      code: 'permission_denied',
      message: `speech.say needs the permission 'homey:manager:speech-output'; add it to "permissions" in the app.json of com.x.y`,
    });
    // The old hearth name of the permission opens nothing.
    await expect(router.dispatch(app(['hearth:manager:speech-output']), 'speech.say', { text: 'hi' })).rejects.toMatchObject({ code: 'permission_denied' });
    expect(ran).toBe(false);
    await router.dispatch(app(['homey:manager:speech-output']), 'speech.say', { text: 'hi' });
    expect(ran).toBe(true);
  });

  it('answers not_available for unknown calls and calls nobody serves', async () => {
    const router = new SdkRouter();
    await expect(router.dispatch(app(), 'fs.readFile', {})).rejects.toMatchObject({ code: 'not_available', message: "'fs.readFile' is not an SDK call" });
    // Reads the app answers itself (settings.get, i18n) are no calls to the hub any more.
    await expect(router.dispatch(app(), 'i18n.getLanguage', {})).rejects.toMatchObject({
      code: 'not_available',
      message: "'i18n.getLanguage' is not an SDK call",
    });
    await expect(router.dispatch(app(), 'insights.getLogs', {})).rejects.toMatchObject({
      code: 'not_available',
      message: 'insights.getLogs is not available on this hub: the insights manager does not serve it',
    });
  });

  it('refuses bad arguments with the field named, and checks results', async () => {
    const router = new SdkRouter();
    router.handle('insights.getLog', () => ({ id: 7 }) as unknown as { id: string; uri: string });
    router.handle('speech.say', () => null);
    await expect(router.dispatch(app(['homey:manager:speech-output']), 'speech.say', { text: '' })).rejects.toMatchObject({
      code: 'invalid_args',
      message: expect.stringContaining('speech.say text'),
    });
    await expect(router.dispatch(app(), 'insights.getLog', { id: 'x' })).rejects.toMatchObject({ code: 'invalid_result' });
  });

  it('passes HearthError codes through and refuses double registration', async () => {
    const router = new SdkRouter();
    const off = router.handle('insights.getLog', () => {
      throw new HearthError('not_found', "insights log 'w' does not exist");
    });
    await expect(router.dispatch(app(), 'insights.getLog', { id: 'w' })).rejects.toMatchObject({
      code: 'not_found',
      message: "insights log 'w' does not exist",
    });
    expect(() => router.handle('insights.getLog', () => ({ id: 'x', uri: 'y' }))).toThrow(/registered already/);
    off();
    expect(router.has('insights.getLog')).toBe(false);
  });
});
