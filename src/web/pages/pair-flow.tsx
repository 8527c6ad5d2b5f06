/**
 * One pairing, view by view, as the driver declares them (its `pair` in app.json): Homey's system
 * views drawn by the web app (pair-views.tsx), and the app's own views (`drivers/<id>/pair/<view>.html`)
 * in a sandboxed frame with Homey's pairing API (/homey-pair.js), answered here. The driver moves
 * the pairing too (its session's showView, nextView, prevView, done), and what it emits reaches
 * the app's view: both arrive as pairsession.update events, each message once.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DriverView, PairSessionView } from '../../managers/drivers/contract.js';
import { seg } from '../api.js';
import { call, subscribe } from '../client.js';
import { openUrl, useHostedPage } from '../page-host.js';
import { contextHash, type PageCall, PROTOCOL } from '../page-protocol.js';
import { currentTheme } from '../theme.js';
import { Err } from '../ui.js';
import { type Offered, systemView } from './pair-views.js';

interface Props {
  session: PairSessionView;
  driver: DriverView;
  zone: string;
  onFinish(added: string[]): void;
}

export function PairFlow({ session, driver, zone, onFinish }: Props): JSX.Element {
  // A repair follows the driver's repair views.
  const views = session.type === 'repair' ? driver.repair : driver.pair;
  const [viewId, setViewId] = useState(session.view ?? views[0]?.id ?? null);
  const [title, setTitle] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<Offered[]>([]);
  const [error, setError] = useState<string | null>(null);
  const added = useRef<string[]>([]);
  const finished = useRef(false);
  const frame = useRef<HTMLIFrameElement>(null);
  const seen = useRef(0);
  // What the driver emitted to the views: the last of each event, and who listens (system views).
  const lastEmit = useRef(new Map<string, unknown>());
  const listeners = useRef(new Map<string, Set<(data: unknown) => void>>());
  const on = (event: string, handler: (data: unknown) => void): (() => void) => {
    const set = listeners.current.get(event) ?? new Set();
    listeners.current.set(event, set.add(handler));
    if (lastEmit.current.has(event)) handler(lastEmit.current.get(event));
    return () => set.delete(handler);
  };
  const view = views.find((v) => v.id === viewId) ?? null;

  const finish = (): void => {
    if (finished.current) return;
    finished.current = true;
    onFinish(added.current);
  };
  const go = (to: string | null | undefined): void => {
    if (!to) finish();
    else setViewId(to);
  };
  const at = views.findIndex((v) => v.id === viewId);
  const next = (): void => go(view?.next ?? views[at + 1]?.id);
  const prev = (): void => go(view?.prev ?? views[at - 1]?.id ?? viewId);
  const emit = (event: string, data?: unknown): Promise<unknown> =>
    call('drivers', 'emitPairingEvent', { params: { id: session.id }, body: { event, ...(data === undefined ? {} : { data }) } });
  const add = async (device: Offered): Promise<void> => {
    const made = await call('drivers', 'createPairSessionDevice', { params: { id: session.id }, body: device });
    added.current = [...added.current, made.name];
  };

  // Homey tells the driver of each view shown (its 'showView' handler); an app's own view once it has loaded.
  const shown = (id: string): void => void emit('showView', id).catch(() => undefined);
  useEffect(() => {
    if (view?.template) shown(view.id);
  }, [viewId]);

  // What the driver does on its side: moves, the end, and events for the views; each message once.
  const take = (updated: PairSessionView): void => {
    for (const m of updated.toView.filter((m) => m.seq > seen.current)) {
      seen.current = m.seq;
      if (m.kind === 'emit' && m.event) {
        lastEmit.current.set(m.event, m.data);
        for (const h of listeners.current.get(m.event) ?? []) h(m.data);
        frame.current?.contentWindow?.postMessage({ protocol: PROTOCOL, event: m.event, args: [m.data] }, '*');
      } else if (m.kind === 'done') finish();
      else setViewId(updated.view);
    }
  };
  useEffect(() => {
    // What the driver sent before this page listened (its onPair runs as the session is made),
    // and again whenever the socket opens late or anew: what it sent meanwhile came to no one.
    const load = (): void => void call('drivers', 'getPairSession', { params: { id: session.id } }).then(take, () => undefined);
    const off = subscribe(
      'drivers',
      (e) => {
        if (e.name === 'pairsession.update' && e.args[0].id === session.id) take(e.args[0]);
      },
      load,
    );
    load();
    return off;
  }, [session.id]);

  if (!view) return <Err msg={`${driver.name} declares no pairing view '${viewId ?? ''}'`} />;
  const System = view.template ? systemView(view.template) : null;
  return (
    <div class="pair-flow" data-testid={`pair-view-${view.id}`}>
      {title ? <h3>{title}</h3> : null}
      {loading ? <p role="status">Working…</p> : null}
      {view.template && !System ? (
        <p data-testid="pair-unsupported">
          {driver.name} signs in through {view.template}, which hearth's web app does not show yet. A script can pair it through the drivers Web API.
        </p>
      ) : System ? (
        <System
          key={view.id}
          options={view.options}
          emit={emit}
          next={next}
          picked={picked}
          setPicked={setPicked}
          add={add}
          done={finish}
          on={on}
          oauth2={(url) => call('drivers', 'deliverPairOAuth2', { params: { id: session.id }, body: { url } })}
        />
      ) : (
        <CustomView key={view.id} frame={frame} driver={driver} viewId={view.id} answer={(c) => answerCall(c)} loaded={() => shown(view.id)} />
      )}
      <Err msg={error} />
    </div>
  );

  async function answerCall(c: PageCall): Promise<unknown> {
    setError(null);
    switch (c.op) {
      case 'pair.emit':
        return emit(c.event, c.data);
      case 'pair.view':
        if (c.kind === 'showView') go(c.view);
        else if (c.kind === 'nextView') next();
        else if (c.kind === 'prevView') prev();
        else finish();
        return null;
      case 'pair.createDevice':
        await add(c.device as Offered);
        return null;
      case 'pair.options':
        return views.find((v) => v.id === (c.view ?? viewId))?.options ?? {};
      case 'pair.zone':
        return zone;
      case 'pair.title':
        setTitle(c.title);
        return null;
      case 'pair.loading':
        setLoading(c.shown);
        return null;
      case 'alert':
        window.alert(c.message);
        return null;
      case 'confirm':
        return window.confirm(c.message);
      case 'open':
        openUrl(c.url, location.href);
        return null;
      default:
        throw new Error(`a pairing view cannot ${c.op}`);
    }
  }
}

interface CustomViewProps {
  frame: { current: HTMLIFrameElement | null };
  driver: DriverView;
  viewId: string;
  answer: (c: PageCall) => Promise<unknown>;
  loaded: () => void;
}

function CustomView(p: CustomViewProps): JSX.Element {
  const localId = p.driver.id.slice(p.driver.id.lastIndexOf(':') + 1);
  const [theme] = useState(currentTheme);
  const src = `/app/${seg(p.driver.ownerId)}/drivers/${seg(localId)}/pair/${seg(p.viewId)}.html${contextHash({ theme })}`;
  const tellTheme = useHostedPage(p.frame, p.driver.ownerId, { answer: p.answer, onReady: () => undefined, onHeight: () => undefined });
  return (
    <iframe
      ref={p.frame}
      class="pair-view"
      title={`${p.driver.name}: ${p.viewId}`}
      src={src}
      sandbox="allow-scripts allow-forms"
      data-testid="pair-frame"
      onLoad={() => {
        tellTheme();
        p.loaded();
      }}
    />
  );
}
