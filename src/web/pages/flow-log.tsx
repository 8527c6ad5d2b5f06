/**
 * A flow's runs, newest first: each card with what it answered or why it failed (the hub keeps
 * the last 20 of each flow while it runs).
 */
import type { JSX } from 'preact';
import type { RunView } from '../../managers/flow/views.js';
import { call } from '../client.js';
import { Err, formatTime, useLoad } from '../ui.js';

const OUTCOME: Record<string, string> = { done: 'done', true: 'held', false: 'did not hold', failed: 'failed', skipped: 'skipped' };
/** Each kind of card by the editor's word for its part of a flow. */
const PART: Record<string, string> = { trigger: 'When', condition: 'And', action: 'Then' };

/** Each card of a run, named as in the editor ("When Weather: The wind started"), and how it went. */
export function RunSteps({ run }: { run: RunView }): JSX.Element {
  return (
    <ol class="run-steps">
      {run.steps.map((s) => (
        <li key={`${s.card}-${s.at}`} class={s.outcome === 'failed' ? 'error' : undefined}>
          <span class="muted">{PART[s.kind] ?? s.kind}</span> {s.title === null ? s.card : `${s.ownerName}: ${s.title}`} — {OUTCOME[s.outcome] ?? s.outcome}
          {s.error ? ` (${s.error})` : ''}
        </li>
      ))}
    </ol>
  );
}

export function FlowLog({ id, version }: { id: string; version: number }): JSX.Element {
  const log = useLoad(() => call('flow', 'getFlowLog', { params: { id } }), [id, version]);
  if (log.error) return <Err msg={log.error} />;
  if (!log.data) return <p class="muted">Loading…</p>;
  if (log.data.length === 0) return <p class="muted">It has not run since the hub started.</p>;
  return (
    <ul class="plain run-log" data-testid="flow-log">
      {log.data.map((r) => (
        <li key={r.id} data-testid="flow-run">
          <strong>{r.result}</strong> {r.branch ? `(${r.branch})` : ''} <span class="muted">{formatTime(r.started)}</span>
          {r.by ? <span class="muted"> · started by {r.by.name}</span> : null}
          {r.error ? <p class="error">{r.error}</p> : null}
          <RunSteps run={r} />
        </li>
      ))}
    </ul>
  );
}
