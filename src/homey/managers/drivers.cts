/**
 * `this.homey.drivers`: the app's Driver instances and their Device instances. The bootstrap
 * starts them after the app's onInit (SDK v3's order: the app, then each driver's onInit, then
 * its devices' onInit) and hands it the hub's device calls (capability sets, settings, renames,
 * pairing). A driver that needs a radio hearth has not is never made; asking for it says why.
 * A driver's or device's failing onInit is logged and the rest go on: one broken device must not
 * take the app's other devices down.
 */
import type { DeviceState, DiscoveryResult } from '../../apps/wire/device-calls.js' with { 'resolution-mode': 'import' };
import type { AppCallHandlers } from '../../apps/wire/protocol.js' with { 'resolution-mode': 'import' };

/** The hub's device, pairing and discovery calls an app answers here. */
type DeviceCallMethod =
  | 'device.added'
  | 'device.deleted'
  | 'device.renamed'
  | 'device.settings'
  | 'device.capability'
  | 'pair.start'
  | 'pair.emit'
  | 'pair.end'
  | 'discovery.result';

import { radioOf } from '../../apps/wire/radios.cjs';
import type { HomeyContext } from '../context.cjs';
import { changeSettings, constructingDevice, Device, deviceState, markDeviceReady, renamed, setCapabilities } from '../device.cjs';
import { constructingDriver, Driver, driverDevices, markDriverReady } from '../driver.cjs';
import { describeError, HomeyError } from '../errors.cjs';
import type { Homey } from '../homey.cjs';
import { PairSession, receive } from '../pair-session.cjs';
import { Manager } from '../simple-class.cjs';
import { type AnyDiscoveryResult, type DiscoveryStrategy, deliver } from './discovery.cjs';

/** Loads a module of the app (`drivers/<id>/driver.js`): its exports, or null when there is no such file. */
export type ClassLoader = (file: string) => Promise<unknown>;
type DriverEntry = { id: string; [key: string]: unknown };
type Ctor<T> = new (...args: unknown[]) => T;

/** The class a module exports (`module.exports = X`, `export default X`, a transpiled `exports.default`). */
function exportedClass<T>(mod: unknown, Base: abstract new (...args: never[]) => T, file: string): Ctor<T> | null {
  if (mod === null) return null;
  let exported: unknown = (mod as { default?: unknown }).default ?? mod;
  if (typeof exported === 'object' && exported !== null && 'default' in exported) exported = (exported as { default: unknown }).default;
  if (typeof exported !== 'function' || !(exported.prototype instanceof Base || exported === Base)) {
    throw new HomeyError(`${file} must export a class that extends Homey.${Base.name}`, 'invalid_args');
  }
  return exported as Ctor<T>;
}

export class ManagerDrivers extends Manager {
  static ID = 'drivers';
  private readonly drivers = new Map<string, Driver>();
  private readonly deviceClasses = new Map<string, Ctor<Device> | null>();
  private readonly devices = new Map<string, Device>();
  private readonly sessions = new Map<string, PairSession>();
  private homey!: Homey;
  private load!: ClassLoader;

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  private declared(): DriverEntry[] {
    const list = this.ctx.manifest.drivers;
    return Array.isArray(list) ? (list.filter((d) => typeof d?.id === 'string') as DriverEntry[]) : [];
  }

  getDriver(driverId: string): Driver {
    const driver = this.drivers.get(driverId);
    if (driver) return driver;
    const entry = this.declared().find((d) => d.id === driverId);
    const radio = entry && radioOf(entry);
    if (radio) throw new HomeyError(`driver '${driverId}' needs a ${radio} radio, which hearth has not`, 'not_available');
    throw new HomeyError(`the app declares no driver '${driverId}' in app.json`, 'not_found');
  }

  getDrivers(): Record<string, Driver> {
    return Object.fromEntries(this.drivers);
  }

  /** Makes every driver and its devices (called once, after the app's onInit). */
  async start(homey: Homey, load: ClassLoader): Promise<void> {
    this.homey = homey;
    this.load = load;
    const drivers = this.declared().filter((d) => !radioOf(d));
    if (drivers.length === 0) return;
    // Every driver is made before the home's devices are asked for (a thousand take a while): the
    // app's own timers, started in its onInit, find them with getDriver at once (and wait for
    // them with ready()).
    for (const entry of drivers) {
      const file = `${this.ctx.app.dir}/drivers/${entry.id}/driver`;
      const DriverClass = exportedClass(await load(file), Driver, `drivers/${entry.id}/driver.js`) ?? Driver;
      this.drivers.set(
        entry.id,
        constructingDriver({ homey, id: entry.id, manifest: entry }, () => new DriverClass()),
      );
    }
    const devices = (await this.ctx.transport.call('drivers.devices', {})) as DeviceState[];
    if (drivers.some((d) => typeof d.discovery === 'string')) await this.takeFound();
    for (const entry of drivers) {
      const driver = this.drivers.get(entry.id)!;
      await Promise.resolve()
        .then(() => driver.onInit())
        .catch((err: unknown) => driver.error(`onInit of driver '${entry.id}' failed:`, describeError(err)));
      markDriverReady(driver);
      for (const state of devices.filter((d) => d.driverId === entry.id)) await this.add(state, false);
    }
  }

  /** What the hub's discovery found before the app started, into its strategies (devices hear it once made). */
  private async takeFound(): Promise<void> {
    const found = (await this.ctx.transport.call('discovery.results', {})) as Record<string, DiscoveryResult[]>;
    for (const [strategyId, results] of Object.entries(found)) {
      const strategy = this.strategy(strategyId);
      for (const r of results) strategy?.take(r);
    }
  }

  private strategy(strategyId: string): DiscoveryStrategy | null {
    try {
      return this.homey.discovery.getStrategy(strategyId);
    } catch {
      return null;
    }
  }

  /** Offers a driver's strategy's results to one of its devices. */
  private async offer(device: Device, driver: Driver, only?: AnyDiscoveryResult): Promise<void> {
    const id = driver.manifest.discovery;
    const strategy = typeof id === 'string' ? this.strategy(id) : null;
    if (!strategy) return;
    for (const result of only ? [only] : Object.values(strategy.getDiscoveryResults())) await deliver(device, result);
  }

  private async deviceClass(driver: Driver, state: DeviceState): Promise<Ctor<Device>> {
    if (!this.deviceClasses.has(driver.id)) {
      const mod = await this.load(`${this.ctx.app.dir}/drivers/${driver.id}/device`);
      this.deviceClasses.set(driver.id, exportedClass(mod, Device, `drivers/${driver.id}/device.js`));
    }
    const mapper = (driver as { onMapDeviceClass?: (d: Device) => unknown }).onMapDeviceClass;
    if (typeof mapper === 'function') {
      // A temporary instance to look at, as Homey gives onMapDeviceClass.
      const probe = constructingDevice({ ctx: this.ctx, homey: this.homey, driver, state }, () => new Device());
      const mapped = mapper.call(driver, probe);
      if (typeof mapped === 'function' && (mapped.prototype instanceof Device || mapped === Device)) return mapped as Ctor<Device>;
      throw new HomeyError(`onMapDeviceClass of driver '${driver.id}' must return a class that extends Homey.Device`, 'invalid_args');
    }
    return this.deviceClasses.get(driver.id) ?? Device;
  }

  /** Makes a device's instance and runs its onInit (and onAdded when it was just paired). */
  private async add(state: DeviceState, paired: boolean): Promise<void> {
    const driver = this.getDriver(state.driverId);
    const DeviceClass = await this.deviceClass(driver, state);
    const device = constructingDevice({ ctx: this.ctx, homey: this.homey, driver, state }, () => new DeviceClass());
    this.devices.set(state.id, device);
    driverDevices(driver).set(state.id, device);
    try {
      await device.onInit();
      if (paired) await device.onAdded();
    } catch (err) {
      device.error(`onInit of device '${state.name}' failed:`, describeError(err));
    }
    markDeviceReady(device);
    await this.offer(device, driver);
  }

  /** For the flow manager (DeviceLookup): one of the app's Device instances by the hub's id. */
  byId(id: string): Device {
    return this.device(id);
  }

  /** For the flow manager (DeviceLookup): the hub's id of one of the app's Device instances. */
  idOf(device: unknown): string {
    if (!(device instanceof Device) || this.devices.get(deviceState(device).id) !== device) {
      throw new HomeyError("pass one of the app's own devices (a Homey.Device instance)", 'invalid_args');
    }
    return deviceState(device).id;
  }

  private device(id: string): Device {
    const device = this.devices.get(id);
    if (!device) throw new HomeyError(`the app has no device '${id}'`, 'not_found');
    return device;
  }

  private forget(id: string): void {
    const device = this.devices.get(id);
    if (!device) return;
    this.devices.delete(id);
    driverDevices(device.driver).delete(id);
  }

  /** The hub's device and pairing calls, one handler each (bootstrap.ts forwards them here). */
  readonly calls = {
    'device.added': async ({ device }) => {
      await this.add(device, true);
      return null;
    },
    'device.deleted': async ({ id }) => {
      const device = this.device(id);
      try {
        await device.onDeleted();
        await device.onUninit();
      } finally {
        this.forget(id);
      }
      return null;
    },
    'device.renamed': async (a) => {
      await renamed(this.device(a.id), a.name);
      return null;
    },
    'device.settings': async (a) => {
      await changeSettings(this.device(a.id), a);
      return null;
    },
    'device.capability': async (a) => {
      await setCapabilities(this.device(a.id), a.values, a.opts);
      return null;
    },
    'pair.start': async (a) => {
      const driver = this.getDriver(a.driverId);
      const session = new PairSession(this.ctx, a.session);
      this.sessions.set(a.session, session);
      if (a.type === 'repair') await driver.onRepair(session, this.device(a.deviceId ?? ''));
      else await driver.onPair(session);
      return null;
    },
    'pair.emit': async (a) => {
      const session = this.sessions.get(a.session);
      if (!session) throw new HomeyError(`no pairing session '${a.session}'`, 'not_found');
      // Homey tells the driver of each view shown; a driver that sets no handler for it does not mind.
      const answered = await receive(session, a.event, a.data, a.event === 'showView');
      // What the view gets is JSON, as it travels.
      return answered === undefined || answered === null ? null : JSON.parse(JSON.stringify(answered));
    },
    'pair.end': async (a) => {
      const session = this.sessions.get(a.session);
      this.sessions.delete(a.session);
      if (session) await receive(session, 'disconnect', null, true).catch(() => undefined);
      return null;
    },
    'discovery.result': async (a) => {
      const strategy = this.strategy(a.strategy);
      if (!strategy) return null;
      const { result } = strategy.take(a.result);
      for (const driver of this.drivers.values()) {
        if (driver.manifest.discovery !== a.strategy) continue;
        for (const device of driverDevices(driver).values()) await this.offer(device, driver, result);
      }
      return null;
    },
  } satisfies AppCallHandlers<DeviceCallMethod>;

  /** Every device's onUninit, then every driver's (the app is stopping). */
  async stop(): Promise<void> {
    await Promise.all(
      [...this.devices.values()].map((d) =>
        Promise.resolve()
          .then(() => d.onUninit())
          .catch(() => undefined),
      ),
    );
    await Promise.all(
      [...this.drivers.values()].map((d) =>
        Promise.resolve()
          .then(() => d.onUninit())
          .catch(() => undefined),
      ),
    );
  }

  /** The state of a device as the app holds it (for tests and the crash log). */
  stateOf(id: string): DeviceState {
    return deviceState(this.device(id));
  }
}
