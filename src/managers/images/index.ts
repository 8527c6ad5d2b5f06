/**
 * Images: what apps show for their devices (album art, camera pictures) through Homey's images
 * SDK (service.ts), their content served on request. The devices manager lists each device's
 * images in its view; the apps' SDK calls are served on the runtime's router while it runs.
 */
import { notFound } from '../../core/errors.js';
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { AppsPort } from '../apps/port.js';
import { appEventOf } from '../bus.js';
import type { ManagerContext } from '../context.js';
import type { DevicesService } from '../devices/service.js';
import type { ZoneReach } from '../zones/reach.js';
import { imagesContract } from './contract.js';
import { imagesOperations } from './operations.js';
import { ImagesService } from './service.js';

export class ImagesManager implements Manager {
  readonly name = imagesContract.name;
  readonly contract = imagesContract;
  readonly operations: readonly Operation[];
  readonly service: ImagesService;
  private off: Array<() => void> = [];

  constructor(
    private readonly ctx: ManagerContext,
    private readonly devices: DevicesService,
    private readonly apps: AppsPort<'calls'>,
    reach: ZoneReach,
  ) {
    const service = (this.service = new ImagesService({
      content: (appId, id, timeoutMs) => apps.calls.device(appId, 'image.content', { id }, timeoutMs),
    }));
    devices.imagesOf = (id) => service.of(id);
    service.onDeviceImages = (id, before) => devices.imagesChanged(id, before);
    this.operations = imagesOperations(
      service,
      (token, id) => !reach.limited(token) || service.shownOn(id).some((d) => devices.has(d) && reach.zone(token, devices.record(d).zone)),
    );
  }

  async start(): Promise<void> {
    const s = this.service;
    const { router } = this.apps;
    this.off.push(
      router.handle('image.register', (app, { id }) => s.register(app.id, id)),
      router.handle('image.set', (app, { id, source, url }) => s.set(app.id, id, source, url)),
      router.handle('image.update', (app, { id }) => s.update(app.id, id)),
      router.handle('image.unregister', (app, { id }) => s.unregister(app.id, id)),
      router.handle('device.setImage', (app, { id, slot, type, title, image }) => {
        const record = this.devices.has(id) ? this.devices.record(id) : null;
        if (!record || record.appId !== app.id) throw notFound(`the app has no device '${id}'`);
        return s.show(app.id, id, { slot, type, title, image });
      }),
      this.ctx.bus.on('apps', (e) => {
        const app = appEventOf(e);
        if (app?.gone) this.service.appGone(app.id);
      }),
      this.ctx.bus.on('devices', (e) => {
        if (e.event === 'device.delete') this.service.deviceGone(e.args[0].id);
      }),
    );
  }

  async stop(): Promise<void> {
    for (const f of this.off) f();
    this.off = [];
  }
}
