/**
 * An option listener that throws does not undo or hide a change that is stored and announced:
 * the PUT succeeds, the value is on disk, and the listener's error goes to the hub's log hook.
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOption } from '../../src/core/contract.js';
import { EventBus, type HubEvent } from '../../src/core/events.js';
import { OptionService } from '../../src/core/options.js';
import { Store } from '../../src/core/store.js';
import { tempDir } from '../helpers/hub.js';

const OPTION = defineOption({
  name: 'units',
  schema: z.enum(['metric', 'imperial']),
  default: 'metric',
  scopes: { get: null, set: null, unset: null },
  summary: 'the units',
});

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('option change listeners', () => {
  it('a throwing listener leaves the change stored and announced, and is reported', async () => {
    dir = await tempDir();
    const store = await Store.open(dir);
    const bus = new EventBus();
    const events: HubEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const options = new OptionService(store, bus);
    const reported: Array<{ err: unknown; name: string }> = [];
    options.onListenerError = (err, _manager, name) => reported.push({ err, name });
    options.register('i18n', [OPTION]);
    const after: unknown[] = [];
    options.onChange('i18n', () => {
      throw new Error('listener broke');
    });
    options.onChange('i18n', (_name, value) => void after.push(value));

    await expect(options.set('i18n', 'units', 'imperial')).resolves.toBe('imperial');
    await expect(options.unset('i18n', 'units')).resolves.toBeUndefined();
    await expect(options.set('i18n', 'units', 'imperial')).resolves.toBe('imperial');

    expect(reported.map((r) => [(r.err as Error).message, r.name])).toEqual([
      ['listener broke', 'units'],
      ['listener broke', 'units'],
      ['listener broke', 'units'],
    ]);
    expect(after).toEqual(['imperial', 'metric', 'imperial']);
    expect(events.filter((e) => e.event === 'option.update').map((e) => e.args[0])).toEqual([
      { name: 'units', value: 'imperial' },
      { name: 'units', value: 'metric' },
      { name: 'units', value: 'imperial' },
    ]);
    await store.close();
    const again = await Store.open(dir);
    const reopened = new OptionService(again, new EventBus());
    reopened.register('i18n', [OPTION]);
    expect(reopened.get('i18n', 'units')).toBe('imperial');
    await again.close();
  });
});
