/**
 * The messages between an app's page (a widget or a settings page, in a sandboxed iframe with an
 * opaque origin) and the web app page that hosts it. Both halves import this module: the page
 * API scripts (homey-widget.ts, homey-settings.ts) and the hosts (widget-host.tsx,
 * pages/app-settings-page.tsx). Everything that arrives is checked with the guards below: the
 * host cannot trust an app's page, and a page hears only its own parent window.
 */

/** Set on every message, so neither side mistakes another script's postMessage for one of these. */
export const PROTOCOL = 'hearth-page/1';

export type Theme = 'light' | 'dark';
export const THEMES: readonly Theme[] = ['light', 'dark'];

export const API_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type ApiMethod = (typeof API_METHODS)[number];

/** A height a page may ask for: pixels, or a percentage of its width (`'75%'`). */
export type Height = number | string;

/** What a page asks its host to do; the host answers each with a Reply of the same id. */
export type PageCall =
  | { op: 'api'; method: ApiMethod; path: string; body?: unknown }
  | { op: 'settings.get'; key?: string }
  | { op: 'settings.set'; key: string; value: unknown }
  | { op: 'settings.unset'; key: string }
  | { op: 'alert'; message: string }
  | { op: 'confirm'; message: string }
  | { op: 'open'; url: string }
  /** Pairing views only (homey-pair.ts): an event to the driver, a move, a device, what the view is given. */
  | { op: 'pair.emit'; event: string; data?: unknown }
  | { op: 'pair.view'; kind: 'showView' | 'nextView' | 'prevView' | 'done'; view?: string }
  | { op: 'pair.createDevice'; device: unknown }
  | { op: 'pair.options'; view?: string }
  | { op: 'pair.zone' }
  | { op: 'pair.title'; title: string }
  | { op: 'pair.loading'; shown: boolean };

/** What a page tells its host without waiting for an answer. */
export type PageNotice =
  | { notice: 'ready'; height?: Height }
  | { notice: 'height'; height: Height | null }
  /** The page listens to realtime events (its first `Homey.on`): the host opens the app's channel. */
  | { notice: 'listen' };

export type PageMessage = { protocol: typeof PROTOCOL; id: number; call: PageCall } | ({ protocol: typeof PROTOCOL } & PageNotice);

export type HostMessage =
  | { protocol: typeof PROTOCOL; id: number; ok: true; result: unknown }
  | { protocol: typeof PROTOCOL; id: number; ok: false; error: string; status?: number }
  /** A frame of the app's realtime channel: `Homey.on(event, fn)` gets `fn(...args)`. */
  | { protocol: typeof PROTOCOL; event: string; args: unknown[] }
  | { protocol: typeof PROTOCOL; theme: Theme };

/** The context a host puts in the page's URL hash (JSON), so the page reads it synchronously. */
export interface PageContext {
  /** The placed widget's instance id (widgets only). */
  id?: string;
  /** The placed widget's settings (widgets only). */
  settings?: Record<string, unknown>;
  /** The devices chosen for the placed widget, those that still exist (widgets with a `devices` picker). */
  devices?: string[];
  /** The app widget is transparent: its page draws no background of its own (widgets only). */
  transparent?: boolean;
  theme?: Theme;
}

const MAX_TEXT = 4096;

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;
const isKey = (v: unknown): v is string => isText(v, 256) && v !== '';

/** A valid height, or undefined: whole pixels up to 4000, or a percentage such as '75%'. */
export function heightOf(v: unknown): Height | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 && v <= 4000 ? Math.round(v) : undefined;
  if (typeof v === 'string') {
    if (/^\d{1,3}%$/.test(v)) return v;
    // Homey pages also send pixel counts as text ('120', '120px').
    const px = /^(\d{1,4})(px)?$/.exec(v);
    return px ? heightOf(Number(px[1])) : undefined;
  }
  return undefined;
}

function callOf(v: unknown): PageCall | null {
  if (!isObject(v)) return null;
  switch (v.op) {
    case 'api': {
      const method = typeof v.method === 'string' ? v.method.toUpperCase() : '';
      if (!(API_METHODS as readonly string[]).includes(method) || !isText(v.path)) return null;
      return { op: 'api', method: method as ApiMethod, path: v.path, ...(v.body === undefined || v.body === null ? {} : { body: v.body }) };
    }
    case 'settings.get':
      if (v.key !== undefined && !isKey(v.key)) return null;
      return v.key === undefined ? { op: 'settings.get' } : { op: 'settings.get', key: v.key };
    case 'settings.set':
      return isKey(v.key) && v.value !== undefined ? { op: 'settings.set', key: v.key, value: v.value } : null;
    case 'settings.unset':
      return isKey(v.key) ? { op: 'settings.unset', key: v.key } : null;
    case 'alert':
    case 'confirm':
      return isText(v.message) ? { op: v.op, message: v.message } : null;
    case 'open':
      return isText(v.url) ? { op: 'open', url: v.url } : null;
    default:
      return pairCallOf(v);
  }
}

const PAIR_MOVES = ['showView', 'nextView', 'prevView', 'done'] as const;

function pairCallOf(v: Fields): PageCall | null {
  switch (v.op) {
    case 'pair.emit':
      return isKey(v.event) ? { op: 'pair.emit', event: v.event, ...(v.data === undefined ? {} : { data: v.data }) } : null;
    case 'pair.view': {
      const kind = PAIR_MOVES.find((k) => k === v.kind);
      if (!kind || (v.view !== undefined && !isKey(v.view))) return null;
      return kind === 'showView' && typeof v.view === 'string' ? { op: 'pair.view', kind, view: v.view } : { op: 'pair.view', kind };
    }
    case 'pair.createDevice':
      return isObject(v.device) ? { op: 'pair.createDevice', device: v.device } : null;
    case 'pair.options':
      return v.view === undefined ? { op: 'pair.options' } : isKey(v.view) ? { op: 'pair.options', view: v.view } : null;
    case 'pair.zone':
      return { op: 'pair.zone' };
    case 'pair.title':
      return isText(v.title, 200) ? { op: 'pair.title', title: v.title } : null;
    case 'pair.loading':
      return typeof v.shown === 'boolean' ? { op: 'pair.loading', shown: v.shown } : null;
    default:
      return null;
  }
}

/** A page's message as the host may act on it, or null for anything else (dropped). */
export function parsePageMessage(data: unknown): PageMessage | null {
  if (!isObject(data) || data.protocol !== PROTOCOL) return null;
  if ('call' in data) {
    const call = callOf(data.call);
    return call && Number.isSafeInteger(data.id) ? { protocol: PROTOCOL, id: data.id as number, call } : null;
  }
  switch (data.notice) {
    case 'ready': {
      const height = heightOf(data.height);
      return height === undefined ? { protocol: PROTOCOL, notice: 'ready' } : { protocol: PROTOCOL, notice: 'ready', height };
    }
    case 'height': {
      if (data.height === null) return { protocol: PROTOCOL, notice: 'height', height: null };
      const height = heightOf(data.height);
      return height === undefined ? null : { protocol: PROTOCOL, notice: 'height', height };
    }
    case 'listen':
      return { protocol: PROTOCOL, notice: 'listen' };
    default:
      return null;
  }
}

/** A host's message as the page may act on it, or null. */
export function parseHostMessage(data: unknown): HostMessage | null {
  if (!isObject(data) || data.protocol !== PROTOCOL) return null;
  if (typeof data.id === 'number') {
    if (data.ok === true) return { protocol: PROTOCOL, id: data.id, ok: true, result: data.result };
    const status = typeof data.status === 'number' ? { status: data.status } : {};
    return { protocol: PROTOCOL, id: data.id, ok: false, error: typeof data.error === 'string' ? data.error : 'the hub refused the call', ...status };
  }
  if (typeof data.event === 'string' && Array.isArray(data.args)) return { protocol: PROTOCOL, event: data.event, args: data.args };
  if (THEMES.includes(data.theme as Theme)) return { protocol: PROTOCOL, theme: data.theme as Theme };
  return null;
}

/** The context from a page's location hash; anything malformed is left out. */
export function parseContext(hash: string): PageContext {
  let raw: unknown;
  try {
    raw = JSON.parse(decodeURIComponent(hash.replace(/^#/, '')) || '{}');
  } catch {
    return {};
  }
  if (!isObject(raw)) return {};
  const out: PageContext = {};
  if (isKey(raw.id)) out.id = raw.id;
  if (isObject(raw.settings)) out.settings = raw.settings;
  if (Array.isArray(raw.devices)) out.devices = raw.devices.filter((d): d is string => isText(d, 100)).slice(0, 100);
  if (raw.transparent === true) out.transparent = true;
  if (THEMES.includes(raw.theme as Theme)) out.theme = raw.theme as Theme;
  return out;
}

/** The hash a host gives a page's URL. */
export const contextHash = (context: PageContext): string => `#${encodeURIComponent(JSON.stringify(context))}`;
