/**
 * The arrows docs/architecture.md states are lint errors (biome.json's noRestrictedImports
 * overrides): a file of core that imports a manager, of apps that imports the HTTP layer, of the
 * app process that imports the hub's core, fails `npm run lint`; the same import where the arrow
 * goes down passes. Linted in a folder of its own with the project's rules, so src/ is untouched.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/hub.js';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await tempDir('hearth-arrows-');
  const config = JSON.parse(await readFile(join(ROOT, 'biome.json'), 'utf8')) as Record<string, unknown>;
  delete config.$schema;
  delete config.vcs;
  config.files = { includes: ['src/**'] };
  await writeFile(join(dir, 'biome.json'), JSON.stringify(config));
});

/** Lints one file at `path` (as if in src/) holding `source`; answers the first words of each of the rule's messages. */
async function lint(path: string, source: string): Promise<string[]> {
  const file = join(dir, path);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${source}\n\nexport const used = imported;\n`);
  const out = await run(join(ROOT, 'node_modules/.bin/biome'), ['lint', path], { cwd: dir }).then(
    (r) => r.stdout + r.stderr,
    (err: { stdout: string; stderr: string }) => err.stdout + err.stderr,
  );
  // Each finding is the rule's name, then its message (which the reporter may wrap): its first words.
  return [...out.matchAll(/lint\/style\/noRestrictedImports[^×]*× ([^:(]+)/g)].map((m) => m[1]!.trim());
}

describe('the architecture arrows', () => {
  it('refuse an import that runs up, and let the same import run down', async () => {
    expect(await lint('src/core/up.ts', "import { imported } from '../managers/bus.js';")).toEqual(['core is the framework']);
    expect(await lint('src/core/home.ts', "import { imported } from '../home/capability.js';")).toEqual(['core is the framework']);
    expect(await lint('src/home/up.ts', "import { imported } from '../managers/bus.js';")).toEqual(["home is Homey's model of a home"]);
    expect(await lint('src/apps/host/up.ts', "import { imported } from '../../http/node-adapter.js';")).toEqual([
      'apps/ imports nothing of managers, http, backup or the web app',
    ]);
    expect(await lint('src/homey/managers/up.cts', "import { imported } from '../../core/errors.js';")).toEqual(['the app process takes only apps/wire']);
    expect(await lint('src/apps/child/up.ts', "import { imported } from '../host/runtime.js';")).toEqual(['the app process takes only apps/wire']);
    // Down and sideways: allowed.
    expect(await lint('src/managers/down.ts', "import { imported } from '../core/errors.js';")).toEqual([]);
    expect(await lint('src/managers/home.ts', "import { imported } from '../home/capability.js';")).toEqual([]);
    expect(await lint('src/home/down.ts', "import { imported } from '../core/errors.js';")).toEqual([]);
    expect(await lint('src/homey/managers/down.cts', "import { imported } from '../../apps/wire/protocol.js';")).toEqual([]);
    expect(await lint('src/homey/down.cts', "import { imported } from '../foundation/managers/audio.cjs';")).toEqual([]);
  });
});
