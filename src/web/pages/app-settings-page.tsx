/**
 * An app's own settings page (`settings/index.html` of a Homey app, served at
 * /app/<appId>/settings/) at #/apps/<appId>/settings, in a sandboxed iframe, and the host half of
 * Homey's settings-page API (/homey.js) for it: `Homey.get/set/unset` through the app's settings
 * operations, `Homey.api` through the app's Web API, realtime events and settings changes from
 * the app's channel, `alert`/`confirm` as the browser's dialogs.
 */
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { seg } from '../api.js';
import { call as hub, path } from '../client.js';
import { callAppApi, openUrl, useHostedPage, useShownWhenReady } from '../page-host.js';
import { contextHash, type PageCall } from '../page-protocol.js';
import { currentTheme } from '../theme.js';
import type { App } from '../types.js';
import { Card } from '../ui.js';

/** The route of an app's settings page. */
export const settingsRoute = (appId: string): string => `#/apps/${seg(appId)}/settings`;

/** The app id when the location is a settings page route, else null. */
export function settingsRouteApp(hash: string): string | null {
  const m = /^#\/apps\/([^/]+)\/settings$/.exec(hash);
  if (!m?.[1]) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

async function answer(appId: string, call: PageCall, frameSrc: string): Promise<unknown> {
  const app = { params: { id: appId } };
  switch (call.op) {
    case 'settings.get': {
      // One read of all settings (declared defaults included); a key never set is null, as in Homey.
      const all = await hub('apps', 'getAppSettings', app);
      if (call.key === undefined) return all;
      return Object.hasOwn(all, call.key) ? all[call.key] : null;
    }
    case 'settings.set':
      await hub('apps', 'setAppSetting', { params: { id: appId, name: call.key }, body: { value: call.value } });
      return null;
    case 'settings.unset': {
      // The key as a path segment first (path() refuses a key that cannot be one): refused, never skipped.
      const setting = { params: { id: appId, name: call.key } };
      path('apps', 'unsetAppSetting', setting);
      // Homey's unset of a key that was never set is no error; the hub's is a 404.
      const all = await hub('apps', 'getAppSettings', app);
      if (Object.hasOwn(all, call.key)) await hub('apps', 'unsetAppSetting', setting);
      return null;
    }
    case 'api':
      return callAppApi(`/api/app/${seg(appId)}`, call.method, call.path, call.body);
    case 'alert':
      window.alert(call.message);
      return null;
    case 'confirm':
      return window.confirm(call.message);
    case 'open':
      openUrl(call.url, frameSrc);
      return null;
    default:
      throw new Error(`a settings page cannot ${call.op}`);
  }
}

export function AppSettingsPage({ app }: { app: App }): JSX.Element {
  const frame = useRef<HTMLIFrameElement>(null);
  const [theme] = useState(currentTheme);
  const src = `/app/${seg(app.id)}/settings/${contextHash({ theme })}`;
  const { shown, ready, loaded } = useShownWhenReady(src);
  const tellTheme = useHostedPage(frame, app.id, {
    answer: (call) => answer(app.id, call, new URL(src, location.href).href),
    onReady: ready,
    // A settings page scrolls inside its frame; it has no height of its own to ask for.
    onHeight: () => undefined,
  });
  return (
    <Card
      title={`Configure ${app.name}`}
      actions={
        <a href="#/apps" data-testid="back-to-apps">
          Back to apps
        </a>
      }
    >
      {app.state !== 'running' ? <p class="notice">The app is {app.state}: its settings page may not answer until it runs.</p> : null}
      <div class="page-slot" data-state={shown ? 'ready' : 'loading'}>
        <iframe
          ref={frame}
          class="settings-page"
          title={`${app.name}: its own page`}
          src={src}
          sandbox="allow-scripts allow-forms"
          data-testid="settings-page"
          onLoad={() => {
            loaded();
            tellTheme();
          }}
        />
      </div>
    </Card>
  );
}
