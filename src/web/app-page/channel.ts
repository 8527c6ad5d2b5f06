/**
 * The app page's half of the page protocol (page-protocol.ts): calls to the web app page that
 * hosts it (answered by id), one-way notices, and what the host pushes (realtime events, the
 * theme). Only messages from the parent window count: the page's origin is opaque, so the
 * window a message came from is what identifies the host.
 */
import { type PageCall, type PageNotice, PROTOCOL, parseHostMessage, type Theme } from '../page-protocol.js';

/** Rejections of `call`: the host's sentence, and the HTTP status when the hub answered one. */
export class HostError extends Error {
  constructor(
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
  }
}

type Listener = (...args: unknown[]) => void;

/** Longer than the hub gives an app's Web API to answer, so the hub's own sentence comes first. */
const CALL_TIMEOUT_MS = 120_000;

export class HostChannel {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly themeListeners = new Set<(theme: Theme) => void>();
  private next = 1;
  private listening = false;
  readonly hosted = window.parent !== window;

  constructor() {
    window.addEventListener('message', (e: MessageEvent) => {
      if (!this.hosted || e.source !== window.parent) return;
      const m = parseHostMessage(e.data);
      if (!m) return;
      if ('id' in m) {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.result);
        else p.reject(new HostError(m.error, m.status));
      } else if ('event' in m) {
        for (const f of this.listeners.get(m.event) ?? []) {
          try {
            f(...m.args);
          } catch (err) {
            // One failing listener must not keep the event from the others; the error still
            // shows in the page's console as uncaught.
            queueMicrotask(() => {
              throw err;
            });
          }
        }
      } else {
        for (const f of this.themeListeners) f(m.theme);
      }
    });
  }

  /**
   * Asks the host; resolves with its answer, rejects with its sentence, or after CALL_TIMEOUT_MS
   * without one (dialogs wait for the person as long as it takes).
   */
  call(call: PageCall): Promise<unknown> {
    if (!this.hosted) return Promise.reject(new HostError("this page is not open in hearth's web app"));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const dialog = call.op === 'alert' || call.op === 'confirm';
      const timer = dialog ? undefined : window.setTimeout(() => this.settle(id, new HostError('the web app did not answer in time')), CALL_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (v) => {
          window.clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          window.clearTimeout(timer);
          reject(e);
        },
      });
      window.parent.postMessage({ protocol: PROTOCOL, id, call }, '*');
    });
  }

  private settle(id: number, error: Error): void {
    const p = this.pending.get(id);
    this.pending.delete(id);
    p?.reject(error);
  }

  notify(notice: PageNotice): void {
    if (this.hosted) window.parent.postMessage({ protocol: PROTOCOL, ...notice }, '*');
  }

  /** Listens to one realtime event of the page's app; the first listener asks the host to connect. */
  on(event: string, f: Listener): void {
    if (typeof f !== 'function') return;
    const set = this.listeners.get(event) ?? new Set<Listener>();
    this.listeners.set(event, set);
    set.add(f);
    if (!this.listening) {
      this.listening = true;
      this.notify({ notice: 'listen' });
    }
  }

  onTheme(f: (theme: Theme) => void): void {
    this.themeListeners.add(f);
  }
}
