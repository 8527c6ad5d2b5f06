/**
 * An app cannot create insights logs without bound: the 101st is refused with a sentence, the
 * first 100 are kept, and deleting one makes room again (a real app child through the SDK).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, homeyApp, removeAll, writeApp } from '../../apps/helpers.js';
import { type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';

const HOARDER = homeyApp(`async onInit() {
  const { insights } = this.homey;
  let refused = null;
  for (let i = 0; i < 500 && !refused; i++) {
    await insights.createLog('log' + i, { title: 'Log ' + i, type: 'number' }).catch((err) => { refused = { at: i, code: err.code, message: err.message }; });
  }
  await insights.deleteLog('log0');
  const again = await insights.createLog('after-delete', { title: 'Again', type: 'number' }).then(() => true, () => false);
  this.homey.settings.set('result', { refused, again, count: (await insights.getLogs()).length });
}`);

let hub: RunningHub;
let appsDir: string;
beforeAll(async () => {
  assertBuilt();
  appsDir = await tempDir('hearth-apps-');
  await writeApp(appsDir, 'com.test.hoarder', { code: HOARDER });
  hub = await startHub({ appsDir });
}, 60_000);
afterAll(async () => {
  await hub?.cleanup();
  await removeAll(appsDir);
});

it('refuses the 101st log of an app with a sentence, and makes room after a delete', async () => {
  const result = await poll(
    async () => (await hub.call<unknown>('GET', '/api/manager/apps/app/com.test.hoarder/setting/result')).body,
    (v) => v !== null && typeof v === 'object' && 'count' in (v as object),
    'the hoarder result',
  );
  expect(result).toEqual({
    refused: {
      at: 100,
      code: 'invalid_parameter',
      message: "'homey:app:com.test.hoarder' has 100 insights logs, the most one owner may; delete one before creating 'log100'",
    },
    again: true,
    count: 100,
  });
  const logs = (await hub.call<Record<string, { uri: string }>>('GET', '/api/manager/insights/log')).body;
  expect(Object.values(logs).filter((l) => l.uri === 'homey:app:com.test.hoarder')).toHaveLength(100);
}, 60_000);
