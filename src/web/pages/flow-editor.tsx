/**
 * The flow editor as cards: When (one trigger), And (conditions, each turned round with one tap),
 * Then and Else (actions, each with a delay), side by side on a tablet and one under another on a
 * phone. Each card reads as a sentence with its arguments in its blanks (flow-card.tsx); cards
 * are added by searching the cards of the apps, the devices and the hub (flow-picker.tsx); tokens
 * are pills dragged or tapped into text (flow-tokens.tsx). "Test" runs what is on screen without
 * saving it (the trigger's tokens take their examples) and lights each card by how it went;
 * "Save" creates or changes the flow, and the hub's sentence says what to mend when it refuses.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { FlowView, RunView } from '../../managers/flow/views.js';
import type { FlowTokenView } from '../../managers/flowtoken/contract.js';
import { call } from '../client.js';
import { type FlowCards, loadFlowCards } from '../flow-cards.js';
import { useLiveDevices } from '../live-devices.js';
import { Err, useAction, useLoad } from '../ui.js';
import type { TokenChoice } from './flow-args.js';
import { FlowCard, type Kind, type Outcome, type Step } from './flow-card.js';
import { CardPicker } from './flow-picker.js';
import { TokenTray, useTokenTarget } from './flow-tokens.js';

export interface Draft {
  id: string | null;
  name: string;
  folder: string | null;
  trigger: Step | null;
  conditions: Step[];
  actions: Step[];
}

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

function Column({ id, title, hint, children }: { id: string; title: string; hint: string; children: ComponentChildren }): JSX.Element {
  return (
    <section class="flow-column" aria-labelledby={`column-${id}`} data-testid={`column-${id}`}>
      <h3 id={`column-${id}`}>
        {title} <span class="muted small">{hint}</span>
      </h3>
      {children}
    </section>
  );
}

const body = (d: Draft) => ({
  trigger: { id: d.trigger?.id ?? '', args: d.trigger?.args ?? {} },
  conditions: d.conditions.map((c) => ({ id: c.id, args: c.args, inverted: c.inverted, group: c.group || 'group1' })),
  actions: d.actions.map((a) => ({ id: a.id, args: a.args, group: a.group === 'else' ? ('else' as const) : ('then' as const), delay: a.delay })),
});

export function FlowEditor({ initial, onDone }: { initial: Draft; onDone: () => void }): JSX.Element {
  const [d, setDraft] = useState(initial);
  const [tested, setTested] = useState<RunView | null>(null);
  // A test's lights describe the flow as it was tested: any change puts them out.
  const setD = (next: Draft): void => {
    setDraft(next);
    setTested(null);
  };
  const a = useAction();
  const target = useTokenTarget();
  const cards = useLoad<FlowCards>(loadFlowCards);
  const globals = useLoad<Record<string, FlowTokenView>>(() => call('flowtoken', 'getFlowTokens').catch(() => ({})));
  const devices = Object.values(useLiveDevices().data ?? {});
  const trigger = d.trigger ? cards.data?.trigger[d.trigger.id] : undefined;
  const tokens = useMemo<TokenChoice[]>(
    () => [
      ...(trigger?.tokens ?? []).map((t) => ({ ref: `[[${t.id}]]`, title: t.title, from: 'trigger' as const })),
      ...Object.values(globals.data ?? {}).map((t) => ({ ref: `[[${t.uri}|${t.id}]]`, title: `${t.ownerName}: ${t.title}`, from: 'home' as const })),
    ],
    [trigger, globals.data],
  );
  if (cards.error) return <Err msg={cards.error} />;
  if (!cards.data) return <p class="muted">Loading cards…</p>;
  const all = cards.data;
  const lit = (kind: Kind, index: number): { outcome: Outcome; order: number } => {
    if (!tested) return { outcome: null, order: 0 };
    const order = tested.steps.findIndex((x) => x.kind === kind && x.index === index);
    return order < 0 ? { outcome: 'unreached', order: tested.steps.length } : { outcome: tested.steps[order] ?? null, order };
  };
  const box = (kind: Kind, s: Step, i: number) => (
    <FlowCard
      key={`${kind}-${i}-${s.id}`}
      kind={kind}
      step={s}
      card={all[kind][s.id]}
      tokens={kind === 'trigger' ? [] : tokens}
      devices={devices}
      {...lit(kind, i)}
      onRemove={() =>
        setD(
          kind === 'trigger'
            ? { ...d, trigger: null }
            : kind === 'condition'
              ? { ...d, conditions: d.conditions.filter((_, j) => j !== i) }
              : { ...d, actions: d.actions.filter((_, j) => j !== i) },
        )
      }
      onChange={(next) =>
        setD(
          kind === 'trigger'
            ? { ...d, trigger: next }
            : kind === 'condition'
              ? { ...d, conditions: d.conditions.map((x, j) => (j === i ? next : x)) }
              : { ...d, actions: d.actions.map((x, j) => (j === i ? next : x)) },
        )
      }
    />
  );
  const branch = (group: 'then' | 'else') => d.actions.flatMap((s, i) => (s.group === group ? [box('action', s, i)] : []));
  return (
    <section class="flow-editor" data-testid="flow-editor" aria-label="Flow editor" onFocusCapture={target.onFocus}>
      <label class="flow-name">
        Name <input value={d.name} onInput={(e) => setD({ ...d, name: (e.target as HTMLInputElement).value })} data-testid="flow-name" />
      </label>
      <TokenTray tokens={tokens} target={target} />
      <div class="flow-columns">
        <Column id="when" title="When" hint="starts it">
          {d.trigger ? box('trigger', d.trigger, 0) : <CardPicker kind="trigger" cards={all.trigger} onPick={(id) => setD({ ...d, trigger: step(id, '') })} />}
        </Column>
        <Column id="and" title="And" hint="only if">
          {d.conditions.map((c, i) => box('condition', c, i))}
          <CardPicker kind="condition" cards={all.condition} onPick={(id) => setD({ ...d, conditions: [...d.conditions, step(id, 'group1')] })} />
        </Column>
        {(['then', 'else'] as const).map((group) => (
          <Column key={group} id={group} title={group === 'then' ? 'Then' : 'Else'} hint={group === 'then' ? 'does this' : 'when a condition does not hold'}>
            {branch(group)}
            <CardPicker kind="action" cards={all.action} onPick={(id) => setD({ ...d, actions: [...d.actions, step(id, group)] })} />
          </Column>
        ))}
      </div>
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
              setTested(null);
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
        <p data-testid="flow-tested" role="status">
          Tested: <strong>{tested.result}</strong>
          {tested.branch ? ` (${tested.branch})` : ''}
          {tested.error ? ` — ${tested.error}` : ''}
        </p>
      ) : null}
    </section>
  );
}
