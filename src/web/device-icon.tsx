/**
 * A device's picture on a tile: its app's icon for it (the device's own, else its driver's),
 * drawn in the tile's colour (as a mask, the way Homey draws its apps' line icons), or the icon of
 * its class when the app ships none.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { DeviceView } from '../managers/devices/views.js';
import { iconUrl } from './device-look.js';
import { classIcon, Icon } from './icons.js';

/** Icons that did not load, so no tile asks again for one its app does not ship. */
const missing = new Set<string>();

export function DeviceIcon({ device }: { device: DeviceView }): JSX.Element {
  const url = iconUrl(device);
  const [failed, setFailed] = useState(() => url === null || missing.has(url));
  if (failed || url === null) {
    return (
      <span class="device-icon" data-icon="class">
        <Icon name={classIcon(device.virtualClass ?? device.class, device.capabilities)} size={30} />
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
