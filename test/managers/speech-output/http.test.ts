/**
 * speech-output over HTTP and WebSocket against a real hub process (dist/): voices, catalogue,
 * options, say (spoken into a WAV folder, or synthesized), samples, errors, and the 503 path
 * of a hub without a speech engine. Session replacement and timeouts use a fake sound card.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventClient, openEvents } from '../../helpers/events.js';
import { OWNER, type RunningHub, startHub } from '../../helpers/hub.js';
import { pause, waitUntil } from '../../helpers/poll.js';
import { fakeCardPath, soxi, tempDir } from './tools.js';

const API = '/api/manager/speech-output';
interface ErrorBody {
  error: string;
  error_description: string;
  statusCode: number;
}

let hub: RunningHub;
let out: string;
let events: EventClient;

beforeAll(async () => {
  out = await tempDir('http-out');
  hub = await startHub({ args: ['--audio-out', out, '--speech-engine', 'auto'] });
  events = await openEvents(hub.wsUrl, 'speech-output', OWNER);
});
afterAll(async () => {
  events?.close();
  await hub?.cleanup();
});

const wavFiles = async (dir: string): Promise<string[]> => (await readdir(dir)).filter((n) => n.endsWith('.wav')).sort();

describe('voices', () => {
  it('lists the catalogue (extension, service.system)', async () => {
    const res = await hub.call<Record<string, { id: string; locale: string }>>('GET', `${API}/catalog`);
    expect(res.status).toBe(200);
    expect(res.body['en-us']).toMatchObject({ id: 'en-us', locale: 'en-US' });
    expect(Object.keys(res.body).length).toBeGreaterThan(100);
  });

  it('has the English voice installed on first start, with and without a trailing slash', async () => {
    for (const path of [`${API}/voice/`, `${API}/voice`]) {
      const res = await hub.call<Record<string, unknown>>('GET', path);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toContain('en-gb');
    }
  });

  it('installs, reads, selects and uninstalls a voice, with events', async () => {
    const installed = await hub.call('POST', `${API}/voice`, { body: { id: 'nl' } });
    expect(installed.status).toBe(200);
    expect(installed.body).toEqual({ id: 'nl', name: 'Dutch', language: 'nl', locale: 'nl', gender: 'male' });
    const created = await events.next((f) => f.event === 'voice.create' && (f.args[0] as { id: string }).id === 'nl');
    expect(created.args[0]).toEqual(installed.body);

    expect((await hub.call('GET', `${API}/voice/nl`)).body).toEqual(installed.body);
    expect((await hub.call('PUT', `${API}/option/voice`, { body: { value: 'nl' } })).body).toEqual({ value: 'nl' });
    const spoken = await hub.call<{ voice: string }>('POST', `${API}/say`, { body: { text: 'Goedemorgen' } });
    expect(spoken.body.voice).toBe('nl');

    const removed = await hub.call('DELETE', `${API}/voice/nl`);
    expect(removed.status).toBe(204);
    await events.next((f) => f.event === 'voice.delete' && (f.args[0] as { id: string }).id === 'nl');
    expect((await hub.call('GET', `${API}/option/voice`)).body).toEqual({ value: null });
    expect((await hub.call('GET', `${API}/voice/nl`)).status).toBe(404);
  });

  it('answers 404 for voices the engine does not offer or that are not installed', async () => {
    const res = await hub.call<ErrorBody>('POST', `${API}/voice`, { body: { id: 'xx-nope' } });
    expect(res.status).toBe(404);
    expect(res.body.error_description).toContain('/catalog');
    expect((await hub.call('DELETE', `${API}/voice/xx-nope`)).status).toBe(404);
    expect((await hub.call('POST', `${API}/voice/xx-nope/sample`)).status).toBe(404);
  });

  it('plays a sample in a catalogue voice', async () => {
    const before = (await wavFiles(out)).length;
    const res = await hub.call<{ voice: string; durationMs: number }>('POST', `${API}/voice/de/sample`);
    expect(res.status).toBe(200);
    expect(res.body.voice).toBe('de');
    expect(res.body.durationMs).toBeGreaterThan(500);
    expect((await wavFiles(out)).length).toBe(before + 1);
  });
});

describe('options', () => {
  it('validates speed and voice by domain', async () => {
    expect((await hub.call('GET', `${API}/option/speed`)).body).toEqual({ value: 'normal' });
    expect((await hub.call('PUT', `${API}/option/speed`, { body: { value: '1.5' } })).body).toEqual({ value: '1.5' });
    const badSpeed = await hub.call<ErrorBody>('PUT', `${API}/option/speed`, { body: { value: '3' } });
    expect(badSpeed.status).toBe(400);
    expect(badSpeed.body.error_description).toContain('0.5');
    const badVoice = await hub.call<ErrorBody>('PUT', `${API}/option/voice`, { body: { value: 'fr-fr' } });
    expect(badVoice.status).toBe(400);
    expect(badVoice.body.error_description).toContain("voice 'fr-fr' is not installed");
    expect((await hub.call('DELETE', `${API}/option/speed`)).status).toBe(204);
  });
});

describe('say', () => {
  it('speaks into the folder and answers once spoken', async () => {
    const before = await wavFiles(out);
    const res = await hub.call<{ voice: string; durationMs: number }>('POST', `${API}/say`, {
      body: { text: 'The front door has been open for ten minutes.' },
    });
    expect(res.status).toBe(200);
    expect(res.body.voice).toBe('en-gb');
    const added = (await wavFiles(out)).filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    const info = soxi(join(out, added[0]!));
    expect(info.rate).toBe(22050);
    expect(Math.abs(info.seconds * 1000 - res.body.durationMs)).toBeLessThan(20);
  });

  it('answers audio/wav for synthesize and plays nothing', async () => {
    const before = (await wavFiles(out)).length;
    const res = await fetch(`${hub.url}${API}/say`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OWNER}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Dinner is ready', synthesize: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.readUInt32LE(24)).toBe(22050);
    expect((await wavFiles(out)).length).toBe(before);
  });

  it('refuses bad input with 400', async () => {
    for (const body of [
      {},
      { text: '' },
      { text: 'x'.repeat(1001) },
      { text: 'hi', timeout: 0 },
      { text: 'hi', timeout: 601 },
      { text: 'hi', synthesize: 'yes' },
      { text: '\u0000' },
      { text: '\u0001\u0007 \u001b' },
    ]) {
      const res = await hub.call<ErrorBody>('POST', `${API}/say`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('invalid_parameter');
    }
  });
});

describe('queue over HTTP with a sound card', () => {
  let cardHub: RunningHub;
  let card: string;

  beforeAll(async () => {
    card = await tempDir('http-card');
    const path = await fakeCardPath(await tempDir('http-card-bin'), card);
    cardHub = await startHub({ args: ['--audio-out', 'default'], env: { PATH: path } });
  });
  afterAll(() => cardHub?.cleanup());

  it('replaces a waiting utterance of the same session (409) and times out (504)', async () => {
    const say = (body: object) => cardHub.call<ErrorBody & { voice: string }>('POST', `${API}/say`, { body });
    const busy = say({ text: 'This first announcement keeps the sound card busy for quite a while, several seconds.' });
    // Requests on separate connections can overtake each other: send each once the last is queued.
    await waitUntil(async () => (await readdir(card)).length > 0, 'the first utterance on the card');
    const replaced = say({ text: 'old news', session: 'news' });
    // No operation shows the queue: a second (of the first utterance's several) lets the request
    // arrive on a loaded machine, where 300 ms was not always enough.
    await pause(1000, 'the replaced utterance queued before the fresh one is sent');
    const fresh = say({ text: 'fresh news', session: 'news' });
    const late = say({ text: 'I will never make it in one second', timeout: 1 });
    const [r1, r2, r3, r4] = await Promise.all([busy, replaced, late, fresh]);
    expect(r1.status).toBe(200);
    expect(r2.status).toBe(409);
    expect(r2.body).toMatchObject({ error: 'conflict', error_description: "replaced by a newer utterance in session 'news'" });
    expect(r3.status).toBe(504);
    expect(r3.body.error).toBe('timeout');
    expect(r4.status).toBe(200);
    expect((await readdir(card)).filter((n) => n.endsWith('.wav'))).toHaveLength(2);
  });
});

describe('a hub without a speech engine', () => {
  let bare: RunningHub;
  beforeAll(async () => {
    bare = await startHub({ args: ['--speech-engine', 'none'] });
  });
  afterAll(() => bare?.cleanup());

  it('starts, and speech operations answer 503 saying what to do', async () => {
    for (const [method, path, body] of [
      ['POST', `${API}/say`, { text: 'hello' }],
      ['GET', `${API}/catalog`, undefined],
      ['POST', `${API}/voice`, { id: 'en-us' }],
      ['POST', `${API}/voice/en-us/sample`, undefined],
    ] as const) {
      const res = await bare.call<ErrorBody>(method, path, body ? { body } : {});
      expect(res.status, path).toBe(503);
      expect(res.body.error).toBe('unavailable');
      expect(res.body.error_description).toContain('--speech-engine');
    }
    expect((await bare.call('GET', '/api/manager/system/ping', { token: null })).status).toBe(200);
  });
});
