/**
 * A device's picture on a tile: its app's icon for it (the device's own, else its driver's),
 * drawn in the tile's colour (as a mask, the way Homey draws its apps' line icons), or the icon of
 * its class when the app ships none. The same picture, by any url, for an app's flow cards.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { DeviceView } from '../managers/devices/views.js';
import { iconUrl } from './device-look.js';
import { classIcon, Icon, type IconName } from './icons.js';

/** Icons that did not load, so no tile asks again for one its app does not ship. */
const missing = new Set<string>();

/** An app's line icon at `url` in the current colour, or `fallback` when there is none. */
export function MaskIcon({ url, fallback, size = 30 }: { url: string | null; fallback: IconName; size?: number }): JSX.Element {
  const [failed, setFailed] = useState(() => url === null || missing.has(url));
  if (failed || url === null) {
    return (
      <span class="device-icon" data-icon="class">
        <Icon name={fallback} size={size} />
      </span>
    );
  }
  const mask = `url("${url}")`;
  return (
    <span class="device-icon app" data-icon="app" style={{ maskImage: mask, WebkitMaskImage: mask }}>
      {/* Loads the same picture to hear whether there is one: a mask that fails draws nothing. */}
      <img
        src={url}
        alt=""
        hidden
        onError={() => {
          missing.add(url);
          setFailed(true);
        }}
      />
    </span>
  );
}

export function DeviceIcon({ device, size }: { device: DeviceView; size?: number }): JSX.Element {
  return <MaskIcon url={iconUrl(device)} fallback={classIcon(device.virtualClass ?? device.class, device.capabilities)} size={size} />;
}
