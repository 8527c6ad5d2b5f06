/**
 * Apps' notifications (`this.homey.notifications.createNotification`, the `notification.create`
 * event of the apps namespace) as toasts in a corner of every page. Only when the token may read
 * the apps namespace: one read of the app list says so, and names the apps the toasts come from.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, subscribe } from './client.js';

interface Toast {
  id: string;
  app: string;
  excerpt: string;
}

/** Toasts shown at once; older ones make room. */
const MAX_SHOWN = 4;
const SHOWN_MS = 12_000;

function toastOf(arg: unknown, names: Map<string, string>): Toast | null {
  if (typeof arg !== 'object' || arg === null) return null;
  const n = arg as { id?: unknown; ownerId?: unknown; excerpt?: unknown };
  if (typeof n.id !== 'string' || typeof n.excerpt !== 'string') return null;
  const owner = typeof n.ownerId === 'string' ? n.ownerId : '';
  return { id: n.id, app: names.get(owner) ?? owner, excerpt: n.excerpt };
}

export function Notifications(): JSX.Element {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => {
    let live = true;
    let off = (): void => undefined;
    const timers = new Set<number>();
    const dismissLater = (id: string): void => {
      const timer = window.setTimeout(() => {
        timers.delete(timer);
        setToasts((all) => all.filter((t) => t.id !== id));
      }, SHOWN_MS);
      timers.add(timer);
    };
    call('apps', 'getApps').then(
      (apps) => {
        if (!live) return;
        // A flow's notifications (its "create a notification" card) are owned by 'flow', never an app id.
        const names = new Map([['flow', 'Flows'], ...Object.values(apps).map((a): [string, string] => [a.id, a.name])]);
        off = subscribe('apps', (e) => {
          if (e.name === 'app.create' || e.name === 'app.update') names.set(e.args[0].id, e.args[0].name);
          if (e.name !== 'notification.create') return;
          const toast = toastOf(e.args[0], names);
          if (!toast) return;
          setToasts((all) => [...all.filter((t) => t.id !== toast.id), toast].slice(-MAX_SHOWN));
          dismissLater(toast.id);
        });
      },
      // A token without the apps scope gets no notifications (and no socket that is refused).
      () => undefined,
    );
    return () => {
      live = false;
      off();
      for (const t of timers) window.clearTimeout(t);
    };
  }, []);
  // The live region is always there, so screen readers announce what gets added to it.
  return (
    <div class="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div class="toast" key={t.id} data-testid="toast">
          <div>
            <b>{t.app}</b>
            <div>{t.excerpt}</div>
          </div>
          <button type="button" class="link" aria-label="dismiss" onClick={() => setToasts((all) => all.filter((x) => x.id !== t.id))}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
