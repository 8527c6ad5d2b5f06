/**
 * The web app's only way to the hub: HTTP calls with the pasted token (kept in localStorage) and
 * one WebSocket per event channel (a manager's namespace, or an app's realtime channel) for live
 * events. API errors become ApiError carrying the hub's error_description sentence, which the
 * pages show next to what caused them.
 */
import { isDotName } from '../apps/wire/segments.cjs';

const TOKEN_KEY = 'hearth.token';

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}
/**
 * The token a 401 refused: no call leaves with it again from the moment the status is seen, before
 * the answer's body (the hub's sentence) is read and the page signs out.
 */
let refused: string | null = null;

export function setToken(token: string | null): void {
  refused = null;
  if (token === null) localStorage.removeItem(TOKEN_KEY);
  else localStorage.setItem(TOKEN_KEY, token);
  for (const s of sockets.values()) s.close();
  sockets.clear();
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A sentence for any thrown value: the hub's error_description when it is an API error. */
export function describe(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

export interface CallOptions {
  headers?: Record<string, string>;
  /**
   * Whether a 401 signs the page out (default true). Off for calls into apps' Web APIs: an app
   * answers its own statuses, and an app page must not be able to sign the person out.
   */
  signOutOn401?: boolean;
  /** Sent without a token (sign-in's own call, redeeming a link's code). Every other call needs one. */
  anonymous?: boolean;
}

/**
 * What a call without a token answers, without a request: once a 401 has signed the page out (or
 * before anyone signed in), nothing asks the hub again with a dead token (a polling loop would
 * count against the hub's failed-authentication limit) until someone signs in.
 */
export const SIGNED_OUT = 'this browser is signed out; sign in again';

export async function api<T = unknown>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await send(method, path, headers, body !== undefined ? JSON.stringify(body) : undefined, options.anonymous);
  return answer<T>(res, options);
}

async function send(method: string, path: string, headers: Record<string, string>, body?: BodyInit, anonymous = false): Promise<Response> {
  const token = getToken();
  if (token && token !== refused) headers.Authorization = `Bearer ${token}`;
  else if (!anonymous) throw new ApiError(401, 'signed_out', SIGNED_OUT);
  try {
    return await fetch(path, { method, headers, ...(body !== undefined ? { body } : {}) });
  } catch {
    throw new ApiError(0, 'network', 'the hub cannot be reached; check the connection');
  }
}

/** Sends a file as the body (a backup archive), answering the hub's JSON. */
export async function upload<T = unknown>(path: string, file: Blob, type: string, method: 'POST' | 'PUT' = 'POST'): Promise<T> {
  return answer<T>(await send(method, path, { 'Content-Type': type }, file));
}

/**
 * Saves what `path` answers as a file named `name`. A link cannot carry the token, so the bytes
 * come through fetch and leave as a blob URL (held in memory: fine for a hub's archives).
 */
export async function download(path: string, name: string): Promise<number> {
  const res = await send('GET', path, {});
  if (!res.ok) await answer(res);
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return blob.size;
}

/** An image the hub serves (with the token), as a URL an <img> can show until it is revoked. */
export async function imageBlob(path: string): Promise<string> {
  const res = await send('GET', path, {});
  if (!res.ok) await answer(res);
  if (!(res.headers.get('content-type') ?? '').startsWith('image/')) throw new Error('not an image');
  return URL.createObjectURL(await res.blob());
}

async function answer<T>(res: Response, options: CallOptions = {}): Promise<T> {
  if (res.status === 401 && options.signOutOn401 !== false) refused = getToken();
  const text = await res.text();
  let data: unknown = null;
  if (text && (res.headers.get('content-type') ?? '').includes('json')) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const e = (data ?? {}) as { error?: unknown; error_description?: unknown };
    const sentence = typeof e.error_description === 'string' ? e.error_description : `the hub answered ${res.status}`;
    if (res.status === 401 && options.signOutOn401 !== false) for (const f of unauthorized) f(sentence);
    throw new ApiError(res.status, typeof e.error === 'string' ? e.error : 'http_error', sentence);
  }
  return data as T;
}

/** Path segment escaping for ids such as `homey:app:x` or `com.example:clock`. */
/**
 * One path segment from a name. `.` and `..` cannot be one (every URL parser climbs them, and
 * encodeURIComponent keeps dots): such a name is refused here, before any request is made.
 */
export const seg = (s: string): string => {
  if (isDotName(s)) throw new Error(`'${s}' cannot be used as a name here: it would address another resource`);
  return encodeURIComponent(s);
};

/** Told the hub's sentence when it refuses the page's token (a 401): the page signs out. */
const unauthorized = new Set<(sentence: string) => void>();
export function onUnauthorized(f: (sentence: string) => void): () => void {
  unauthorized.add(f);
  return () => unauthorized.delete(f);
}

export type EventHandler = (event: string, args: unknown[]) => void;

/** Asks the hub once whether the token still works (an answer of 401 signs the page out): set by the shell. */
let checkToken: () => void = () => undefined;
export function setTokenCheck(check: () => void): void {
  checkToken = check;
}

/** One reconnecting socket per channel, shared by every page that listens to it. */
class Channel {
  private socket: WebSocket | null = null;
  private closed = false;
  private retry = 500;
  private timer: number | undefined;
  readonly handlers = new Set<EventHandler>();
  /** Told each time the socket opens: what happened while it was not open is not coming. */
  readonly openHandlers = new Set<() => void>();
  connected = false;
  private wasOpen = false;

  /** `path`: the channel's URL path, a manager's namespace (client.ts) or `/api/app/com.example.clock`. */
  constructor(private readonly path: string) {
    this.open();
  }

  private open(): void {
    const token = getToken();
    if (!token || this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}${this.path}?token=${encodeURIComponent(token)}`);
    this.socket = ws;
    ws.onopen = () => {
      this.retry = 500;
      this.setConnected(true);
      for (const h of this.openHandlers) h();
    };
    ws.onmessage = (m) => {
      let frame: { event?: unknown; args?: unknown };
      try {
        frame = JSON.parse(String(m.data)) as typeof frame;
      } catch {
        return;
      }
      if (typeof frame.event !== 'string' || !Array.isArray(frame.args)) return;
      for (const h of this.handlers) h(frame.event, frame.args);
    };
    ws.onclose = (e) => {
      this.socket = null;
      this.setConnected(false);
      if (this.closed) return;
      // 1008: the hub closed it for the token (revoked, its person disabled or their role
      // changed). Ask once over HTTP: a 401 signs the page out at once, with the hub's sentence;
      // a token still good (a new role) reconnects below.
      if (e.code === 1008) checkToken();
      // Back off so a hub restart or a revoked token does not make the page hammer it.
      this.timer = window.setTimeout(() => this.open(), this.retry);
      this.retry = Math.min(this.retry * 2, 15_000);
    };
  }

  private setConnected(v: boolean): void {
    if (v) this.wasOpen = true;
    this.connected = v;
    notifyLost();
  }

  /** Open once and closed now: live updates are not arriving until it reconnects. */
  get lost(): boolean {
    return this.wasOpen && !this.connected && !this.closed;
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
    this.socket?.close();
  }
}

/** Open channels by URL path. */
const sockets = new Map<string, Channel>();

/**
 * Listens on the channel at `path` (a socket shared by its listeners); client.ts names the
 * managers' paths. `onOpen` is called each time the socket opens after this call (the first time
 * when it was not open yet, and after every reconnect): events published before that never
 * arrive, so a page that loaded state loads it again there.
 */
export function listen(path: string, handler: EventHandler, closeWhenUnused: boolean, onOpen?: () => void): () => void {
  let channel = sockets.get(path);
  if (!channel) {
    channel = new Channel(path);
    sockets.set(path, channel);
  }
  channel.handlers.add(handler);
  if (onOpen) channel.openHandlers.add(onOpen);
  const owned = channel;
  return () => {
    owned.handlers.delete(handler);
    if (onOpen) owned.openHandlers.delete(onOpen);
    if (closeWhenUnused && owned.handlers.size === 0 && sockets.get(path) === owned) {
      owned.close();
      sockets.delete(path);
      notifyLost();
    }
  };
}

/**
 * Listens to an app's realtime channel (`this.homey.api.realtime` and `settings.set|unset`);
 * the socket closes when the last listener leaves (the pages of an app come and go).
 */
export function subscribeApp(appId: string, handler: EventHandler): () => void {
  return listen(`/api/app/${seg(appId)}`, handler, true);
}

const lostListeners = new Set<(lost: boolean) => void>();
function notifyLost(): void {
  const lost = [...sockets.values()].some((ns) => ns.lost);
  for (const l of lostListeners) l(lost);
}

/** Tells whether any live connection dropped (the page then says it is reconnecting). */
export function watchLost(listener: (lost: boolean) => void): () => void {
  lostListeners.add(listener);
  return () => lostListeners.delete(listener);
}
