/**
 * The hub's event bus typed from the contracts: a listener hears only the manager it listens to,
 * after the every-event listeners (the sockets), and an off stops it; a throwing listener harms
 * no other. And nowhere in src/ is an event's payload, or an app call's arguments, cast: their
 * types come from the contracts and the protocol.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { EventBus, type HubEvent } from '../../src/core/events.js';
import { appEventOf, type HubEventMaps } from '../../src/managers/bus.js';
import { ROOT } from '../helpers/hub.js';

/** A device view cut to what the test reads (a fixture, not an event payload in src/). */
const device = { id: 'd1', name: 'Lamp' } as never;

describe('the typed bus', () => {
  it("delivers a manager's events to its own listeners only, after those of every event, until off", () => {
    const bus = new EventBus<HubEventMaps>();
    const heard: string[] = [];
    bus.subscribe((e: HubEvent) => heard.push(`all ${e.manager} ${e.event}`));
    const off = bus.on('devices', (e) => {
      if (e.event === 'capability.update') {
        // Typed by the event's name: no cast.
        expectTypeOf(e.args[0].capabilityId).toEqualTypeOf<string>();
        heard.push(`devices ${e.args[0].deviceId} ${e.args[0].capabilityId}=${String(e.args[0].value)}`);
      } else heard.push(`devices ${e.event}`);
    });
    bus.on('zones', (e) => heard.push(`zones ${e.event}`));
    bus.publish('devices', 'capability.update', {
      deviceId: 'd1',
      capabilityId: 'onoff',
      value: true,
      transactionId: 't',
      transactionTime: '2026-11-28T00:00:00.000Z',
      by: null,
    });
    bus.publish('devices', 'device.delete', device);
    off();
    bus.publish('devices', 'device.delete', device);
    expect(heard).toEqual([
      'all devices capability.update',
      'devices d1 onoff=true',
      'all devices device.delete',
      'devices device.delete',
      'all devices device.delete',
    ]);
  });

  it('keeps a throwing listener from the others and from the publisher', () => {
    const bus = new EventBus<HubEventMaps>();
    const errors: string[] = [];
    bus.onListenerError = (err) => errors.push((err as Error).message);
    bus.on('logic', () => {
      throw new Error('listener broke');
    });
    let heard = 0;
    bus.on('logic', () => heard++);
    bus.publish('logic', 'variable.delete', { id: 'v', name: 'v', type: 'number', value: 1 });
    expect({ heard, errors }).toEqual({ heard: 1, errors: ['listener broke'] });
  });

  it("reads an app's event as the managers need it", () => {
    const bus = new EventBus<HubEventMaps>();
    const seen: unknown[] = [];
    bus.on('apps', (e) => seen.push(appEventOf(e)));
    const app = { id: 'com.example', state: 'running', version: '1.0.0' };
    bus.publish('apps', 'app.update', app as never, { newValues: {}, oldValues: {}, changedKeys: ['state'] });
    expect(seen).toEqual([{ id: 'com.example', view: app, running: true, deleted: false, gone: false }]);
  });
});

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (/\.(ts|tsx|cts)$/.test(entry.name)) out.push(path);
  }
  return out;
}

describe('event payloads', () => {
  it('are never cast in src/: their types come from the contracts', async () => {
    const casts: string[] = [];
    for (const file of await sources(join(ROOT, 'src'))) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        // `e.args[0] as X`, `(event.args as ...)`: an event's arguments taken as what they are not known to be.
        if (/\b(e|event)\.args(\[\d+\])?\)?\s+as\s/.test(line)) casts.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(casts).toEqual([]);
  });

  it("nor are an app call's arguments: one table of handlers in the app answers every call, checked against the protocol", async () => {
    const casts: string[] = [];
    for (const file of await sources(join(ROOT, 'src'))) {
      const text = await readFile(file, 'utf8');
      for (const m of text.matchAll(/as AppCallArgs<[^>]*>/g)) casts.push(`${relative(ROOT, file)}: ${m[0]}`);
    }
    expect(casts).toEqual([]);
    // The table names every call the protocol has.
    const { APP_CALLS } = await import('../../src/apps/wire/protocol.js');
    const bootstrap = await readFile(join(ROOT, 'src/apps/child/bootstrap.ts'), 'utf8');
    const table = bootstrap.slice(bootstrap.indexOf('const HANDLERS = {'), bootstrap.indexOf('} satisfies AppCallHandlers;'));
    const named = [...table.matchAll(/^ {2}'?([a-z0-9.]+)'?:/gm)].map((m) => m[1]);
    expect(named.sort()).toEqual(Object.keys(APP_CALLS).sort());
  });
});

describe('the apps runtime', () => {
  it('reaches the other managers through their constructors, never attached late or found by duck typing', async () => {
    const late: string[] = [];
    for (const file of await sources(join(ROOT, 'src/managers'))) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        // A method that hands a manager its runtime or router after it was made, or a peer probed for one.
        if (/^\s+(attach\w*|serveSdk|appsLoaded)\(\w+[:)]|typeof \w+\.\w+ === 'function'/.test(line))
          late.push(`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(late).toEqual([]);
  });
});
