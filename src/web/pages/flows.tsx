/**
 * Flows: every flow of the home by folder, each with whether it is on, broken (and why) and how
 * its last run went, live; a flow's menu starts it, shows its log, edits or deletes it. "New
 * flow" opens the editor (flow-editor.tsx).
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { FlowView, FolderView, RunView } from '../../managers/flow/views.js';
import { call, subscribe } from '../client.js';
import { loadFlowCards } from '../flow-cards.js';
import { type CardsByKind, flowSentence } from '../flow-sentence.js';
import { ActionButton, Card, Err, formatTime, Switch, useAction, useLiveCollection, useLoad } from '../ui.js';
import { type Draft, draftOf, FlowEditor } from './flow-editor.js';
import { FlowLog } from './flow-log.js';

const NO_CARDS: CardsByKind = { trigger: {}, condition: {}, action: {} };

/** How a flow's last run went, in words. */
const LAST_RUN: Record<RunView['result'], string> = { running: 'Running since', ran: 'Ran', failed: 'Failed', stopped: 'Stopped' };

function FlowRow({ flow, last, cards }: { flow: FlowView; last: RunView | undefined; cards: CardsByKind }): JSX.Element {
  const [editing, setEditing] = useState<Draft | null>(null);
  const [showLog, setShowLog] = useState(false);
  const a = useAction();
  if (editing) return <FlowEditor initial={editing} onDone={() => setEditing(null)} />;
  return (
    <li class="flow" data-testid={`flow-${flow.name}`}>
      <div class="flow-head">
        <Switch
          class="inline switch"
          checked={flow.enabled}
          ariaLabel={`${flow.name} is on`}
          testId="flow-enabled"
          onChange={(enabled) =>
            void a.run(async () => {
              await call('flow', 'updateFlow', { params: { id: flow.id }, body: { enabled } });
            })
          }
        >
          <strong>{flow.name}</strong>
        </Switch>
        {flow.broken ? (
          <span class="error" data-testid="flow-broken">
            Broken: {flow.brokenReason}
          </span>
        ) : null}
        {last ? (
          <span class={last.result === 'ran' || last.result === 'running' ? 'muted' : 'error'} data-testid="flow-last">
            {LAST_RUN[last.result]} {formatTime(last.started)}
            {last.error ? `: ${last.error}` : ''}
          </span>
        ) : null}
        {flow.triggerable && !flow.broken ? (
          <ActionButton label="Start" testId="flow-start" onRun={() => call('flow', 'triggerFlow', { params: { id: flow.id } })} />
        ) : null}
        <button type="button" aria-expanded={showLog} onClick={() => setShowLog(!showLog)} data-testid="flow-show-log">
          Log
        </button>
        <button type="button" onClick={() => setEditing(draftOf(flow))} data-testid="flow-edit">
          Edit
        </button>
        <ActionButton label="Delete" confirm={`Delete the flow ${flow.name}?`} onRun={() => call('flow', 'deleteFlow', { params: { id: flow.id } })} />
      </div>
      <p class="muted small flow-sentence" data-testid="flow-sentence">
        {flowSentence(flow, cards)}
      </p>
      <Err msg={a.error} />
      {showLog ? <FlowLog id={flow.id} version={last ? Date.parse(last.started) : 0} /> : null}
    </li>
  );
}

export function FlowsPage(): JSX.Element {
  const flows = useLoad(() => call('flow', 'getFlows'));
  const folders = useLoad(() => call('flow', 'getFlowFolders'));
  const cards = useLoad<CardsByKind>(loadFlowCards);
  useLiveCollection('flow', 'flow', flows);
  useLiveCollection('flow', 'flowfolder', folders);
  const [last, setLast] = useState<Record<string, RunView>>({});
  const [creating, setCreating] = useState(false);
  useEffect(() => {
    // Each flow's last run since the hub started, then every run as it comes (the newer wins).
    const load = (): void =>
      void call('flow', 'getFlowLastRuns').then(
        (runs) =>
          setLast((prev) => {
            const next = { ...prev };
            for (const [flow, run] of Object.entries(runs)) if (!next[flow] || next[flow].started < run.started) next[flow] = run;
            return next;
          }),
        () => undefined,
      );
    load();
    return subscribe(
      'flow',
      (e) => {
        if (e.name === 'flowrun.create') {
          const [run] = e.args;
          setLast((prev) => ({ ...prev, [run.flow]: run }));
        }
      },
      load,
    );
  }, []);
  if (flows.error) return <Err msg={flows.error} />;
  if (!flows.data) return <p class="muted">Loading…</p>;
  const all = Object.values(flows.data).sort((a, b) => a.name.localeCompare(b.name));
  const groups: Array<{ folder: FolderView | null; flows: FlowView[] }> = [
    { folder: null, flows: all.filter((f) => !f.folder || !folders.data?.[f.folder]) },
    ...Object.values(folders.data ?? {})
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((folder) => ({ folder, flows: all.filter((f) => f.folder === folder.id) })),
  ];
  return (
    <>
      <header class="page-head">
        <h1>Flows</h1>
        <button type="button" class="primary" data-testid="new-flow" onClick={() => setCreating(true)}>
          New flow
        </button>
      </header>
      {creating ? <FlowEditor initial={draftOf(null)} onDone={() => setCreating(false)} /> : null}
      {all.length === 0 && !creating ? (
        <Card>
          <p data-testid="no-flows">
            No flows yet. A flow does something when something happens: "when the wind starts, close the blinds". Press <b>New flow</b> to make one from the
            cards your apps and devices bring.
          </p>
        </Card>
      ) : null}
      {groups.map(({ folder, flows: here }) =>
        here.length === 0 ? null : (
          <section key={folder?.id ?? 'none'} class="folder">
            {folder ? <h2>{folder.name}</h2> : null}
            <ul class="plain">
              {here.map((f) => (
                <FlowRow key={f.id} flow={f} last={last[f.id]} cards={cards.data ?? NO_CARDS} />
              ))}
            </ul>
          </section>
        ),
      )}
    </>
  );
}
