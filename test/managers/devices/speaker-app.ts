/**
 * A speaker app with pictures, written from Homey's Images docs: album art written into a stream on
 * demand (setStream) and updated when the next track is asked for, a camera picture from a file of
 * the app's (setPath: a page, not a picture) and one at a URL (setUrl).
 */
import type { RunningHub } from '../../helpers/hub.js';
import { writeHomeyApp } from '../../homey/apps.js';

export const APP = 'com.example.speaker';
export const DRIVER = `homey:app:${APP}:speaker`;

const DEVICE_JS = `'use strict';
const Homey = require('homey');
const fs = require('fs');
const path = require('path');

module.exports = class SpeakerDevice extends Homey.Device {
  async onInit() {
    this.cover = 1;
    this.albumArt = await this.homey.images.createImage();
    this.albumArt.setStream(async (stream) => {
      const file = path.join(__dirname, '..', '..', 'assets', 'cover-' + this.cover + '.png');
      fs.createReadStream(file).pipe(stream);
    });
    await this.setAlbumArtImage(this.albumArt);

    const snapshot = await this.homey.images.createImage();
    snapshot.setPath('assets/not-an-image.html');
    await this.setCameraImage('door', 'Front door', snapshot);

    const remote = await this.homey.images.createImage();
    remote.setUrl('https://example.com/camera.jpg');
    await this.setCameraImage('street', 'Street', remote);

    this.registerCapabilityListener('speaker_next', async () => {
      this.cover = 2;
      await this.albumArt.update();
    });
  }
};
`;

/** Writes the app; its covers are `cover1` and, after the next track, `cover2`. */
export async function writeSpeakerApp(appsDir: string, cover1: Buffer, cover2: Buffer): Promise<void> {
  await writeHomeyApp(appsDir, APP, {
    json: {
      drivers: [{ id: 'speaker', name: { en: 'Speaker' }, class: 'speaker', capabilities: ['speaker_next'], connectivity: ['lan'] }],
    },
    files: {
      'app.js': "const Homey = require('homey');\nmodule.exports = class extends Homey.App {};\n",
      'drivers/speaker/driver.js':
        "const Homey = require('homey');\nmodule.exports = class extends Homey.Driver { async onPairListDevices() { return [{ name: 'Kitchen', data: { id: 'k' } }]; } };\n",
      'drivers/speaker/device.js': DEVICE_JS,
      'assets/cover-1.png': cover1,
      'assets/cover-2.png': cover2,
      'assets/not-an-image.html': '<script>alert(document.cookie)</script>',
    },
  });
}

/** Pairs the speaker ('Kitchen') headless. */
export async function pairSpeaker(hub: RunningHub): Promise<void> {
  const session = await hub.call<{ id: string }>('POST', '/api/manager/drivers/pairsession', { body: { driverId: DRIVER } });
  const listed = await hub.call<unknown[]>('POST', `/api/manager/drivers/pairsession/${session.body.id}/emit`, { body: { event: 'list_devices' } });
  await hub.call('POST', `/api/manager/drivers/pairsession/${session.body.id}/device`, { body: listed.body[0] });
  await hub.call('DELETE', `/api/manager/drivers/pairsession/${session.body.id}`);
}
