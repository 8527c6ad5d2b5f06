/**
 * One card of a flow in the editor, as a person reads it: its owner's icon and name, its title as
 * a sentence with each argument's field in the blank Homey's `titleFormatted` gives it ("Dim
 * [[device]] to [[dim]]"), a condition turned round with one tap, an action's delay; after a test
 * run, lit by how it went (green, red with the reason, grey when the run never reached it).
 */
import type { JSX } from 'preact';
import type { DeviceView } from '../../managers/devices/views.js';
import { titleParts } from '../../managers/flow/title.js';
import type { CardView, RunStep } from '../../managers/flow/views.js';
import { DeviceIcon, MaskIcon } from '../device-icon.js';
import { Icon, type IconName } from '../icons.js';
import { ArgField, type TokenChoice, TokenText } from './flow-args.js';

export type Kind = 'trigger' | 'condition' | 'action';
export interface Step {
  id: string;
  args: Record<string, unknown>;
  inverted: boolean;
  group: string;
  delay: number | null;
}
/** How a card went in the last test run: its step, or `unreached` when the run stopped before it. */
export type Outcome = RunStep | 'unreached' | null;

/** The hub's own cards by the manager that owns them. */
const MANAGER_ICONS: Readonly<Record<string, IconName>> = { logic: 'flows', flow: 'flows', cron: 'clock', 'speech-output': 'speech', notifications: 'bell' };

function CardIcon({ card, devices }: { card: CardView; devices: readonly DeviceView[] }): JSX.Element {
  if (card.ownerUri.startsWith('homey:device:')) {
    const device = devices.find((d) => d.id === card.ownerId);
    return device ? <DeviceIcon device={device} size={22} /> : <MaskIcon url={null} fallback="devices" size={22} />;
  }
  if (card.ownerUri.startsWith('homey:app:')) return <MaskIcon url={`/app/${encodeURIComponent(card.ownerId)}/image/icon`} fallback="apps" size={22} />;
  return <MaskIcon url={null} fallback={MANAGER_ICONS[card.ownerId] ?? 'system'} size={22} />;
}

const SAID: Record<RunStep['outcome'], string> = { done: 'Done', true: 'Held', false: 'Did not hold', failed: 'Failed', skipped: 'Skipped' };

function OutcomeLine({ outcome }: { outcome: Outcome }): JSX.Element | null {
  if (outcome === null) return null;
  if (outcome === 'unreached')
    return (
      <p class="card-outcome" data-testid="card-outcome">
        Did not run
      </p>
    );
  return (
    <p class="card-outcome" data-testid="card-outcome">
      {SAID[outcome.outcome]}
      {outcome.error ? `: ${outcome.error}` : ''}
    </p>
  );
}

export function FlowCard(p: {
  kind: Kind;
  step: Step;
  card: CardView | undefined;
  tokens: readonly TokenChoice[];
  devices: readonly DeviceView[];
  outcome: Outcome;
  /** Its place in the test run, so cards light one after another. */
  order: number;
  onChange: (s: Step) => void;
  onRemove: () => void;
}): JSX.Element {
  const { step: s, card } = p;
  const lit = p.outcome === null ? undefined : p.outcome === 'unreached' ? 'unreached' : p.outcome.outcome;
  if (!card) {
    return (
      <article class="flow-card broken" data-testid="step">
        <p class="card-title">This card no longer exists ({s.id}): its app was removed or changed.</p>
        <button type="button" onClick={p.onRemove}>
          Remove
        </button>
      </article>
    );
  }
  // A device's own trigger needs no device chosen: it is the device.
  const own = (a: CardView['args'][number]) => p.kind === 'trigger' && a.type === 'device' && card.ownerUri.startsWith('homey:device:');
  const field = (a: CardView['args'][number], inline: boolean) => (
    <ArgField
      key={a.name}
      card={card}
      arg={a}
      value={s.args[a.name]}
      args={s.args}
      tokens={p.tokens}
      devices={p.devices}
      inline={inline}
      onChange={(v) => {
        const args = { ...s.args };
        if (v === undefined) delete args[a.name];
        else args[a.name] = v;
        p.onChange({ ...s, args });
      }}
    />
  );
  const parts = titleParts(card.titleFormatted ?? card.title);
  const inTitle = new Set(parts.flatMap((part) => ('arg' in part ? [part.arg] : [])));
  const plain = parts.map((part) => ('text' in part ? part.text : 'turn' in part ? part.turn[s.inverted ? 1 : 0] : '…')).join('');
  return (
    <article
      class="flow-card"
      data-testid="step"
      data-kind={p.kind}
      data-outcome={lit}
      style={lit ? { '--order': String(p.order) } : undefined}
      aria-label={`${card.ownerName}: ${plain}`}
    >
      <header class="card-head">
        <CardIcon card={card} devices={p.devices} />
        <span class="card-owner" data-testid="card-owner">
          {card.ownerName}
        </span>
        {p.kind === 'condition' ? (
          <button
            type="button"
            class="icon-button"
            aria-pressed={s.inverted}
            aria-label="Turn round"
            title="Turn round"
            data-testid="card-turn"
            onClick={() => p.onChange({ ...s, inverted: !s.inverted })}
          >
            <Icon name="turn" />
          </button>
        ) : null}
        <button type="button" class="icon-button" aria-label={`Remove ${plain}`} title="Remove" onClick={p.onRemove}>
          <Icon name="close" />
        </button>
      </header>
      <p class="card-title" data-testid="card-title">
        {parts.map((part, i) => {
          if ('text' in part) return part.text;
          if ('turn' in part)
            return (
              <span key={`turn-${i}`} class={s.inverted ? 'turn turned' : 'turn'}>
                {part.turn[s.inverted ? 1 : 0]}
              </span>
            );
          const arg = card.args.find((a) => a.name === part.arg);
          if (!arg)
            return (
              <span key={`arg-${i}`} class="muted">
                {part.arg}
              </span>
            );
          return own(arg) ? card.ownerName : field(arg, true);
        })}
      </p>
      {card.args
        .filter((a) => a.type === 'text' && inTitle.has(a.name))
        .map((a) => (
          <TokenText key={`text-${a.name}`} value={typeof s.args[a.name] === 'string' ? (s.args[a.name] as string) : ''} tokens={p.tokens} />
        ))}
      {card.args.filter((a) => !inTitle.has(a.name) && !own(a)).map((a) => field(a, false))}
      {p.kind === 'action' ? (
        <label class="card-delay">
          after
          <input
            type="number"
            min={0}
            class="short"
            aria-label="Delay in seconds"
            value={s.delay ?? ''}
            placeholder="0"
            onInput={(e) => {
              const raw = (e.target as HTMLInputElement).value;
              p.onChange({ ...s, delay: raw === '' ? null : Number(raw) });
            }}
          />
          s
        </label>
      ) : null}
      <OutcomeLine outcome={p.outcome} />
    </article>
  );
}
