/**
 * Device images, in an app written from Homey's Images docs: album art written into a stream on
 * demand (setStream) and updated, a camera picture from a file of the app's (setPath) and one at
 * a URL (setUrl). Clients find them in the device's `images` and fetch their content from the
 * hub; what is not an image is never served as one, and an app reaches only its own devices.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, ROOT, type RunningHub, startHub, tempDir } from '../../helpers/hub.js';
import { poll } from '../../helpers/poll.js';
import { waitAppRunning } from '../dashboards/helpers.js';
import { APP, pairSpeaker, writeSpeakerApp } from './speaker-app.js';

let hub: RunningHub;
let png1: Buffer;
let png2: Buffer;

interface Image {
  id: string;
  type: string;
  title: string | null;
  imageObj: { id: string; url: string; lastUpdated: string };
}
interface Device {
  id: string;
  images: Image[];
}

beforeAll(async () => {
  // A real PNG of the repository's, and another byte for byte: the app serves them as its covers.
  png1 = await readFile(join(ROOT, 'docs/images/apps-light.png'));
  png2 = Buffer.from(png1);
  png2[png2.length - 20] = png2[png2.length - 20]! ^ 1;
  const appsDir = await tempDir('hearth-images-');
  await writeSpeakerApp(appsDir, png1, png2);
  hub = await startHub({ appsDir });
  await waitAppRunning(hub, APP);
  await pairSpeaker(hub);
}, 60_000);

afterAll(async () => {
  await hub?.stop();
  await hub?.cleanup();
});

const speaker = async (): Promise<Device> => Object.values((await hub.call<Record<string, Device>>('GET', '/api/manager/devices/device')).body)[0]!;
const content = (url: string): Promise<Response> => fetch(`${hub.url}${url}`, { headers: { authorization: `Bearer ${OWNER}` }, redirect: 'manual' });

describe('device images', () => {
  it('lists the images a device shows, with their slots, and serves the album art its app writes', async () => {
    const device = await poll(speaker, (d) => d.images.length === 3, 'the device to show its images');
    expect(device.images.map((i) => [i.id, i.type, i.title])).toEqual([
      ['albumart', 'media', null],
      ['door', 'camera', 'Front door'],
      ['street', 'camera', 'Street'],
    ]);
    const art = await content(device.images[0]!.imageObj.url);
    expect([art.status, art.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await art.arrayBuffer()).equals(png1)).toBe(true);
    const listed = await hub.call<Record<string, { ownerUri: string }>>('GET', '/api/manager/images/image');
    expect(Object.values(listed.body).map((i) => i.ownerUri)).toEqual([`homey:app:${APP}`, `homey:app:${APP}`, `homey:app:${APP}`]);
  });

  it('serves a URL image as a redirect to it, and what is not an image as a download, never as a page', async () => {
    const device = await speaker();
    // Its own URL, for a client to fetch; the hub's content path answers with a redirect to it.
    expect(device.images[2]!.imageObj.url).toBe('https://example.com/camera.jpg');
    const street = await content(`/api/manager/images/image/${device.images[2]!.imageObj.id}/content`);
    expect([street.status, street.headers.get('location')]).toEqual([302, 'https://example.com/camera.jpg']);
    const door = await content(device.images[1]!.imageObj.url);
    expect(door.status).toBe(200);
    expect(door.headers.get('content-type')).toBe('application/octet-stream');
    expect(door.headers.get('content-disposition')).toContain('attachment');
    expect(door.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('tells clients when the app updates an image (device.update), and serves its new content', async () => {
    const before = (await speaker()).images[0]!.imageObj.lastUpdated;
    expect((await hub.call('PUT', `/api/manager/devices/device/${(await speaker()).id}/capability/speaker_next`, { body: { value: true } })).status).toBe(200);
    const after = await poll(speaker, (d) => d.images[0]!.imageObj.lastUpdated !== before, 'the album art to be updated');
    const art = await content(after.images[0]!.imageObj.url);
    expect(Buffer.from(await art.arrayBuffer()).equals(png2)).toBe(true);
  });

  it('answers 404 for an image that does not exist, and keeps images from a token that cannot read devices', async () => {
    expect((await content('/api/manager/images/image/00000000-0000-0000-0000-000000000000/content')).status).toBe(404);
    const device = await speaker();
    const anonymous = await fetch(`${hub.url}${device.images[0]!.imageObj.url}`);
    expect(anonymous.status).toBe(401);
  });
});
