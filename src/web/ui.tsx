/**
 * Small shared pieces of the pages: loading data with a reload, running an action with its busy
 * state and its error sentence shown right beside the control, and formatting helpers.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
// The hub's own list (a module without imports, so it bundles as is).
import { SCOPE_INFO, SCOPES, type Scope } from '../core/scopes.js';
import { describe } from './api.js';
import { type EventManager, type Resource, type ResourceItem, resourceEvent, subscribe } from './client.js';
import { Icon } from './icons.js';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  reload: () => void;
  set: (f: (prev: T | undefined) => T | undefined) => void;
}

/** Loads once (and on reload); keeps the last data while reloading so the page does not flicker. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [n, setN] = useState(0);
  useEffect(() => {
    let live = true;
    load().then(
      (d) => {
        if (!live) return;
        setData(() => d);
        setError(null);
      },
      (e: unknown) => live && setError(describe(e)),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [n, ...deps]);
  const reload = useCallback(() => setN((x) => x + 1), []);
  return { data, error, reload, set: setData };
}

/**
 * Keeps a loaded collection keyed by id current with a manager's `<kind>.create|update|delete`
 * events, so what the page shows follows changes made anywhere; loaded again when the socket
 * opens after the load (late, or after a drop), since the events of the meantime are lost.
 *
 * @example useLiveCollection('apps', 'app', apps)
 */
export function useLiveCollection<M extends EventManager, R extends Resource<M>>(
  manager: M,
  kind: R,
  loaded: Loaded<Record<string, ResourceItem<M, R>>>,
): void {
  useEffect(
    () =>
      subscribe(
        manager,
        (event) => {
          const change = resourceEvent<ResourceItem<M, R>>(event, kind);
          if (!change) return;
          const { verb, item } = change;
          loaded.set((prev) => {
            if (!prev) return prev;
            const next = { ...prev };
            if (verb === 'delete') delete next[item.id];
            else next[item.id] = item;
            return next;
          });
        },
        loaded.reload,
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [manager, kind],
  );
}

/** The location hash, re-rendering when it changes (routes below a page, e.g. #/apps/<id>/settings). */
export function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = (): void => setHash(location.hash);
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

export interface ActionState {
  busy: boolean;
  error: string | null;
  /** The sentence the last run returned to show on success (cleared when the next run starts). */
  done: string | null;
  run: (f: () => Promise<unknown>) => Promise<boolean>;
  /** A form's onSubmit: no page reload, then `run(f)`. */
  submit: (f: () => Promise<unknown>) => (e: Event) => void;
  clear: () => void;
}

/** Runs API calls for a button or form: busy while running, the API's sentence when one fails. */
export function useAction(): ActionState {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  const run = useCallback(async (f: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const result = await f();
      if (mounted.current && typeof result === 'string') setDone(result);
      return true;
    } catch (e) {
      if (mounted.current) setError(describe(e));
      return false;
    } finally {
      if (mounted.current) setBusy(false);
    }
  }, []);
  const submit = useCallback(
    (f: () => Promise<unknown>) => (e: Event) => {
      e.preventDefault();
      void run(f);
    },
    [run],
  );
  return { busy, error, done, run, submit, clear: () => setError(null) };
}

/** What went right, beside the form that did it. */
export function Ok({ msg, testId }: { msg: string | null | undefined; testId?: string }): JSX.Element | null {
  return msg ? (
    <span class="ok" data-testid={testId}>
      {msg}
    </span>
  ) : null;
}

export function Err({ msg }: { msg: string | null | undefined }): JSX.Element | null {
  return msg ? (
    <span class="err" role="alert">
      {msg}
    </span>
  ) : null;
}

interface ActionButtonProps {
  label: string;
  busyLabel?: string;
  onRun: () => Promise<unknown>;
  kind?: 'primary' | 'danger' | '';
  disabled?: boolean;
  confirm?: string;
  testId?: string;
  /** What a screen reader says when the label alone does not tell which thing it acts on. */
  ariaLabel?: string;
}

/** A button that runs an API call, says it is busy, and shows the API's sentence if it fails. */
export function ActionButton(p: ActionButtonProps): JSX.Element {
  const a = useAction();
  return (
    <span class="action">
      <button
        type="button"
        class={p.kind ?? ''}
        disabled={a.busy || p.disabled}
        data-testid={p.testId}
        aria-label={p.ariaLabel}
        onClick={() => {
          if (p.confirm && !window.confirm(p.confirm)) return;
          void a.run(p.onRun);
        }}
      >
        {a.busy ? (p.busyLabel ?? `${p.label}…`) : p.label}
      </button>
      <Err msg={a.error} />
    </span>
  );
}

export function Card({ title, children, actions }: { title?: ComponentChildren; children: ComponentChildren; actions?: ComponentChildren }): JSX.Element {
  return (
    <section class="card">
      {title !== undefined || actions !== undefined ? (
        <header>
          <h2>{title}</h2>
          <div class="actions">{actions}</div>
        </header>
      ) : null}
      {children}
    </section>
  );
}

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '–';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** Text of a localized label ({en, nl, ...}) in the hub's language, falling back to English. */
export function label(v: unknown, lang = 'en'): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const t = o[lang] ?? o.en ?? Object.values(o)[0];
    return typeof t === 'string' ? t : '';
  }
  return '';
}

/**
 * Copies `text` to the clipboard. The Clipboard API exists only in secure contexts, and a hub on
 * the LAN is plain http: there a hidden textarea and execCommand('copy') do it.
 */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser would not copy; select the text and copy it by hand');
}

/** A button that copies a secret (a token, a sign-in link) and says so. */
export function CopyButton({ text, what }: { text: string; what: string }): JSX.Element {
  const a = useAction();
  return (
    <span class="action">
      <button type="button" aria-label={`Copy ${what}`} data-testid="copy" onClick={() => void a.run(() => copyText(text).then(() => 'copied'))}>
        <Icon name="copy" /> Copy
      </button>
      <Ok msg={a.done} />
      <Err msg={a.error} />
    </span>
  );
}

/** One checkbox per scope with its label and sentence (SCOPE_INFO), for token and sign-in forms. */
/**
 * The scopes a token or a sign-in link gets, folded: the summary says what is chosen in words,
 * and the list (each scope a label, its raw name and one sentence) opens on a tap.
 */
export function ScopePicker({ value, onChange }: { value: readonly Scope[]; onChange: (v: Scope[]) => void }): JSX.Element {
  const chosen = SCOPES.filter((s) => value.includes(s)).map((s) => SCOPE_INFO[s].label);
  return (
    <details class="scopes">
      <summary>
        What it may do: {chosen.length === 0 ? 'nothing yet (choose)' : chosen.join(', ')} ({chosen.length} of {SCOPES.length})
      </summary>
      <fieldset>
        <legend class="sr-only">Scopes</legend>
        {SCOPES.map((s) => (
          <label key={s} class="check scope">
            <input type="checkbox" checked={value.includes(s)} onChange={() => onChange(value.includes(s) ? value.filter((x) => x !== s) : [...value, s])} />
            <span>
              <b>{SCOPE_INFO[s].label}</b> <code class="muted small">{s}</code> <span class="muted small block">{SCOPE_INFO[s].sentence}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/**
 * An error whose sentence carries a tool's raw output (a speech engine's ALSA lines): its first
 * clause shown, the whole text behind "Advanced" for whoever chases the cause.
 */
export function ErrWithRaw({ msg }: { msg: string | null | undefined }): JSX.Element | null {
  if (!msg) return null;
  const cut = msg.indexOf(': ');
  const raw = cut > 0 && (msg.length > 120 || /ALSA|\n/.test(msg));
  if (!raw) return <Err msg={msg} />;
  return (
    <span class="err" role="alert">
      {msg.slice(0, cut)}.{' '}
      <details class="advanced inline-details">
        <summary>Advanced: the raw output</summary>
        <pre>{msg}</pre>
      </details>
    </span>
  );
}

/** The hub's language picker, labelled (first run and Settings): the languages the i18n manager speaks, by their own names. */
export function LanguageSelect(p: {
  languages: Readonly<Record<string, string>> | undefined;
  value: string | undefined;
  disabled: boolean;
  onChange: (language: string) => void;
  testId?: string;
  class?: string;
}): JSX.Element {
  return (
    <label class={p.class}>
      Language
      <select value={p.value} disabled={p.disabled} data-testid={p.testId} onChange={(e) => p.onChange((e.target as HTMLSelectElement).value)}>
        {Object.entries(p.languages ?? {}).map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A form field's draft of a value the hub holds: it follows a new value from the hub, but never
 * the one it began with. (An effect that set the draft on mount ran after the first paint, and
 * overwrote what a quick hand, or a test, had typed in between.)
 */
export function useDraft<T>(held: T): [T, (next: T) => void] {
  const [draft, setDraft] = useState<T>(held);
  const key = JSON.stringify(held);
  const last = useRef(key);
  useEffect(() => {
    if (last.current === key) return;
    last.current = key;
    setDraft(held);
  }, [key]);
  return [draft, setDraft];
}

/**
 * An on/off switch (a checkbox with the switch role, drawn by styles.css) inside its label, with
 * what it switches beside it. `ariaLabel` names it where the words beside it do not.
 */
export function Switch(p: {
  checked: boolean;
  onChange: (on: boolean) => void;
  children: ComponentChildren;
  ariaLabel?: string;
  disabled?: boolean;
  testId?: string;
  class?: string;
}): JSX.Element {
  return (
    <label class={p.class ?? 'switch'}>
      <input
        type="checkbox"
        role="switch"
        checked={p.checked}
        aria-checked={p.checked}
        aria-label={p.ariaLabel}
        disabled={p.disabled}
        data-testid={p.testId}
        onChange={(e) => p.onChange((e.target as HTMLInputElement).checked)}
      />
      {p.children}
    </label>
  );
}
