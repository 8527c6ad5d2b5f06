/**
 * Entry point of an app's child process (started by the supervisor under Node's permission
 * model, with the hub's channel on file descriptor 3: see frames.ts). Says hello, waits for
 * `init`, loads the app's main module, runs onInit with the `hub` handle, then answers the hub's
 * calls (uninit, gc, autocomplete, ping) until told to stop. Exits on its own when the hub is
 * gone, so an app never outlives the hub.
 */
import { Socket } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HearthApp } from '../sdk/index.js';
import type { AppCallArgs, AppCallMethod, HubMessage } from './protocol.js';
import { CHANNEL_FD, encodeFrame, FrameDecoder, MAX_APP_FRAME_BYTES, MAX_HUB_FRAME_BYTES } from './frames.js';
import { createChildSdk, type ChildSdk } from './sdk-child.js';
import { answerOf, isHubMessage, PROTOCOL_VERSION, RpcError, RpcPeer, type CallMessage } from './wire.js';

/** How long an app's own calls to the hub may wait (speech waits for the utterance). */
const CALL_TIMEOUT_MS = 30_000;
const ORPHAN_CHECK_MS = 3_000;

if (!process.env.HEARTH_APP_ID) {
  process.stderr.write('this file is started by the hearth hub, not by hand\n');
  process.exit(1);
}

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
let sdk: ChildSdk | undefined;
let app: HearthApp | undefined;

function isApp(x: unknown): x is HearthApp {
  return typeof x === 'object' && x !== null && typeof (x as HearthApp).onInit === 'function';
}

/** Accepts `export default class`, `module.exports = class`, an object, or a named `App`. */
async function loadApp(file: string): Promise<HearthApp> {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const exported = mod.default ?? mod.App;
  const candidate: unknown = typeof exported === 'function' ? new (exported as new () => unknown)() : exported;
  if (!isApp(candidate)) {
    throw new RpcError('app_error', `${file} must export a class or object with an async onInit(hub) method`);
  }
  return candidate;
}

async function handle(method: AppCallMethod, args: unknown): Promise<unknown> {
  switch (method) {
    case 'init': {
      const a = args as AppCallArgs<'init'>;
      if (app) throw new RpcError('app_error', 'init was already called');
      sdk = createChildSdk(peer, a.app, { language: a.language, units: a.units });
      app = await loadApp(join(a.app.dir, a.app.main));
      await app.onInit(sdk.hub);
      return null;
    }
    case 'uninit':
      await app?.onUninit?.();
      return null;
    case 'gc': {
      const heap = () => {
        const m = process.memoryUsage();
        return { heapUsed: m.heapUsed, heapTotal: m.heapTotal, rss: m.rss };
      };
      const before = heap();
      const gc = (globalThis as { gc?: () => void }).gc;
      if (!gc) throw new RpcError('not_available', 'the child was started without --expose-gc');
      gc();
      return { before, after: heap() };
    }
    case 'autocomplete': {
      const a = args as AppCallArgs<'autocomplete'>;
      if (!sdk) throw new RpcError('not_available', 'the app is not initialised yet');
      return sdk.autocomplete(a.widgetId, a.settingId, a.query, a.settings);
    }
    case 'ping':
      return null;
    default:
      throw new RpcError('not_available', `unknown call '${String(method)}'`);
  }
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
      if (message.method === 'init') process.stderr.write(`onInit failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
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
      sdk?.onEvent(message.event);
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
