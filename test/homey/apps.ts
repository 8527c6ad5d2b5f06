/**
 * Writing Homey apps for the tests: an app folder as the Homey CLI leaves it (app.json with the
 * fields Homey apps ship, the app's files). The app code in these tests follows Homey's public
 * SDK documentation (apps.developer.homey.app), not hearth's sources: if hearth runs them, it
 * runs Homey apps.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface HomeyAppFiles {
  /** Fields over the defaults below (undefined removes a default). */
  json?: Record<string, unknown>;
  /** Relative path -> content (objects are written as JSON). */
  files: Record<string, string | Buffer | object>;
}

/** The fields `homey app create` writes, for an app named after its id. */
export function appJson(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const json: Record<string, unknown> = {
    _comment: 'This file is generated. Please edit .homeycompose/app.json instead.',
    id,
    version: '1.0.0',
    compatibility: '>=12.3.0',
    sdk: 3,
    platforms: ['local'],
    name: { en: id.split('.').pop() },
    description: { en: `The ${id} test app` },
    category: ['tools'],
    permissions: [],
    images: { small: '/assets/images/small.png', large: '/assets/images/large.png', xlarge: '/assets/images/xlarge.png' },
    author: { name: 'Test Author', email: 'author@example.com' },
    brandColor: '#00aaff',
    tags: { en: ['test'] },
    homeyCommunityTopicId: 12345,
    source: 'https://github.com/example/app',
    ...extra,
  };
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete json[k];
  return json;
}

export async function writeHomeyApp(appsDir: string, id: string, app: HomeyAppFiles): Promise<string> {
  const dir = join(appsDir, id);
  await mkdir(dir, { recursive: true });
  const files: Record<string, string | Buffer | object> = { 'app.json': appJson(id, app.json), ...app.files };
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

/** A minimal valid WAV: 8 kHz mono 8-bit, `samples` frames of silence. */
export function silentWav(samples = 800): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples, 40);
  return Buffer.concat([header, Buffer.alloc(samples, 128)]);
}
