/**
 * The drivers of the installed apps, as the Web API shows them, read from each app's manifest.
 */
import type { AppRuntime } from '../../apps/host/runtime.js';
import { radioOf } from '../../apps/manifest/drivers.js';
import { textOf } from '../../apps/manifest/manifest.js';
import type { DEVICE_APP_CALLS } from '../../apps/wire/device-calls.js';
import type { AppCallArgs, AppCallResult } from '../../apps/wire/protocol.js';
import { notFound } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import { appOwnerUri } from '../../core/owners.js';
import { driverUri } from '../devices/views.js';
import type { DriverView } from './contract.js';

type View = {
  id: string;
  template?: string | undefined;
  navigation?: { next?: string | undefined; prev?: string | undefined } | undefined;
  options?: Record<string, unknown> | undefined;
};
const views = (list: readonly View[] | undefined) =>
  (list ?? []).map((v) => ({
    id: v.id,
    template: v.template ?? null,
    next: v.navigation?.next ?? null,
    prev: v.navigation?.prev ?? null,
    options: v.options ?? {},
  }));

/** The default pairing of a driver that declares none: list the devices, then add them. */
const DEFAULT_PAIR = [
  { id: 'list_devices', template: 'list_devices', next: 'add_devices', prev: null, options: {} },
  { id: 'add_devices', template: 'add_devices', next: null, prev: null, options: {} },
];

export interface FoundDriver {
  view: DriverView;
  appId: string;
  localId: string;
}

/** The apps runtime as the driver catalog sees it (AppRuntime fits). */
export type DriverApps = Pick<AppRuntime, 'list' | 'manifest' | 'calls'>;

export class DriverCatalog {
  constructor(private readonly runtime: DriverApps) {}

  list(language = 'en'): Record<string, DriverView> {
    const out = nullRecord<DriverView>();
    for (const found of this.all(language)) out[found.view.id] = found.view;
    return out;
  }

  private all(language: string): FoundDriver[] {
    const rt = this.runtime;
    return Object.values(rt.list()).flatMap((app) => {
      const manifest = rt.manifest(app.id);
      return (manifest?.drivers ?? []).map((d) => {
        const radio = radioOf(d);
        const id = driverUri(app.id, d.id);
        const unpairable = radio ? `it needs a ${radio} radio, which hearth has not` : app.state !== 'running' ? `its app ${app.name} is not running` : null;
        const view: DriverView = {
          id,
          uri: id,
          name: d.name === undefined ? d.id : textOf(d.name, language),
          ownerUri: appOwnerUri(app.id),
          ownerId: app.id,
          class: d.class,
          capabilities: d.capabilities,
          pair: d.pair ? views(d.pair) : DEFAULT_PAIR,
          repair: views(d.repair),
          unpairable,
          deprecated: d.deprecated === true,
        };
        return { view, appId: app.id, localId: d.id };
      });
    });
  }

  get(id: string, language = 'en'): FoundDriver {
    const found = this.all(language).find((d) => d.view.id === id);
    if (!found) throw notFound(`driver '${id}' does not exist (its id is homey:app:<appId>:<driverId>)`);
    return found;
  }

  call<M extends keyof typeof DEVICE_APP_CALLS>(appId: string, method: M, args: AppCallArgs<M>, timeoutMs: number): Promise<AppCallResult<M>> {
    return this.runtime.calls.device(appId, method, args, timeoutMs);
  }
}
