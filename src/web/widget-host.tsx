/**
 * One placed widget: its app widget's page in a sandboxed iframe (opaque origin, so it never
 * sees the signed-in token), and the host half of Homey's widget API (/homey-widget.js) for it:
 * `Homey.api` becomes a call of the widget's Web API with the token and the instance header,
 * `Homey.on` hears the app's realtime channel, the theme follows the dashboard's, and the page
 * is hidden until it calls `Homey.ready()` (or 10 s after it loaded, if it never does).
 */
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { DEVICE_TILE } from '../home/device-choice.js';
import { seg } from './api.js';
import { DeviceWidget } from './device-widget.js';
import type { DeviceView } from './live-devices.js';
import { callAppApi, openUrl, useHostedPage, useShownWhenReady } from './page-host.js';
import { contextHash, type Height, type PageCall } from './page-protocol.js';
import { currentTheme } from './theme.js';
import type { AppWidget } from './types.js';

export type { AppWidget } from './types.js';

/** A widget on a dashboard as the page edits it: `height: null` clears an override before saving. */
export interface PlacedWidget {
  id: string;
  appWidgetId: string;
  settings?: Record<string, unknown>;
  /** The devices chosen for it (widgets with a devices picker), in order. */
  devices?: string[];
  height?: number | string | null;
  missing?: boolean;
}

/** The header that tells the widget's Web API which placed widget calls (Homey.getWidgetInstanceId). */
const INSTANCE_HEADER = 'X-Hearth-Widget-Instance';

/** px for a number; a percentage is of the widget's width (as an aspect ratio). */
function sizeStyle(height: Height | null | undefined): Record<string, string> {
  if (typeof height === 'number') return { height: `${height}px` };
  if (typeof height === 'string' && /^\d+%$/.test(height)) return { aspectRatio: `100 / ${parseInt(height, 10) || 50}` };
  return { height: '150px' };
}

/** The placed widget's settings with the app widget's defaults filled in, as Homey.getSettings() gives them. */
function settingsOf(widget: PlacedWidget, appWidget: AppWidget): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const def of appWidget.settings) {
    if (typeof def.id === 'string' && def.default !== undefined && def.default !== null) out[def.id] = def.default;
  }
  return { ...out, ...widget.settings };
}

function answer(call: PageCall, widget: PlacedWidget, appWidget: AppWidget, frameSrc: string): Promise<unknown> {
  const [appId, widgetId] = appWidget.id.split(':') as [string, string];
  switch (call.op) {
    case 'api':
      return callAppApi(`/api/app/${seg(appId)}/widgets/${seg(widgetId)}`, call.method, call.path, call.body, { [INSTANCE_HEADER]: widget.id });
    case 'open':
      openUrl(call.url, frameSrc);
      return Promise.resolve(null);
    default:
      return Promise.reject(new Error(`a widget cannot use ${call.op}; that is for settings pages and pairing views`));
  }
}

export function WidgetFrame(props: { widget: PlacedWidget; appWidget: AppWidget | undefined; devices: Record<string, DeviceView> }): JSX.Element {
  if (props.widget.appWidgetId === DEVICE_TILE) return <DeviceWidget ids={props.widget.devices} devices={props.devices} />;
  return <AppWidgetFrame {...props} />;
}

function AppWidgetFrame({
  widget,
  appWidget,
  devices,
}: {
  widget: PlacedWidget;
  appWidget: AppWidget | undefined;
  devices: Record<string, DeviceView>;
}): JSX.Element {
  const frame = useRef<HTMLIFrameElement>(null);
  // The height the page asked for with ready({height}) or setHeight(); null: the manifest's.
  const [asked, setAsked] = useState<Height | null>(null);
  // The theme goes in the URL once (for the first paint); changes follow as messages.
  const [theme] = useState(currentTheme);
  const appId = appWidget?.ownerId ?? '';
  const src = appWidget
    ? `/app/${seg(appId)}/widgets/${seg(appWidget.id.split(':')[1] ?? '')}/${contextHash({
        id: widget.id,
        settings: settingsOf(widget, appWidget),
        // Only those that still exist: a device deleted since is no id the page can use.
        ...(appWidget.devices ? { devices: (widget.devices ?? []).filter((id) => devices[id]) } : {}),
        theme,
        ...(appWidget.transparent ? { transparent: true } : {}),
      })}`
    : '';
  const { shown, ready, loaded } = useShownWhenReady(src);

  const tellTheme = useHostedPage(frame, appId, {
    answer: (call) =>
      appWidget ? answer(call, widget, appWidget, new URL(src, location.href).href) : Promise.reject(new Error('this widget is not installed')),
    onReady: (height) => {
      ready();
      if (height !== undefined) setAsked(height);
    },
    onHeight: setAsked,
  });

  if (!appWidget || widget.missing) {
    return <div class="widget missing">This widget's app ({widget.appWidgetId.split(':')[0]}) is not installed.</div>;
  }
  // The person's height override wins over what the page asks for.
  const height = widget.height ?? asked ?? appWidget.height;
  return (
    // The frame (card colours, border, radius) follows the web app's theme; the page inside follows
    // it too (homey.css under .homey-dark-mode), so a widget is never a white box on a dark page.
    <div
      class={`widget-slot widget-frame${appWidget.transparent ? ' transparent' : ''}`}
      data-state={shown ? 'ready' : 'loading'}
      data-testid={`slot-${widget.id}`}
    >
      <iframe
        ref={frame}
        class={appWidget.transparent ? 'widget transparent' : 'widget'}
        title={appWidget.name}
        src={src}
        key={src}
        sandbox="allow-scripts allow-forms"
        loading="lazy"
        style={sizeStyle(height)}
        data-testid={`widget-${widget.id}`}
        onLoad={() => {
          loaded();
          tellTheme();
        }}
      />
    </div>
  );
}
