/**
 * Entry point of an app's child process (started by the supervisor under Node's permission
 * model, with the hub's channel on file descriptor 3: see frames.ts). Says hello, waits for
 * `init`, builds the app's Homey instance (the SDK in src/homey, the same module the app gets
 * from `require('homey')`), loads the app's main module, constructs its Homey.App class and runs
 * onInit, then answers the hub's calls (uninit, gc, autocomplete, api, ping) until told to stop.
 * Exits on its own when the hub is gone, so an app never outlives the hub.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { join } from 'node:path';
import type { App as HomeyApp } from '../../homey/app.cjs';
import type { HomeyContext } from '../../homey/context.cjs';
import type { Homey } from '../../homey/homey.cjs';
import { CHANNEL_FD, encodeFrame, FrameDecoder, MAX_APP_FRAME_BYTES, MAX_HUB_FRAME_BYTES } from '../wire/frames.js';
import type { AppCallArgs, AppCallHandlers, AppCallMethod, HubMessage } from '../wire/protocol.js';
import { answerOf, type CallMessage, isHubMessage, PROTOCOL_VERSION, RpcError, RpcPeer } from '../wire/wire.js';
import { loadAppClass, NotAnApp } from './app-class.js';
import { allowFdSync } from './fd-sync.js';
import { resolveHomeyTo } from './homey-module.js';
import { loadModule } from './load-module.js';
import { WebApiHandlers } from './web-api-child.js';

/** How long an app's own calls to the hub may wait (speech waits for the utterance). */
const CALL_TIMEOUT_MS = 30_000;
const ORPHAN_CHECK_MS = 3_000;

if (!process.env.HEARTH_APP_ID) {
  process.stderr.write('this file is started by the hearth hub, not by hand\n');
  process.exit(1);
}

/** When the start is over, in ms after onInit: see settleHeap. */
const SETTLE_GC_MS = [5_000, 10_000];
// The SDK is CommonJS (apps require() it); loaded by its real path, it is the very module
// instance an app's `require('homey')` reaches through the hub's link (sdk-link.ts). The paths
// are from where this runs, the bundle dist/apps/bootstrap.cjs (layout.ts says why it is there).
const require = createRequire(import.meta.url);
const { constructing, App } = require('../homey/app.cjs') as typeof import('../../homey/app.cjs');
const { Homey: HomeyInstance } = require('../homey/homey.cjs') as typeof import('../../homey/homey.cjs');
resolveHomeyTo(require.resolve('../homey/index.cjs'));
allowFdSync();

const channel = new Socket({ fd: CHANNEL_FD, readable: true, writable: true });
let connected = true;
// The channel ends when the hub exits or lets go of us: nothing left to serve.
const gone = (): void => {
  connected = false;
  process.exit(0);
};
channel.on('end', gone);
channel.on('close', gone);
channel.on('error', gone);

const send = (message: unknown, done?: () => void): void => {
  if (!connected) return;
  let frame: Buffer;
  try {
    frame = encodeFrame(message, MAX_APP_FRAME_BYTES);
  } catch (err) {
    // The hub would stop the app for it: refuse here, where the caller's promise can say why.
    throw new RpcError('invalid_args', (err as Error).message);
  }
  channel.write(frame, done && (() => done()));
};

const parentPid = process.ppid;
const orphanCheck = setInterval(() => {
  let alive = process.ppid === parentPid;
  if (alive) {
    try {
      process.kill(parentPid, 0);
    } catch {
      alive = false;
    }
  }
  if (!alive) process.exit(0);
}, ORPHAN_CHECK_MS);
orphanCheck.unref();

const peer = new RpcPeer((m) => {
  if (!connected) throw new Error('the hub is gone');
  send(m);
}, CALL_TIMEOUT_MS);

interface Running {
  homey: Homey;
  app: HomeyApp;
  api: WebApiHandlers;
}
let running: Running | undefined;
/** Made first thing in init, so the hub's events (sent from then on) always reach it. */
let homey: Homey | undefined;

/** env.json of the app (`this.homey.env`): {} without one; a broken one stops the start with a sentence. */
function readEnv(dir: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(join(dir, 'env.json'), 'utf8');
  } catch {
    return {};
  }
  try {
    const env: unknown = JSON.parse(text);
    if (typeof env === 'object' && env !== null && !Array.isArray(env)) return env as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new RpcError('app_error', 'env.json must hold a JSON object');
}

async function init(a: AppCallArgs<'init'>): Promise<void> {
  if (homey) throw new RpcError('app_error', 'init was already called');
  const ctx: HomeyContext = {
    transport: { call: (method, args) => peer.call(method, args) },
    app: a.app,
    manifest: a.manifest,
    permissions: a.permissions,
    state: a.state,
    env: readEnv(a.app.dir),
  };
  const instance = new HomeyInstance(ctx);
  homey = instance;
  // An app without a main module runs as the base Homey.App, as on Homey.
  const AppClass =
    a.app.main === null
      ? App
      : await loadAppClass(join(a.app.dir, a.app.main), App).catch((err: unknown) => {
          throw err instanceof NotAnApp ? new RpcError('app_error', err.message) : err;
        });
  const app = constructing(instance, () => new AppClass());
  instance.app = app;
  running = { homey: instance, app, api: new WebApiHandlers(a.app.dir, instance) };
  await app.onInit();
  // Only a driver app loads the drivers part of the SDK.
  if (Array.isArray(a.manifest.drivers) && a.manifest.drivers.length > 0) await instance.drivers.start(instance, loadIfThere);
  settleHeap();
}

/** A module of the app by its path without extension (`drivers/<id>/driver`), or null when there is none. */
async function loadIfThere(base: string): Promise<unknown> {
  for (const ext of ['.js', '.mjs', '.cjs']) {
    if (existsSync(base + ext)) return loadModule(base + ext);
  }
  return null;
}

/**
 * Two full collections once the start is over (apps run with --expose-gc). An idle app allocates
 * too little for V8 ever to collect on its own, so its young generation kept its start-up size
 * (1.5 MiB of pages); V8 shrinks it after a collection at a low allocation rate. Measured in a
 * home of 10 idle apps: 0.45 MiB less per app than an ES module bootstrap, which its own start
 * happened to collect (docs/performance.md).
 */
function settleHeap(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  for (const ms of SETTLE_GC_MS) setTimeout(gc, ms).unref();
}

function ready(): Running {
  if (!running) throw new RpcError('not_available', 'the app is not initialised yet');
  return running;
}

/** Every call the hub makes to the app, one handler each: a call without one fails to compile. */
const HANDLERS = {
  init: async (a) => {
    await init(a);
    return null;
  },
  uninit: async () => {
    if (running) {
      running.homey.emit('unload');
      if (Array.isArray(running.homey.manifest.drivers)) await running.homey.drivers.stop();
      await running.app.onUninit();
      running.homey.destroy();
    }
    return null;
  },
  gc: () => {
    const heap = () => {
      const m = process.memoryUsage();
      return { heapUsed: m.heapUsed, heapTotal: m.heapTotal, rss: m.rss };
    };
    const before = heap();
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) throw new RpcError('not_available', 'the child was started without --expose-gc');
    gc();
    return { before, after: heap() };
  },
  autocomplete: (a) => ready().homey.dashboards.autocomplete(a.widgetId, a.settingId, a.query, a.settings),
  api: (a) => ready().api.run(a),
  ping: () => null,
  'image.content': (a) => ready().homey.images.content(a.id),
  'oauth2.code': (a) => ready().homey.cloud.handle(a),
  'device.added': (a) => ready().homey.drivers.calls['device.added'](a),
  'device.deleted': (a) => ready().homey.drivers.calls['device.deleted'](a),
  'device.renamed': (a) => ready().homey.drivers.calls['device.renamed'](a),
  'device.settings': (a) => ready().homey.drivers.calls['device.settings'](a),
  'device.capability': (a) => ready().homey.drivers.calls['device.capability'](a),
  'pair.start': (a) => ready().homey.drivers.calls['pair.start'](a),
  'pair.emit': (a) => ready().homey.drivers.calls['pair.emit'](a),
  'pair.end': (a) => ready().homey.drivers.calls['pair.end'](a),
  'discovery.result': (a) => ready().homey.drivers.calls['discovery.result'](a),
  'flow.filter': (a) => ready().homey.flow.calls['flow.filter'](a),
  'flow.run': (a) => ready().homey.flow.calls['flow.run'](a),
  'flow.autocomplete': (a) => ready().homey.flow.calls['flow.autocomplete'](a),
} satisfies AppCallHandlers;

function handle(method: AppCallMethod, args: unknown): Promise<unknown> {
  const handler = HANDLERS[method] as ((args: unknown) => unknown) | undefined;
  if (!handler) return Promise.reject(new RpcError('not_available', `unknown call '${String(method)}'`));
  // The one place the wire meets the types: the hub sends each method the arguments its schema
  // in protocol.ts describes (isHubMessage checked the method is one of them).
  return Promise.resolve().then(() => handler(args));
}

function onCall(message: CallMessage): void {
  handle(message.method as AppCallMethod, message.args).then(
    (result) => {
      // After uninit the hub expects us gone: exit once the answer has left.
      const done = message.method === 'uninit' ? () => process.exit(0) : undefined;
      try {
        send(answerOf(message.id, { ok: true, result }), done);
      } catch (err) {
        send(answerOf(message.id, { ok: false, error: new RpcError('invalid_result', `the answer was not sent: ${(err as Error).message}`) }), done);
      }
    },
    (error: unknown) => {
      if (message.method === 'init') process.stderr.write(`onInit failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      send(answerOf(message.id, { ok: false, error }));
    },
  );
}

function onMessage(raw: unknown): void {
  if (!isHubMessage(raw)) {
    process.stderr.write('hearth: ignored a malformed message from the hub\n');
    return;
  }
  const message: HubMessage = raw;
  switch (message.type) {
    case 'call':
      onCall(message);
      break;
    case 'result':
    case 'error':
      peer.settle(message);
      break;
    case 'event':
      homey?.applyEvent(message.event);
      break;
  }
}

const decoder = new FrameDecoder(MAX_HUB_FRAME_BYTES);
channel.on('data', (chunk: Buffer) => {
  let messages: unknown[];
  try {
    messages = decoder.push(chunk);
  } catch (err) {
    process.stderr.write(`hearth: the hub's channel broke: ${(err as Error).message}\n`);
    process.exit(1);
  }
  for (const m of messages) onMessage(m);
});

send({ type: 'hello', protocol: PROTOCOL_VERSION, pid: process.pid });
