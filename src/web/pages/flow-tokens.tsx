/**
 * The tokens a flow's cards may use (its trigger's and the home's global ones) as pills: dragged
 * onto a text blank they drop where they land (the browser inserts dragged text into a field);
 * tapped, they go into the text blank last chosen, at its cursor. Either way the field hears an
 * ordinary input, so the card's value changes as if typed.
 */
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { TokenChoice } from './flow-args.js';

export interface TokenTarget {
  /** The field, read when a token is tapped (it may have gone with its card). */
  field: { current: HTMLInputElement | null };
  /** Its name, while it is on screen. */
  label: string | null;
  /** For the editor's `onFocusCapture`: hears which field took the focus. */
  onFocus: (e: FocusEvent) => void;
}

/** The text blank tokens go into: the last field marked `data-takes-tokens` that had the focus. */
export function useTokenTarget(): TokenTarget {
  const field = useRef<HTMLInputElement | null>(null);
  const [label, setLabel] = useState<string | null>(null);
  const onFocus = (e: FocusEvent): void => {
    const el = e.target;
    if (el instanceof HTMLInputElement && el.hasAttribute('data-takes-tokens')) {
      field.current = el;
      setLabel(el.getAttribute('aria-label'));
    }
  };
  // A blank whose card was removed takes nothing.
  return { field, label: field.current?.isConnected ? label : null, onFocus };
}

/** Puts `ref` into the field at its cursor (replacing a selection) and tells the field's owner. */
function insert(field: HTMLInputElement, ref: string): void {
  const start = field.selectionStart ?? field.value.length;
  field.setRangeText(ref, start, field.selectionEnd ?? start, 'end');
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.focus();
}

/** How many of the home's tokens a search shows at once. */
const FOUND_AT_MOST = 24;

function Pill({ token, target }: { token: TokenChoice; target: TokenTarget }): JSX.Element {
  return (
    <li>
      <button
        type="button"
        class="token-pill"
        draggable
        data-testid="token-pill"
        data-ref={token.ref}
        aria-label={target.label ? `Put ${token.title} into ${target.label}` : token.title}
        onDragStart={(e) => {
          e.dataTransfer?.setData('text/plain', token.ref);
          if (e.dataTransfer) e.dataTransfer.effectAllowed = 'copy';
        }}
        onClick={() => {
          const field = target.field.current;
          if (field?.isConnected) insert(field, token.ref);
        }}
      >
        {token.title}
      </button>
    </li>
  );
}

/**
 * The trigger's tokens always at hand; the home's (every device's values, the variables, the
 * apps' tokens: many in a real home) found by a search, so the tray stays a line or two.
 */
export function TokenTray({ tokens, target }: { tokens: readonly TokenChoice[]; target: TokenTarget }): JSX.Element | null {
  const [query, setQuery] = useState('');
  if (tokens.length === 0) return null;
  const own = tokens.filter((t) => t.from === 'trigger');
  const q = query.trim().toLowerCase();
  const found = q ? tokens.filter((t) => t.from === 'home' && t.title.toLowerCase().includes(q)) : [];
  return (
    <section class="token-tray" aria-label="Tokens" data-testid="token-tray">
      <p class="muted small">
        {target.label
          ? `Tap a token to put it into “${target.label}”, or drag it onto any text blank.`
          : 'Drag a token onto a text blank, or choose a text blank and tap a token.'}
      </p>
      <ul class="plain token-list">
        {own.map((t) => (
          <Pill key={t.ref} token={t} target={target} />
        ))}
        <li>
          <input
            type="search"
            class="token-search"
            aria-label="Find a token of the home"
            placeholder="More: a device, a variable…"
            value={query}
            onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
            data-testid="token-search"
          />
        </li>
        {found.slice(0, FOUND_AT_MOST).map((t) => (
          <Pill key={t.ref} token={t} target={target} />
        ))}
        {q && found.length === 0 ? <li class="muted small">No token matches.</li> : null}
        {found.length > FOUND_AT_MOST ? <li class="muted small">and {found.length - FOUND_AT_MOST} more: a word more finds them.</li> : null}
      </ul>
    </section>
  );
}
