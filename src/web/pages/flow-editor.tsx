/**
 * The flow editor: When (one trigger), And (conditions, each may be turned round with "not"),
 * Then and Else (actions, each with a delay), every card chosen by searching the cards of the
 * apps, the devices and the hub, and its arguments filled in by type (flow-args.tsx), tokens
 * insertable into text. "Test" runs what is on screen without saving it (the trigger's tokens
 * take their examples); "Save" creates or changes the flow, and the hub's sentence says what to
 * mend when it refuses.
 */
import type { JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { isScope, SCOPE_INFO } from '../../core/scopes.js';
import type { DeviceView } from '../../managers/devices/views.js';
import { readTitle } from '../../managers/flow/title.js';
import type { CardView, FlowView, RunView } from '../../managers/flow/views.js';
import type { FlowTokenView } from '../../managers/flowtoken/contract.js';
import { call } from '../client.js';
import { useLiveDevices } from '../live-devices.js';
import { Err, useAction, useLoad } from '../ui.js';
import { ArgField, type TokenChoice } from './flow-args.js';
import { RunSteps } from './flow-log.js';

type Kind = 'trigger' | 'condition' | 'action';
interface Step {
  id: string;
  args: Record<string, unknown>;
  inverted: boolean;
  group: string;
  delay: number | null;
}
export interface Draft {
  id: string | null;
  name: string;
  folder: string | null;
  trigger: Step | null;
  conditions: Step[];
  actions: Step[];
}
type Cards = Record<Kind, Record<string, CardView>>;

const step = (id: string, group: string): Step => ({ id, args: {}, inverted: false, group, delay: null });

export function draftOf(f: FlowView | null): Draft {
  if (!f) return { id: null, name: '', folder: null, trigger: null, conditions: [], actions: [] };
  return {
    id: f.id,
    name: f.name,
    folder: f.folder,
    trigger: { ...step(f.trigger.id, ''), args: f.trigger.args },
    conditions: f.conditions.map((c) => ({ ...step(c.id, c.group), args: c.args, inverted: c.inverted })),
    actions: f.actions.map((a) => ({ ...step(a.id, a.group), args: a.args, delay: a.delay })),
  };
}

/** A search over the cards of one kind, by title and owner. */
/** A scope in words (its label), or the raw name for one the web app does not know. */
const scopeLabel = (scope: string | null): string => (scope && isScope(scope) ? SCOPE_INFO[scope].label : String(scope));

function CardPicker({ kind, cards, onPick }: { kind: Kind; cards: Record<string, CardView>; onPick: (id: string) => void }): JSX.Element {
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
        placeholder={`Find ${what}: an app, a device, a word`}
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

function StepBox(p: {
  kind: Kind;
  step: Step;
  card: CardView | undefined;
  tokens: readonly TokenChoice[];
  devices: readonly DeviceView[];
  onChange: (s: Step) => void;
  onRemove: () => void;
}): JSX.Element {
  const { step: s, card } = p;
  if (!card) {
    return (
      <div class="step broken" data-testid="step">
        <span>{s.id}: this card no longer exists.</span>
        <button type="button" onClick={p.onRemove}>
          Remove
        </button>
      </div>
    );
  }
  return (
    <div class="step" data-testid="step">
      <div class="step-head">
        <strong>
          <span class="muted">{card.ownerName}:</span> {readTitle(card.title, s.inverted)}
        </strong>
        {p.kind === 'condition' ? (
          <label class="inline">
            <input type="checkbox" checked={s.inverted} onChange={(e) => p.onChange({ ...s, inverted: (e.target as HTMLInputElement).checked })} /> not
          </label>
        ) : null}
        {p.kind === 'action' ? (
          <label class="inline">
            after
            <input
              type="number"
              min={0}
              class="short"
              value={s.delay ?? ''}
              onInput={(e) => {
                const raw = (e.target as HTMLInputElement).value;
                p.onChange({ ...s, delay: raw === '' ? null : Number(raw) });
              }}
            />
            s
          </label>
        ) : null}
        <button type="button" aria-label={`Remove ${readTitle(card.title)}`} onClick={p.onRemove}>
          Remove
        </button>
      </div>
      {card.args
        .filter((a) => !(p.kind === 'trigger' && a.type === 'device' && card.ownerUri.startsWith('homey:device:')))
        .map((a) => (
          <ArgField
            key={a.name}
            card={card}
            arg={a}
            value={s.args[a.name]}
            args={s.args}
            tokens={p.tokens}
            devices={p.devices}
            onChange={(v) => {
              const args = { ...s.args };
              if (v === undefined) delete args[a.name];
              else args[a.name] = v;
              p.onChange({ ...s, args });
            }}
          />
        ))}
    </div>
  );
}

const body = (d: Draft) => ({
  trigger: { id: d.trigger?.id ?? '', args: d.trigger?.args ?? {} },
  conditions: d.conditions.map((c) => ({ id: c.id, args: c.args, inverted: c.inverted, group: c.group || 'group1' })),
  actions: d.actions.map((a) => ({ id: a.id, args: a.args, group: a.group === 'else' ? ('else' as const) : ('then' as const), delay: a.delay })),
});

export function FlowEditor({ initial, onDone }: { initial: Draft; onDone: () => void }): JSX.Element {
  const [d, setD] = useState(initial);
  const [tested, setTested] = useState<RunView | null>(null);
  const a = useAction();
  const cards = useLoad<Cards>(async () => {
    const [trigger, condition, action] = await Promise.all([
      call('flow', 'getFlowCardTriggers'),
      call('flow', 'getFlowCardConditions'),
      call('flow', 'getFlowCardActions'),
    ]);
    return { trigger, condition, action };
  });
  const globals = useLoad<Record<string, FlowTokenView>>(() => call('flowtoken', 'getFlowTokens').catch(() => ({})));
  const devices = Object.values(useLiveDevices().data ?? {});
  const trigger = d.trigger ? cards.data?.trigger[d.trigger.id] : undefined;
  const tokens = useMemo<TokenChoice[]>(
    () => [
      ...(trigger?.tokens ?? []).map((t) => ({ ref: `[[${t.id}]]`, title: `${trigger?.title}: ${t.title}` })),
      ...Object.values(globals.data ?? {}).map((t) => ({ ref: `[[${t.uri}|${t.id}]]`, title: `${t.ownerName}: ${t.title}` })),
    ],
    [trigger, globals.data],
  );
  if (cards.error) return <Err msg={cards.error} />;
  if (!cards.data) return <p class="muted">Loading cards…</p>;
  const all = cards.data;
  const box = (kind: Kind, s: Step, i: number) => (
    <StepBox
      key={`${kind}-${i}`}
      kind={kind}
      step={s}
      card={all[kind][s.id]}
      tokens={kind === 'trigger' ? [] : tokens}
      devices={devices}
      onRemove={() =>
        setD(
          kind === 'trigger'
            ? { ...d, trigger: null }
            : kind === 'condition'
              ? { ...d, conditions: d.conditions.filter((_, j) => j !== i) }
              : { ...d, actions: d.actions.filter((x) => x !== s) },
        )
      }
      onChange={(next) =>
        setD(
          kind === 'trigger'
            ? { ...d, trigger: next }
            : kind === 'condition'
              ? { ...d, conditions: d.conditions.map((x, j) => (j === i ? next : x)) }
              : { ...d, actions: d.actions.map((x) => (x === s ? next : x)) },
        )
      }
    />
  );
  const branch = (group: 'then' | 'else') => d.actions.filter((x) => x.group === group);
  return (
    <section class="flow-editor" data-testid="flow-editor" aria-label="Flow editor">
      <label>
        Name <input value={d.name} onInput={(e) => setD({ ...d, name: (e.target as HTMLInputElement).value })} data-testid="flow-name" />
      </label>
      <h3>When</h3>
      {d.trigger ? box('trigger', d.trigger, 0) : <CardPicker kind="trigger" cards={all.trigger} onPick={(id) => setD({ ...d, trigger: step(id, '') })} />}
      <h3>And</h3>
      {d.conditions.map((c, i) => box('condition', c, i))}
      <CardPicker kind="condition" cards={all.condition} onPick={(id) => setD({ ...d, conditions: [...d.conditions, step(id, 'group1')] })} />
      {(['then', 'else'] as const).map((group) => (
        <div key={group} data-testid={`branch-${group}`}>
          <h3>{group === 'then' ? 'Then' : 'Else'}</h3>
          {branch(group).map((s, i) => box('action', s, i))}
          <CardPicker kind="action" cards={all.action} onPick={(id) => setD({ ...d, actions: [...d.actions, step(id, group)] })} />
        </div>
      ))}
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={a.busy || !d.trigger || !d.name.trim()}
          data-testid="flow-save"
          onClick={() =>
            void a.run(async () => {
              if (d.id) await call('flow', 'updateFlow', { params: { id: d.id }, body: { name: d.name, ...body(d) } });
              else await call('flow', 'createFlow', { body: { name: d.name, folder: d.folder, ...body(d) } });
              onDone();
            })
          }
        >
          Save
        </button>
        <button
          type="button"
          disabled={a.busy || !d.trigger}
          data-testid="flow-test"
          onClick={() =>
            void a.run(async () => {
              const given = Object.fromEntries((trigger?.tokens ?? []).map((t) => [t.id, t.type === 'number' ? Number(t.example ?? 0) : (t.example ?? '')]));
              setTested(await call('flow', 'testFlow', { body: { flow: body(d), tokens: given } }));
            })
          }
        >
          Test
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      <Err msg={a.error} />
      {tested ? (
        <div data-testid="flow-tested">
          <p>
            Tested: <strong>{tested.result}</strong>
            {tested.branch ? ` (${tested.branch})` : ''}
          </p>
          <RunSteps run={tested} />
        </div>
      ) : null}
    </section>
  );
}
