/**
 * The hub's own widget (`hearth:device`): one device as its tile, drawn here rather than in a
 * frame (it is no app's page): its quick action and a control per capability, live. Offered in
 * Arrange beside the apps' widgets, as an app widget would be.
 */
import type { JSX } from 'preact';
import { DEVICE_TILE } from '../home/device-choice.js';
import type { DeviceView } from './live-devices.js';
import { DeviceTile } from './pages/device-tile.js';
import type { AppWidget } from './types.js';

export const DEVICE_TILE_WIDGET: AppWidget = {
  id: DEVICE_TILE,
  ownerId: 'hearth',
  ownerUri: 'homey:manager:devices',
  ownerName: 'hearth',
  name: 'Device',
  settings: [],
  height: null,
  transparent: true,
  deprecated: false,
  devices: { type: 'global', singular: true },
  preview: { light: null, dark: null },
};

export function DeviceWidget({ ids, devices }: { ids: readonly string[] | undefined; devices: Record<string, DeviceView> }): JSX.Element {
  const id = ids?.[0];
  const device = id ? devices[id] : undefined;
  if (!device) {
    return (
      <div class="widget missing" data-testid="device-widget-empty">
        {id ? 'This device was deleted (or this sign-in cannot see devices).' : 'No device chosen: use Arrange to choose one.'}
      </div>
    );
  }
  return (
    <div class="widget-slot device-widget" data-testid={`device-widget-${device.name}`}>
      <DeviceTile device={device} menu={<span />} />
    </div>
  );
}
