/**
 * The data filesystem's free-space floor (issue 22, finding 2): below it, an app that goes on
 * writing is stopped and held with the cause in its crash log, however small its own quota use,
 * so apps together cannot fill the disk the store and the backups live on. The floor is set above
 * this machine's free space, so the real statfs of the data dir is below it.
 */
import { statfs } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { pause, poll } from '../../helpers/poll.js';
import { writeHomeyApp } from '../../homey/apps.js';

interface App {
  state: string;
  crashed: boolean;
  crashedMessage: string | null;
}

let hub: RunningHub;

beforeAll(async () => {
  const appsDir = await tempDir('hearth-floor-apps-');
  await writeHomeyApp(appsDir, 'com.test.writer', {
    json: { api: { write: { method: 'POST', path: '/write' } } },
    files: {
      'app.js': `'use strict';
const Homey = require('homey');
module.exports = class Writer extends Homey.App { async onInit() {} };
`,
      'api.js': `'use strict';
const fs = require('node:fs');
const path = require('node:path');
module.exports = {
  async write({ homey }) {
    fs.appendFileSync(path.join(homey.tmpdir, 'log'), Buffer.alloc(256 * 1024, 1));
    return { ok: true };
  },
};
`,
    },
  });
  const fs = await statfs(appsDir);
  const freeMb = Math.ceil((fs.bavail * fs.bsize) / 1024 ** 2);
  hub = await startHub({ appsDir, args: ['--app-sandbox', 'auto', '--app-disk-floor-mb', String(freeMb + 1024)] });
  await poll(
    () => hub.call<App>('GET', '/api/manager/apps/app/com.test.writer').then((r) => r.body),
    (a) => a.state === 'running',
    'the writer running',
  );
}, 60_000);

afterAll(() => hub?.cleanup());

describe('the free-space floor of the data filesystem', { timeout: 60_000 }, () => {
  it('stops and holds an app that goes on writing below it, with the cause', async () => {
    // Written a little at a time: well within its 64 MiB quota.
    const stopped = await poll(
      async () => {
        await hub.call('POST', '/api/app/com.test.writer/write', { body: {} });
        return (await hub.call<App>('GET', '/api/manager/apps/app/com.test.writer')).body;
      },
      (a) => a.state === 'stopped' && a.crashed,
      'the writer to be stopped',
      1200,
    );
    expect(stopped.crashedMessage).toMatch(
      /the data disk has \d+ MiB free, below the floor of \d+ MiB the hub keeps for its own data, and the app went on writing \(its userdata grew to \d+ MiB\)/,
    );
    await pause(1500, 'longer than a restart backoff: held, not restarted into the same full disk');
    expect((await hub.call<App>('GET', '/api/manager/apps/app/com.test.writer')).body.state).toBe('stopped');
    expect((await hub.call('GET', '/api/manager/system/ping')).status).toBe(200);
  });
});
