/** The SDK is what the package exports: app authors `import type { Hub } from 'hearth'`. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Hub, HearthApp } from '../../src/sdk/index.js';
import { assertBuilt, ROOT } from './helpers.js';

describe('SDK package', () => {
  it('exports the built SDK module and its type declarations as the package entry', async () => {
    assertBuilt();
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { exports: { '.': { types: string; default: string } } };
    const dts = await readFile(join(ROOT, pkg.exports['.'].types), 'utf8');
    for (const name of ['interface Hub', 'interface HearthApp', 'interface HubSettings', 'interface InsightsLog', 'AutocompleteListener']) {
      expect(dts).toContain(name);
    }
    const sdk = (await import(join(ROOT, pkg.exports['.'].default))) as { PERMISSIONS: Record<string, string> };
    expect(Object.keys(sdk.PERMISSIONS)).toEqual([
      'hearth:manager:insights',
      'hearth:manager:speech-output',
      'hearth:manager:geolocation',
      'hearth:system:sensors',
    ]);
  });

  it('types an app class against the hub handle', () => {
    class Example implements HearthApp {
      async onInit(hub: Hub): Promise<void> {
        const log = await hub.insights.createLog('t', { title: 'T', units: '°C' });
        await log.createEntry(21.5);
        hub.settings.on('set', (key, value) => hub.log(key, value));
      }
    }
    expectTypeOf<Hub['speech']['say']>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf(new Example().onInit).parameter(0).toEqualTypeOf<Hub>();
  });
});
