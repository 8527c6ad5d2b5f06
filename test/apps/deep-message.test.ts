/**
 * An app channel message nested past the JSON depth bound (core/json-depth.ts) stops the app,
 * with the reason in its crash log, as any frame the hub cannot take does; the hub answers on.
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import { type RunningHub, startHub, tempDir } from '../helpers/hub.js';
import { poll } from '../helpers/poll.js';
import { assertBuilt, removeAll, writeApp } from './helpers.js';

const dirs: string[] = [];
let hub: RunningHub | undefined;
beforeAll(assertBuilt);
afterEach(async () => {
  await hub?.cleanup();
  await removeAll(...dirs.splice(0));
});

// Written straight to the channel's descriptor: the SDK's own JSON.stringify could not encode
// it, but nothing stops an app writing bytes. A well-formed call, so only its depth is wrong.
const APP_CODE = `
const { writeSync } = require('node:fs');
const deep = '['.repeat(100000) + ']'.repeat(100000);
const body = Buffer.from('{"type":"call","id":777,"method":"settings.set","args":{"key":"deep","value":' + deep + '}}');
const header = Buffer.alloc(4);
header.writeUInt32BE(body.length);
// The channel may be non-blocking (it is on Node 22): write until every byte is out, as a
// determined app would; a single writeSync can stop part way and leave the frame unfinished.
const frame = Buffer.concat([header, body]);
function writeAll() { for (let at = 0; at < frame.length; ) { try { at += writeSync(3, frame, at); } catch (e) { if (e.code !== 'EAGAIN') throw e; } } }
module.exports = class extends require('homey').App { async onInit() { setTimeout(writeAll, 50); } };
`;

it('stops an app that sends a message nested deeper than 32 levels, naming why', async () => {
  const appsDir = await tempDir('hearth-apps-');
  dirs.push(appsDir);
  await writeApp(appsDir, 'com.test.deep', { code: APP_CODE });
  const h = await startHub({ appsDir });
  hub = h;
  const log = await poll(
    async () => (await h.call<{ stderr: string }>('POST', '/api/manager/apps/app/com.test.deep/crashlog')).body,
    (l) => l.stderr.includes('nested deeper'),
    'the crash log naming the deep message',
    1200,
  );
  expect(log.stderr).toContain('hearth: stopped the app: it sent a message nested deeper than 32 levels');
  expect((await hub.call('GET', '/api/manager/apps/app/com.test.deep/setting/deep')).status).toBe(404);
  expect((await hub.call('GET', '/api/manager/system/ping', { token: null })).status).toBe(200);
}, 120_000);
