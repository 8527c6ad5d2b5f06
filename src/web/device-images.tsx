/**
 * The pictures a device shows (its app's album art and camera images): one given by its own URL is
 * shown from there (or not at all, if it cannot be had); one the hub serves is fetched with the signed-in token (an <img> sends none)
 * and shown from memory, again each time its app updates it.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DeviceView } from '../managers/devices/views.js';
import { imageBlob } from './api.js';

type DeviceImage = DeviceView['images'][number];

function Picture({ image, device }: { image: DeviceImage; device: string }): JSX.Element | null {
  const own = /^https?:\/\//i.test(image.imageObj.url);
  const [src, setSrc] = useState<string | null>(own ? image.imageObj.url : null);
  useEffect(() => {
    if (own) return setSrc(image.imageObj.url);
    let url: string | null = null;
    let live = true;
    imageBlob(image.imageObj.url).then(
      (u) => {
        url = u;
        if (live) setSrc(u);
        else URL.revokeObjectURL(u);
      },
      () => live && setSrc(null),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [image.imageObj.url, image.imageObj.lastUpdated]);
  if (!src) return null;
  const alt = image.type === 'media' ? `Album art of ${device}` : `${image.title ?? image.id} (${device})`;
  return <img class={`device-image ${image.type}`} src={src} alt={alt} data-testid={`device-image-${image.id}`} loading="lazy" onError={() => setSrc(null)} />;
}

export function DeviceImages({ device }: { device: DeviceView }): JSX.Element | null {
  if (device.images.length === 0) return null;
  return (
    <div class="device-images">
      {device.images.map((i) => (
        <Picture key={i.id} image={i} device={device.name} />
      ))}
    </div>
  );
}
