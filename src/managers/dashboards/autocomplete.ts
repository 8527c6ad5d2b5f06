/**
 * getAppWidgetAutocomplete: asks the app that owns a widget for the choices of one of its
 * autocomplete settings, over IPC, and turns every way that can fail into an explicit answer
 * (404 unknown widget or no listener, 400 not an autocomplete setting, 409 app not running,
 * 502 the listener threw or the app died, 503 too many requests waiting on the app, 504 no
 * answer in 5 s). The call is asynchronous all
 * the way: a slow app holds only its own request.
 */
import { conflict, HearthError, invalid, notFound } from '../../core/errors.js';
import { exceedsDepth, MAX_JSON_DEPTH } from '../../core/json-depth.js';
import type { AppWidgetCatalog } from './app-widgets.js';
import { LIMITS } from './views.js';

/** One choice: `name` is shown; whatever else the app put in comes back in the widget's settings. */
export interface AutocompleteItem {
  name: string;
  description?: string;
  image?: string;
  [field: string]: unknown;
}

/** What autocomplete needs from the apps runtime (AppRuntime fits). */
export interface AutocompleteRuntime {
  autocomplete(
    appId: string,
    call: { widgetId: string; settingId: string; query: string; settings: Record<string, unknown> },
    timeoutMs?: number,
  ): Promise<AutocompleteItem[]>;
}

export interface AutocompleteRequest {
  settingId: string;
  query: string;
  /** The query parameter as sent: a JSON-encoded object, or absent. */
  settings?: string | undefined;
}

/** Parses the `settings` query parameter: a JSON object (or null for none), given as a string. */
export function parseSettings(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid(`query parameter 'settings' must be a JSON-encoded object such as {"city":"Paris"}`);
  }
  if (exceedsDepth(value)) {
    throw invalid(`query parameter 'settings' nests deeper than ${MAX_JSON_DEPTH} levels; send a flatter object`);
  }
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(`query parameter 'settings' must be a JSON-encoded object, not ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/** Rejects when `signal` aborts (the client went away): the hub stops waiting for the app. */
function untilAborted(signal: AbortSignal | undefined): { promise: Promise<never>; done: () => void } {
  if (!signal) return { promise: new Promise<never>(() => undefined), done: () => undefined };
  let onAbort: () => void = () => undefined;
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(new HearthError('timeout', 'the client went away before the app answered'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => undefined);
  return { promise, done: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * Autocomplete requests waiting on each app. A stalled app would otherwise collect every
 * keystroke of every client for 5 s each; past the limit a client is told to try again.
 */
export class InFlight {
  private readonly counts = new Map<string, number>();

  constructor(readonly limit: number) {}

  enter(appId: string): () => void {
    const n = this.counts.get(appId) ?? 0;
    if (n >= this.limit) {
      throw new HearthError('unavailable', `app '${appId}' has ${n} autocomplete requests waiting for answers; try again in a few seconds`);
    }
    this.counts.set(appId, n + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (this.counts.get(appId) ?? 1) - 1;
      if (now > 0) this.counts.set(appId, now);
      else this.counts.delete(appId);
    };
  }
}

export async function autocomplete(
  catalog: AppWidgetCatalog,
  runtime: AutocompleteRuntime,
  appWidgetId: string,
  req: AutocompleteRequest,
  inFlight: InFlight,
  signal?: AbortSignal,
): Promise<AutocompleteItem[]> {
  const widget = catalog.get(appWidgetId);
  if (!widget) throw notFound(`app widget '${appWidgetId}' does not exist; list them with GET /api/manager/dashboards/appwidget`);
  const settings = parseSettings(req.settings);
  const setting = widget.settings.find((s) => s.id === req.settingId);
  if (!setting) {
    const ids = widget.settings.map((s) => String(s.id));
    throw invalid(`widget '${appWidgetId}' has no setting '${req.settingId}'${ids.length ? `; its settings: ${ids.join(', ')}` : ''}`);
  }
  if (setting.type !== 'autocomplete') {
    throw invalid(`setting '${req.settingId}' of widget '${appWidgetId}' is of type '${String(setting.type)}', not autocomplete`);
  }
  if (!catalog.running(widget.ownerId)) {
    throw conflict(`app '${widget.ownerId}' is not running; enable or restart it, then ask again`);
  }
  const widgetId = appWidgetId.slice(widget.ownerId.length + 1);
  const leave = inFlight.enter(widget.ownerId);
  // The slot is the app's: it is freed when the app answers (or the call times out), not when
  // a client that went away stops waiting.
  const call = { widgetId, settingId: req.settingId, query: req.query, settings };
  const asked = Promise.resolve()
    .then(() => runtime.autocomplete(widget.ownerId, call, LIMITS.autocompleteTimeoutMs))
    .finally(leave);
  asked.catch(() => undefined);
  const aborted = untilAborted(signal);
  try {
    const items = await Promise.race([asked, aborted.promise]);
    return items.slice(0, LIMITS.autocompleteResults);
  } finally {
    aborted.done();
  }
}
