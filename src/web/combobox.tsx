/**
 * A text field that suggests as one types (an app's autocomplete: a widget setting, a flow card's
 * argument), as the ARIA combobox pattern has it: the field is a `combobox` that owns a `listbox`
 * of `option`s; arrow keys move through them (aria-activedescendant), Enter takes one, Escape
 * closes the list; a click or a tap takes one too. The caller asks the app for the options.
 */
import type { JSX } from 'preact';
import { useId, useState } from 'preact/hooks';

/** What an app's autocomplete answers: Homey shows `name` (and `description`); other fields are the app's. */
export interface Suggestion {
  name: string;
  description?: string;
}

export function Combobox<T extends Suggestion>(p: {
  /** The field's accessible name. */
  label: string;
  query: string;
  placeholder?: string;
  /** The suggestions for `query`; null while none were asked for. */
  options: T[] | null;
  /** The field's text changed, or it got focus (`focus`): ask for suggestions. */
  onQuery: (query: string, focus: boolean) => void;
  onPick: (option: T) => void;
  testId?: string;
  optionTestId?: string;
}): JSX.Element {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const shown = open && p.options !== null;
  const options = p.options ?? [];
  const pick = (o: T): void => {
    p.onPick(o);
    setOpen(false);
    setActive(-1);
  };
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!shown) setOpen(true);
      const n = options.length;
      if (n > 0) setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : (a - 1 + n) % n));
    } else if (e.key === 'Enter' && shown && options[active]) {
      e.preventDefault();
      pick(options[active]!);
    } else if (e.key === 'Escape' && shown) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };
  return (
    <div class="autocomplete">
      <input
        type="text"
        role="combobox"
        aria-label={p.label}
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={`${id}-list`}
        aria-activedescendant={shown && active >= 0 ? `${id}-${active}` : undefined}
        autocomplete="off"
        placeholder={p.placeholder}
        value={p.query}
        data-testid={p.testId}
        onFocus={() => {
          setOpen(true);
          p.onQuery(p.query, true);
        }}
        onInput={(e) => {
          setOpen(true);
          setActive(-1);
          p.onQuery((e.target as HTMLInputElement).value, false);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <div class="choices" role="listbox" id={`${id}-list`} aria-label={`${p.label}: choices`} hidden={!shown}>
        {shown && options.length === 0 ? <div class="muted">no matches</div> : null}
        {shown
          ? options.map((o, i) => (
              // Options need not have an id: their place in the answer keys them.
              // tabIndex -1: focus stays in the field (aria-activedescendant), as the pattern has it.
              <div
                key={`${i}-${o.name}`}
                id={`${id}-${i}`}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                class={i === active ? 'active' : ''}
                data-testid={p.optionTestId}
                // Taken on mousedown, before the field's blur could close the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(o);
                }}
              >
                {o.name}
                {o.description ? <span class="muted"> — {o.description}</span> : null}
              </div>
            ))
          : null}
      </div>
    </div>
  );
}
