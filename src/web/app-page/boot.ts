/**
 * What the page APIs (homey-widget.ts, homey-settings.ts, homey-pair.ts) do alike: run once per page (a
 * settings page loads /homey.js itself besides the copy the hub puts in), read the strings the
 * hub put in and the context the host put in the URL hash, follow the host's light/dark theme,
 * and once the document has loaded fill `data-i18n` and call the page's `onHomeyReady(Homey)`,
 * exactly once.
 */
import { type PageContext, parseContext, type Theme } from '../page-protocol.js';
import { HostChannel } from './channel.js';
import { applyDataI18n, type PageStrings } from './i18n.js';

export type PageKind = 'widget' | 'settings' | 'pair';

export interface Page {
  strings: PageStrings;
  context: PageContext;
  channel: HostChannel;
}

/** Marks a window whose page API already runs. */
const STARTED = '__hearthPageApi';
const DARK = 'homey-dark-mode';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `window.__HOMEY_PAGE__` as the hub writes it; empty strings when a page was opened without it. */
function readStrings(value: unknown): PageStrings {
  const v = isRecord(value) ? value : {};
  return {
    language: typeof v.language === 'string' ? v.language : 'en',
    strings: isRecord(v.strings) ? v.strings : {},
    english: isRecord(v.english) ? v.english : {},
  };
}

/** Runs `f` once the document is parsed (at once when it already is). */
function whenParsed(f: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', f, { once: true });
  else queueMicrotask(f);
}

/**
 * Starts the page API of `kind`: `build` makes the `Homey` object, `prepare` runs on the parsed
 * document before `onHomeyReady`. Does nothing when the page API already runs in this window.
 */
export function startPage(kind: PageKind, build: (page: Page) => object, prepare?: (page: Page) => void): void {
  const w = window as unknown as Record<string, unknown>;
  if (w[STARTED]) return;
  w[STARTED] = true;

  const page: Page = { strings: readStrings(w.__HOMEY_PAGE__), context: parseContext(location.hash), channel: new HostChannel() };
  const root = document.documentElement;
  root.dataset.homeyPage = kind;
  let theme: Theme = page.context.theme ?? 'light';
  // A page may force dark mode with the class on its <body>: the theme never takes that away.
  let forcedDark = false;
  const applyTheme = (): void => {
    root.classList.toggle(DARK, theme === 'dark');
    document.body?.classList.toggle(DARK, forcedDark || theme === 'dark');
  };
  applyTheme();
  page.channel.onTheme((t) => {
    theme = t;
    applyTheme();
  });

  const homey = build(page);
  w.Homey = homey;

  whenParsed(() => {
    forcedDark = document.body?.classList.contains(DARK) ?? false;
    applyTheme();
    prepare?.(page);
    applyDataI18n(page.strings, document);
    let called = false;
    const ready = (): boolean => {
      if (called) return true;
      if (typeof w.onHomeyReady !== 'function') return false;
      called = true;
      (w.onHomeyReady as (h: object) => void)(homey);
      return true;
    };
    // onHomeyReady may be defined by a script that runs after parsing (async): try again at load.
    if (!ready()) window.addEventListener('load', () => void ready(), { once: true });
  });
}
