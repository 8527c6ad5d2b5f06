/** A WebSocket client of an event namespace (a manager's, or an app's realtime channel) that collects the frames it receives. */
import WebSocket from 'ws';

export interface EventFrame {
  event: string;
  args: unknown[];
}

export interface EventClient {
  readonly socket: WebSocket;
  readonly frames: EventFrame[];
  /** Resolves with the first frame (already received or still to come) that matches. */
  next(match: (f: EventFrame) => boolean, timeoutMs?: number): Promise<EventFrame>;
  close(): void;
}

/** Opens a manager's namespace; rejects with the HTTP status when the upgrade is refused. */
export function openEvents(wsUrl: string, manager: string, token: string | null, via: 'header' | 'query' = 'header'): Promise<EventClient> {
  return openPath(wsUrl, `/api/manager/${manager}`, token, via);
}

/** Opens an app's realtime channel (`this.homey.api.realtime`, settings changes). */
export function openAppEvents(wsUrl: string, appId: string, token: string | null): Promise<EventClient> {
  return openPath(wsUrl, `/api/app/${appId}`, token, 'query');
}

function openPath(wsUrl: string, path: string, token: string | null, via: 'header' | 'query'): Promise<EventClient> {
  const url = `${wsUrl}${path}${token && via === 'query' ? `?token=${encodeURIComponent(token)}` : ''}`;
  const headers = token && via === 'header' ? { authorization: `Bearer ${token}` } : undefined;
  const socket = new WebSocket(url, { headers });
  const frames: EventFrame[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)) as EventFrame);
    for (const w of waiters) w();
  });
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        socket,
        frames,
        next(match, timeoutMs = 5000) {
          return new Promise((res, rej) => {
            const check = (): boolean => {
              const found = frames.find(match);
              if (found) {
                waiters.delete(onFrame);
                clearTimeout(timer);
                res(found);
              }
              return found !== undefined;
            };
            const onFrame = (): void => void check();
            const timer = setTimeout(() => {
              waiters.delete(onFrame);
              rej(new Error(`no matching event; got ${JSON.stringify(frames)}`));
            }, timeoutMs);
            if (!check()) waiters.add(onFrame);
          });
        },
        close: () => socket.close(),
      }),
    );
  });
}
