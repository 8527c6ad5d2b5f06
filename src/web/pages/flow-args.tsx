/**
 * A card's arguments in the flow editor, each a field of its type: text (with tokens to insert),
 * number and range, checkbox, dropdown, autocomplete (the card's listener suggests as one types),
 * date, time, colour, and a device (the home's devices the argument's filter lets through).
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
}): JSX.Element {
  const { arg, value, onChange } = p;
  const str = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  const id = `arg-${arg.name}`;
  const field = (() => {
    switch (arg.type) {
      case 'text':
        return (
          <span class="inline">
            <input
              aria-label={arg.title}
              placeholder={arg.placeholder ?? ''}
              value={str}
              onInput={(e) => onChange((e.target as HTMLInputElement).value)}
              data-testid={id}
            />
            {p.tokens.length > 0 ? (
              <select
                aria-label={`Insert a token into ${arg.title}`}
                value=""
                data-testid={`${id}-token`}
                onChange={(e) => {
                  const ref = (e.target as HTMLSelectElement).value;
                  if (ref) onChange(`${str}${ref}`);
                }}
              >
                <option value="">Insert a token…</option>
                {p.tokens.map((t) => (
                  <option key={t.ref} value={t.ref}>
                    {t.title}
                  </option>
                ))}
              </select>
            ) : null}
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
  return (
    <div class="arg">
      <span aria-hidden="true">{arg.title}</span>
      {field}
    </div>
  );
}
