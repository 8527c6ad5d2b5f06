/**
 * Adding a card to a flow: a search over the cards of one kind (by their owner's name and their
 * title), each found card a button; a card the sign-in may not run is shown greyed with the right
 * it needs.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { isScope, SCOPE_INFO } from '../../core/scopes.js';
import { readTitle } from '../../managers/flow/title.js';
import type { CardView } from '../../managers/flow/views.js';
import type { Kind } from './flow-card.js';

/** A scope in words (its label), or the raw name for one the web app does not know. */
const scopeLabel = (scope: string | null): string => (scope && isScope(scope) ? SCOPE_INFO[scope].label : String(scope));

export function CardPicker({ kind, cards, onPick }: { kind: Kind; cards: Record<string, CardView>; onPick: (id: string) => void }): JSX.Element {
  const [query, setQuery] = useState('');
  const q = query.toLowerCase();
  const what = `${kind === 'action' ? 'an' : 'a'} ${kind} card`;
  const found = Object.values(cards)
    .filter((c) => !c.deprecated && `${c.ownerName} ${readTitle(c.title)}`.toLowerCase().includes(q))
    .sort((a, b) => a.ownerName.localeCompare(b.ownerName) || a.title.localeCompare(b.title))
    .slice(0, 30);
  return (
    <div class="card-picker">
      <input
        type="search"
        aria-label={`Find ${what}`}
        placeholder="+ Add: an app, a device, a word"
        value={query}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
        data-testid={`find-${kind}`}
      />
      {query ? (
        <ul class="plain">
          {found.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                data-testid="card-option"
                disabled={!c.usable}
                aria-describedby={c.usable ? undefined : `why-${c.id}`}
                onClick={() => {
                  setQuery('');
                  onPick(c.id);
                }}
              >
                <span class="muted">{c.ownerName}:</span> {readTitle(c.title)}
              </button>
              {c.usable ? null : (
                <span class="muted small" id={`why-${c.id}`} data-testid="card-why">
                  {' '}
                  Not for you: it needs the right “{scopeLabel(c.needs)}”, which this sign-in does not have.
                </span>
              )}
            </li>
          ))}
          {found.length === 0 ? <li class="muted">No card matches.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
