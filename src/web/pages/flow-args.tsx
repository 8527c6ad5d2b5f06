/**
 * A card's arguments in the flow editor, each a field of its type: text (with tokens to insert),
 * number and range, checkbox, dropdown, autocomplete (the card's listener suggests as one types),
 * date, time, colour, and a device (the home's devices the argument's filter lets through). A text
 * takes tokens (flow-tokens.tsx drops or inserts them) and shows them as pills.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { DeviceView } from '../../managers/devices/views.js';
import type { CardView } from '../../managers/flow/views.js';
import { describe } from '../api.js';
import { call } from '../client.js';
import { Combobox, type Suggestion } from '../combobox.js';

type Arg = CardView['args'][number];
export interface TokenChoice {
  /** What goes into the text: `[[name]]` or `[[<uri>|<id>]]`. */
  ref: string;
  title: string;
  /** The trigger's own (always at hand), or one of the home's (found by a search). */
  from: 'trigger' | 'home';
}

/** Whether a device passes an argument's filter (`driver_id=lamp`, `class=light|socket`, `capabilities=onoff`). */
function passes(d: DeviceView, filter: string | null): boolean {
  if (!filter) return true;
  return filter.split('&').every((part) => {
    const [key, values = ''] = part.split('=');
    const any = values.split('|');
    if (key === 'driver_id') return any.some((v) => d.driverId === v || d.driverId.endsWith(`:${v}`));
    if (key === 'class') return any.includes(d.class);
    if (key === 'capabilities') return any.some((v) => d.capabilities.includes(v));
    return true;
  });
}

const TOKEN_REF = /(\[\[[^[\]]+\]\])/;

/** A text's tokens as pills, as it will read when the flow runs ("wind says [Logic: Greeting]"); nothing without tokens. */
export function TokenText({ value, tokens }: { value: string; tokens: readonly TokenChoice[] }): JSX.Element | null {
  if (!TOKEN_REF.test(value)) return null;
  return (
    <span class="token-text" data-testid="token-text">
      {value.split(TOKEN_REF).map((piece, i) => {
        if (i % 2 === 0) return piece;
        const known = tokens.find((t) => t.ref === piece);
        return (
          <span key={`${i}-${piece}`} class={known ? 'token-pill' : 'token-pill unknown'}>
            {known ? known.title : `${piece.slice(2, -2)} (not known here)`}
          </span>
        );
      })}
    </span>
  );
}

const toDate = (v: unknown): string => (typeof v === 'string' && /^\d{2}-\d{2}-\d{4}$/.test(v) ? v.split('-').reverse().join('-') : '');
const fromDate = (v: string): string => v.split('-').reverse().join('-');

function Autocomplete({
  card,
  arg,
  value,
  args,
  onChange,
}: {
  card: CardView;
  arg: Arg;
  value: unknown;
  args: Record<string, unknown>;
  onChange: (v: unknown) => void;
}): JSX.Element {
  const [query, setQuery] = useState((value as { name?: string } | undefined)?.name ?? '');
  const [found, setFound] = useState<Suggestion[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const type = card.type === 'trigger' ? 'flowcardtrigger' : card.type === 'condition' ? 'flowcardcondition' : 'flowcardaction';
  const look = (q: string): void => {
    setQuery(q);
    call('flow', 'getFlowCardAutocomplete', {
      params: { type, uri: card.ownerUri, id: card.id },
      query: { name: arg.name, query: q, args: JSON.stringify(args) },
    }).then(
      (list) => {
        setFound((list as Suggestion[]).slice(0, 20));
        setError(null);
      },
      (e: unknown) => setError(describe(e)),
    );
  };
  return (
    <span>
      <Combobox
        label={arg.title}
        query={query}
        options={found}
        testId={`arg-${arg.name}`}
        optionTestId="arg-choice"
        onQuery={look}
        onPick={(item) => {
          onChange(item);
          setQuery(item.name);
        }}
      />
      {error ? <span class="error">{error}</span> : null}
    </span>
  );
}

export function ArgField(p: {
  card: CardView;
  arg: Arg;
  value: unknown;
  args: Record<string, unknown>;
  tokens: readonly TokenChoice[];
  devices: readonly DeviceView[];
  onChange: (v: unknown) => void;
  /** In the card's sentence, where its title names it: the field alone, no title beside it. */
  inline?: boolean;
}): JSX.Element {
  const { arg, value, onChange } = p;
  const str = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  const id = `arg-${arg.name}`;
  const field = (() => {
    switch (arg.type) {
      case 'text':
        return (
          <span class="text-arg">
            <input
              aria-label={arg.title}
              placeholder={arg.placeholder ?? arg.title}
              value={str}
              data-takes-tokens=""
              onInput={(e) => onChange((e.target as HTMLInputElement).value)}
              data-testid={id}
            />
            {/* In a sentence, the card shows how the text reads below the sentence instead. */}
            {p.inline ? null : <TokenText value={str} tokens={p.tokens} />}
          </span>
        );
      case 'code':
        return <textarea aria-label={arg.title} rows={4} value={str} onInput={(e) => onChange((e.target as HTMLTextAreaElement).value)} data-testid={id} />;
      case 'number':
      case 'range':
        return (
          <input
            type="number"
            aria-label={arg.title}
            placeholder={arg.placeholder ?? arg.title}
            value={str}
            min={arg.min ?? undefined}
            max={arg.max ?? undefined}
            step={arg.step ?? 'any'}
            onInput={(e) => {
              const raw = (e.target as HTMLInputElement).value;
              onChange(raw === '' ? undefined : Number(raw));
            }}
            data-testid={id}
          />
        );
      case 'checkbox':
        return (
          <input
            type="checkbox"
            aria-label={arg.title}
            checked={value === true}
            onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
            data-testid={id}
          />
        );
      case 'dropdown':
        return (
          <select aria-label={arg.title} value={str} onChange={(e) => onChange((e.target as HTMLSelectElement).value)} data-testid={id}>
            <option value="">Choose…</option>
            {(arg.values ?? []).map((v) => (
              <option key={v.id} value={v.id}>
                {v.label}
              </option>
            ))}
          </select>
        );
      case 'autocomplete':
        return <Autocomplete card={p.card} arg={arg} value={value} args={p.args} onChange={onChange} />;
      case 'date':
        return (
          <input
            type="date"
            aria-label={arg.title}
            value={toDate(value)}
            onInput={(e) => onChange(fromDate((e.target as HTMLInputElement).value))}
            data-testid={id}
          />
        );
      case 'time':
        return <input type="time" aria-label={arg.title} value={str} onInput={(e) => onChange((e.target as HTMLInputElement).value)} data-testid={id} />;
      case 'color':
        return (
          <input
            type="color"
            aria-label={arg.title}
            value={str || '#ffffff'}
            onInput={(e) => onChange((e.target as HTMLInputElement).value)}
            data-testid={id}
          />
        );
      case 'device': {
        const chosen = (value as { id?: string } | undefined)?.id ?? '';
        return (
          <select
            aria-label={arg.title}
            value={chosen}
            data-testid={id}
            onChange={(e) => {
              const d = p.devices.find((x) => x.id === (e.target as HTMLSelectElement).value);
              onChange(d ? { id: d.id, name: d.name } : undefined);
            }}
          >
            <option value="">Choose a device…</option>
            {p.devices
              .filter((d) => passes(d, arg.filter))
              .map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
          </select>
        );
      }
      default:
        return <span class="muted">({arg.type})</span>;
    }
  })();
  // Each control names itself (aria-label); the visible title is for the eye.
  if (p.inline) return <span class="inline-arg">{field}</span>;
  return (
    <div class="arg">
      <span aria-hidden="true">{arg.title}</span>
      {field}
    </div>
  );
}
