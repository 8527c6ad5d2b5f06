/** The app.json schema: what it accepts, its defaults, and the sentences for what it refuses. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest, parseManifest } from '../../src/apps/manifest.js';
import { removeAll, tempDir } from './helpers.js';

const base = { id: 'com.example.app', version: '1.2.3', sdk: 3, name: { en: 'Example' } };

describe('manifest', () => {
  it('fills defaults', () => {
    const r = parseManifest(base, 'com.example.app');
    expect(r).toEqual({ ok: true, manifest: { ...base, main: 'app.js', permissions: [], settings: [], widgets: {} } });
  });

  it('accepts settings and widgets of every type', () => {
    const r = parseManifest({
      ...base,
      permissions: ['hearth:manager:insights', 'hearth:manager:insights'],
      settings: [
        { id: 't', type: 'text', label: { en: 'T' }, default: 'x' },
        { id: 'n', type: 'number', label: 'N', min: 0, max: 10 },
        { id: 'c', type: 'checkbox', label: { en: 'C' }, default: true },
        { id: 'd', type: 'dropdown', label: { en: 'D' }, default: 'a', values: [{ id: 'a', label: { en: 'A' } }] },
        { id: 'a', type: 'autocomplete', label: { en: 'A' } },
      ],
      widgets: { clock: { name: { en: 'Clock', nl: 'Klok' }, height: 100, transparent: true, settings: [] } },
    });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.manifest.permissions).toEqual(['hearth:manager:insights']);
      expect(r.manifest.settings.map((s) => s.type)).toEqual(['text', 'number', 'checkbox', 'dropdown', 'autocomplete']);
      expect(r.manifest.widgets.clock?.height).toBe(100);
    }
  });

  it.each([
    [{ id: 'example' }, 'app.json id: must be a reverse-domain id such as com.example.myapp'],
    [{ version: '1.0' }, 'app.json version: must be a semantic version such as 1.0.0'],
    [{ sdk: 2 }, 'app.json sdk: must be 3 (the SDK version this hub runs)'],
    [{ name: { nl: 'Voorbeeld' } }, 'app.json name.en'],
    [{ main: '../escape.js' }, 'app.json main: must be a path inside the app folder'],
    [{ permissions: ['hearth:everything'] }, "unknown permission 'hearth:everything'; known: hearth:manager:insights"],
    [{ settings: [{ id: 'x', type: 'slider', label: 'X' }] }, 'app.json settings.0.type'],
    [{ settings: [{ id: 'x', type: 'text', label: 'X' }, { id: 'x', type: 'text', label: 'Y' }] }, "setting id 'x' is used twice"],
    [{ settings: [{ id: 'd', type: 'dropdown', label: 'D', default: 'z', values: [{ id: 'a', label: 'A' }] }] }, "default 'z' is not one of the values"],
    [{ widgets: { 'bad id': { name: { en: 'W' } } } }, "widget id 'bad id' must be 1-64 letters"],
  ])('refuses %j with a sentence naming the field', (patch, message) => {
    const r = parseManifest({ ...base, ...patch });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });

  it('loads from a folder and reports missing and malformed files', async () => {
    const dir = await tempDir('hearth-manifest-');
    try {
      const app = join(dir, 'com.example.app');
      await mkdir(app);
      expect(await loadManifest(app)).toEqual({ ok: false, message: 'app.json is missing' });
      await writeFile(join(app, 'app.json'), '{ nope');
      const bad = await loadManifest(app);
      expect(bad.ok === false && bad.message.startsWith('app.json is not valid JSON')).toBe(true);
      await writeFile(join(app, 'app.json'), JSON.stringify(base));
      expect((await loadManifest(app)).ok).toBe(true);
    } finally {
      await removeAll(dir);
    }
  });

  it('validates the example apps shipped in apps/', async () => {
    for (const id of ['com.hearth.sysmon', 'com.hearth.greeter']) {
      const r = await loadManifest(join(import.meta.dirname, '../../apps', id));
      expect(r.ok ? 'ok' : r.message).toBe('ok');
    }
  });
});
