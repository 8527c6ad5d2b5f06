/**
 * The images apps registered (homey.images.createImage) and which devices show which: kept in
 * memory only, as an app makes its images again each time it starts. An app reaches its own
 * images only. The content is the app's to give (image.content) or at its URL; what an app says
 * an image is never decides how the hub serves it: only the first bytes of JPEG, PNG, GIF and WebP
 * make an image type, anything else is an attachment that a browser will not render.
 */
import { conflict, HearthError, notFound } from '../../core/errors.js';
import { imageType } from '../../core/image-type.js';
import { RawResult } from '../../core/operation.js';
import { appOwnerUri } from '../../core/owners.js';
import type { DeviceImageView } from '../devices/views.js';
import type { ImageView } from './contract.js';

/** Images per app, and images per device, at most. */
const PER_APP = 256;
const PER_DEVICE = 16;
const CONTENT_TIMEOUT_MS = 10_000;

interface ImageRecord {
  id: string;
  appId: string;
  source: 'app' | 'url' | null;
  url: string | null;
  lastUpdated: string;
}
interface Shown {
  slot: string;
  type: 'media' | 'camera';
  title: string | null;
  image: string;
}

export interface ImageApps {
  content(appId: string, id: string, timeoutMs: number): Promise<{ base64: string }>;
}

export class ImagesService {
  private readonly images = new Map<string, ImageRecord>();
  private readonly shown = new Map<string, Shown[]>();
  /** Hears that a device's images changed, with what they were before. */
  onDeviceImages: (deviceId: string, before: DeviceImageView[]) => void = () => undefined;

  constructor(private readonly apps: ImageApps) {}

  get count(): number {
    return this.images.size;
  }

  private own(appId: string, id: string): ImageRecord {
    const image = this.images.get(id);
    if (!image || image.appId !== appId) throw notFound(`the app has no image '${id}'`);
    return image;
  }

  register(appId: string, id: string): null {
    if (this.images.has(id)) throw conflict(`image '${id}' exists already`);
    if ([...this.images.values()].filter((i) => i.appId === appId).length >= PER_APP) throw conflict(`an app keeps ${PER_APP} images at most`);
    this.images.set(id, { id, appId, source: null, url: null, lastUpdated: new Date().toISOString() });
    return null;
  }

  set(appId: string, id: string, source: 'app' | 'url', url: string | null): null {
    const image = this.own(appId, id);
    if (source === 'url' && (!url || !/^https?:\/\//i.test(url))) throw new HearthError('invalid_parameter', 'an image URL must be http(s)');
    this.changing(id, () => Object.assign(image, { source, url: source === 'url' ? url : null, lastUpdated: new Date().toISOString() }));
    return null;
  }

  update(appId: string, id: string): null {
    const image = this.own(appId, id);
    this.changing(id, () => {
      image.lastUpdated = new Date().toISOString();
    });
    return null;
  }

  unregister(appId: string, id: string): null {
    this.own(appId, id);
    this.changing(id, () => {
      this.images.delete(id);
      for (const [device, list] of this.shown)
        this.shown.set(
          device,
          list.filter((s) => s.image !== id),
        );
    });
    return null;
  }

  /** A device (already checked to be the app's) shows one of the app's images in `slot`. */
  show(appId: string, deviceId: string, shown: Shown): null {
    this.own(appId, shown.image);
    const before = this.of(deviceId);
    const list = (this.shown.get(deviceId) ?? []).filter((s) => s.slot !== shown.slot);
    if (list.length >= PER_DEVICE) throw conflict(`a device shows ${PER_DEVICE} images at most`);
    this.shown.set(deviceId, [...list, shown]);
    this.onDeviceImages(deviceId, before);
    return null;
  }

  /** Runs a change to image `id` and tells each device that shows it. */
  private changing(id: string, change: () => void): void {
    const devices = [...this.shown].filter(([, list]) => list.some((s) => s.image === id)).map(([d]) => [d, this.of(d)] as const);
    change();
    for (const [device, before] of devices) this.onDeviceImages(device, before);
  }

  /** An app stopped or was removed: its images go (it makes them again when it runs). */
  appGone(appId: string): void {
    for (const image of [...this.images.values()]) if (image.appId === appId) this.unregister(appId, image.id);
  }

  deviceGone(deviceId: string): void {
    this.shown.delete(deviceId);
  }

  /** Where a client gets an image: its own URL, or its content from the hub (with a token). */
  private url = (image: ImageRecord): string => (image.source === 'url' && image.url ? image.url : `/api/manager/images/image/${image.id}/content`);

  /** The devices that show image `id`. */
  shownOn(id: string): string[] {
    return [...this.shown].filter(([, list]) => list.some((s) => s.image === id)).map(([device]) => device);
  }

  /** The images a device shows, as its view lists them. */
  of(deviceId: string): DeviceImageView[] {
    return (this.shown.get(deviceId) ?? []).flatMap((s) => {
      const image = this.images.get(s.image);
      return image ? [{ id: s.slot, type: s.type, title: s.title, imageObj: { id: image.id, url: this.url(image), lastUpdated: image.lastUpdated } }] : [];
    });
  }

  list(): Record<string, ImageView> {
    const out: Record<string, ImageView> = {};
    for (const i of this.images.values()) out[i.id] = { id: i.id, ownerUri: appOwnerUri(i.appId), url: this.url(i), lastUpdated: i.lastUpdated };
    return out;
  }

  async content(id: string): Promise<RawResult> {
    const image = this.images.get(id);
    if (!image) throw notFound(`image '${id}' does not exist`);
    if (image.source === null) throw notFound(`image '${id}' has no content yet`);
    const headers = { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" };
    if (image.source === 'url') return new RawResult('text/plain', new Uint8Array(), 302, { ...headers, location: image.url ?? '' });
    const answer = await this.apps.content(image.appId, id, CONTENT_TIMEOUT_MS);
    const bytes = Buffer.from(answer.base64, 'base64');
    const type = imageType(bytes);
    return new RawResult(type ?? 'application/octet-stream', bytes, 200, {
      ...headers,
      ...(type ? {} : { 'content-disposition': `attachment; filename="${id}"` }),
    });
  }
}
