/**
 * The home's timeline as it happens (the notifications namespace's `notification.create`: what
 * apps, flows and the hub say) as toasts in a corner of every page. Only when the token may read
 * the timeline (its socket is refused otherwise, and nothing shows).
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, subscribe } from './client.js';

interface Toast {
  id: string;
  owner: string;
  excerpt: string;
}

/** Toasts shown at once; older ones make room. */
const MAX_SHOWN = 4;
const SHOWN_MS = 12_000;

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
    // One read says whether the token may hear the timeline: no socket to be refused otherwise.
    call('notifications', 'getOwners').then(
      () => {
        if (!live) return;
        off = subscribe('notifications', (e) => {
          // The Timeline page shows it already, at its top.
          if (e.name !== 'notification.create' || location.hash.startsWith('#/timeline')) return;
          const [n] = e.args;
          const toast = { id: n.id, owner: n.ownerName, excerpt: n.excerpt };
          setToasts((all) => [...all.filter((t) => t.id !== toast.id), toast].slice(-MAX_SHOWN));
          dismissLater(toast.id);
        });
      },
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
            <b>{t.owner}</b>
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
