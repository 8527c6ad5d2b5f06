/**
 * Homey.Device: one paired device, an instance of the class its driver's device.js exports. The
 * hub keeps the device's record (values, store, settings, availability); the instance holds a
 * copy, sends each change it makes to the hub first and applies it once the hub took it, and runs
 * the capability listeners when a person or a flow sets a capability. The hub's calls reach it
 * through the functions at the end (the drivers manager calls them), never through methods an
 * app's subclass could shadow.
 */
import type { DeviceState } from '../apps/wire/device-calls.js' with { 'resolution-mode': 'import' };
import type { HomeyContext } from './context.cjs';
import type { Driver } from './driver.cjs';
import { HomeyError } from './errors.cjs';
import type { Homey } from './homey.cjs';
import { SimpleClass } from './simple-class.cjs';

type Value = boolean | number | string | null;
type Listener = (value: any, opts: any) => unknown;
type MultipleListener = (values: Record<string, any>, opts: Record<string, any>) => unknown;

interface Batch {
  values: Record<string, Value>;
  opts: Record<string, unknown>;
  timer: NodeJS.Timeout;
  waiters: Array<{ resolve(v: unknown): void; reject(e: unknown): void }>;
}
interface Group {
  ids: string[];
  listener: MultipleListener;
  timeoutMs: number;
  batch: Batch | null;
}
interface Internals {
  ctx: HomeyContext;
  state: DeviceState;
  listeners: Map<string, Listener>;
  groups: Group[];
  ready: Promise<void>;
  markReady(): void;
}

const internals = new WeakMap<Device, Internals>();
let pending: { ctx: HomeyContext; homey: Homey; driver: Driver; state: DeviceState } | null = null;

/** Runs `make` (which calls `new DeviceClass()`) with what the Device takes. */
export function constructingDevice<T>(given: NonNullable<typeof pending>, make: () => T): T {
  pending = given;
  try {
    return make();
  } finally {
    pending = null;
  }
}

/** Homey's default wait for the other capabilities of a multiple listener, ms. */
const MULTIPLE_TIMEOUT_MS = 250;
const own = (d: Device): Internals => internals.get(d)!;
/** A call about this device (a function, not a method: an app's subclass may have a `call` of its own). */
function imageId(image: { id: string | null } | null | undefined): string {
  if (!image || typeof image.id !== 'string') throw new HomeyError('pass an image made with this.homey.images.createImage()', 'invalid_args');
  return image.id;
}

function hubCall(d: Device, method: Parameters<HomeyContext['transport']['call']>[0], args: Record<string, unknown>): Promise<unknown> {
  const s = own(d);
  return s.ctx.transport.call(method, { id: s.state.id, ...args } as never);
}
const copy = <T,>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

export class Device extends SimpleClass {
  readonly homey: Homey;
  readonly driver: Driver;

  constructor(..._args: unknown[]) {
    super();
    if (!pending) throw new Error('Homey.Device is made by the hub: export your class from device.js (module.exports = MyDevice)');
    this.homey = pending.homey;
    this.driver = pending.driver;
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    internals.set(this, { ctx: pending.ctx, state: pending.state, listeners: new Map(), groups: [], ready, markReady });
  }

  getAppId(): string {
    return own(this).ctx.app.id;
  }

  /** Resolves once onInit has run. */
  ready(): Promise<void> {
    return own(this).ready;
  }

  getData(): any {
    return copy(own(this).state.data);
  }

  getName(): string {
    return own(this).state.name;
  }

  getClass(): string {
    return own(this).state.class;
  }

  async setClass(deviceClass: string): Promise<void> {
    await hubCall(this, 'device.setClass', { class: deviceClass });
    own(this).state.class = deviceClass;
  }

  getState(): Record<string, Value> {
    return { ...own(this).state.values };
  }

  getAvailable(): boolean {
    return own(this).state.available;
  }

  async setAvailable(): Promise<void> {
    await hubCall(this, 'device.setAvailable', { available: true, message: null });
    Object.assign(own(this).state, { available: true, unavailableMessage: null });
  }

  async setUnavailable(message?: string | null): Promise<void> {
    const text = message == null ? null : String(message).slice(0, 1000);
    await hubCall(this, 'device.setAvailable', { available: false, message: text });
    Object.assign(own(this).state, { available: false, unavailableMessage: text });
  }

  async setWarning(message?: string | null): Promise<void> {
    const text = message == null ? null : String(message).slice(0, 1000);
    await hubCall(this, 'device.setWarning', { message: text });
    own(this).state.warningMessage = text;
  }

  async unsetWarning(): Promise<void> {
    await this.setWarning(null);
  }

  getSetting(key: string): any {
    return copy(own(this).state.settings[key]) ?? null;
  }

  getSettings(): any {
    return copy(own(this).state.settings);
  }

  /** Sets settings the app decided (onSettings is not called: it is for a person's changes). */
  async setSettings(settings: Record<string, unknown>): Promise<void> {
    if (typeof settings !== 'object' || settings === null) throw new HomeyError('setSettings takes an object of setting values', 'invalid_args');
    await hubCall(this, 'device.setSettings', { settings });
    Object.assign(own(this).state.settings, copy(settings));
  }

  getStore(): any {
    return copy(own(this).state.store);
  }

  getStoreKeys(): string[] {
    return Object.keys(own(this).state.store);
  }

  getStoreValue(key: string): any {
    return copy(own(this).state.store[key]) ?? null;
  }

  async setStoreValue(key: string, value: unknown): Promise<void> {
    await hubCall(this, 'device.setStoreValue', { key, value });
    own(this).state.store[key] = copy(value);
  }

  async unsetStoreValue(key: string): Promise<void> {
    await hubCall(this, 'device.unsetStoreValue', { key });
    delete own(this).state.store[key];
  }

  getCapabilities(): string[] {
    return [...own(this).state.capabilities];
  }

  hasCapability(capabilityId: string): boolean {
    return own(this).state.capabilities.includes(capabilityId);
  }

  async addCapability(capabilityId: string): Promise<void> {
    await hubCall(this, 'device.addCapability', { capabilityId });
    const s = own(this).state;
    if (!s.capabilities.includes(capabilityId)) s.capabilities.push(capabilityId);
    s.values[capabilityId] ??= null;
  }

  async removeCapability(capabilityId: string): Promise<void> {
    await hubCall(this, 'device.removeCapability', { capabilityId });
    const s = own(this).state;
    s.capabilities = s.capabilities.filter((c) => c !== capabilityId);
    delete s.values[capabilityId];
  }

  getCapabilityValue(capabilityId: string): any {
    const s = own(this).state;
    if (!s.capabilities.includes(capabilityId)) throw new HomeyError(`the device has no capability '${capabilityId}'`, 'not_found');
    return s.values[capabilityId] ?? null;
  }

  async setCapabilityValue(capabilityId: string, value: unknown): Promise<void> {
    await hubCall(this, 'device.setCapabilityValue', { capabilityId, value: value === undefined ? null : value });
    own(this).state.values[capabilityId] = value as Value;
  }

  getCapabilityOptions(capabilityId: string): any {
    const s = own(this).state;
    if (!s.capabilities.includes(capabilityId)) throw new HomeyError(`the device has no capability '${capabilityId}'`, 'not_found');
    return copy(s.capabilitiesOptions[capabilityId] ?? {});
  }

  async setCapabilityOptions(capabilityId: string, options: Record<string, unknown>): Promise<void> {
    await hubCall(this, 'device.setCapabilityOptions', { capabilityId, options });
    own(this).state.capabilitiesOptions[capabilityId] = copy(options);
  }

  getEnergy(): any {
    return copy(own(this).state.energy ?? {});
  }

  async setEnergy(energy: Record<string, unknown>): Promise<void> {
    await hubCall(this, 'device.setEnergy', { energy });
    own(this).state.energy = copy(energy);
  }

  registerCapabilityListener(capabilityId: string, listener: Listener): void {
    if (typeof listener !== 'function') throw new HomeyError('registerCapabilityListener takes a function', 'invalid_args');
    own(this).listeners.set(capabilityId, listener);
  }

  /**
   * One listener for several capabilities: a set of one waits `timeoutMs` for sets of the others,
   * and the listener gets them together (a colour picker sets hue and saturation at once).
   */
  registerMultipleCapabilityListener(capabilityIds: string[], listener: MultipleListener, timeoutMs = MULTIPLE_TIMEOUT_MS): void {
    if (!Array.isArray(capabilityIds) || typeof listener !== 'function') {
      throw new HomeyError('registerMultipleCapabilityListener takes a list of capability ids and a function', 'invalid_args');
    }
    own(this).groups.push({ ids: [...capabilityIds], listener, timeoutMs, batch: null });
  }

  /** Runs the listener of `capabilityId` as if a person had set it (the value is then stored). */
  async triggerCapabilityListener(capabilityId: string, value: unknown, opts: object = {}): Promise<unknown> {
    const result = await runCapability(this, capabilityId, value as Value, opts);
    await this.setCapabilityValue(capabilityId, value);
    return result;
  }

  /** Shows `image` (from homey.images.createImage()) as the device's album art. */
  async setAlbumArtImage(image: { id: string | null }): Promise<void> {
    await hubCall(this, 'device.setImage', { slot: 'albumart', type: 'media', title: null, image: imageId(image) });
  }

  /** Shows `image` as one of the device's camera pictures, `id` naming it among them. */
  async setCameraImage(id: string, title: string, image: { id: string | null }): Promise<void> {
    await hubCall(this, 'device.setImage', { slot: id, type: 'camera', title: typeof title === 'string' ? title : null, image: imageId(image) });
  }

  /** Called when the device is loaded (at the app's start, or once paired). */
  async onInit(): Promise<void> {}
  /** Called once, after onInit, when the device was just paired. */
  async onAdded(): Promise<void> {}
  /** Called when a person deleted the device. */
  async onDeleted(): Promise<void> {}
  /** Called when a person renamed the device. */
  async onRenamed(_name: string): Promise<void> {}
  /** Called when a person changes settings: throw to refuse them (the message is shown). */
  async onSettings(_change: { oldSettings: object; newSettings: object; changedKeys: string[] }): Promise<string | undefined> {
    return undefined;
  }
  /** Called before the app stops. */
  async onUninit(): Promise<void> {}
  /** Whether a discovery result is this device's: by default, as on Homey, when its id is the device's `data.id`. */
  onDiscoveryResult(result: unknown): boolean {
    const id = (result as { id?: unknown } | null)?.id;
    return id !== undefined && id === (this.getData() as { id?: unknown } | null)?.id;
  }
  async onDiscoveryAvailable(_result: unknown): Promise<void> {}
  onDiscoveryAddressChanged(_result: unknown): void {}
  onDiscoveryLastSeenChanged(_result: unknown): void {}
  /** Kept for Homey's SDK: the instance is dropped by the hub's drivers manager. */
  destroy(): void {}
}

// ---- The hub's side, called by the drivers manager -------------------------------------------

export const deviceState = (d: Device): DeviceState => own(d).state;
export const markDeviceReady = (d: Device): void => own(d).markReady();

/** Runs the listener for one capability (its own, or its group's after the group's wait). */
function runCapability(d: Device, capabilityId: string, value: Value, opts: unknown): Promise<unknown> {
  const s = own(d);
  const single = s.listeners.get(capabilityId);
  if (single) return Promise.resolve().then(() => single.call(d, value, opts ?? {}));
  const group = s.groups.find((g) => g.ids.includes(capabilityId));
  if (!group) return Promise.reject(new HomeyError(`the device has no listener for capability '${capabilityId}'`, 'not_found'));
  return new Promise((resolve, reject) => {
    let batch = group.batch;
    if (!batch) {
      const made: Batch = {
        values: {},
        opts: {},
        waiters: [],
        timer: setTimeout(() => {
          group.batch = null;
          Promise.resolve()
            .then(() => group.listener.call(d, made.values, made.opts))
            .then(
              (r) => {
                for (const w of made.waiters) w.resolve(r);
              },
              (e: unknown) => {
                for (const w of made.waiters) w.reject(e);
              },
            );
        }, group.timeoutMs),
      };
      batch = group.batch = made;
    }
    batch.values[capabilityId] = value;
    batch.opts[capabilityId] = opts ?? {};
    batch.waiters.push({ resolve, reject });
  });
}

/** Sets capabilities for a person: every listener runs, then the values are the device's. */
export async function setCapabilities(d: Device, values: Record<string, Value>, opts: Record<string, unknown>): Promise<void> {
  const s = own(d);
  for (const id of Object.keys(values)) {
    if (!s.state.capabilities.includes(id)) throw new HomeyError(`the device has no capability '${id}'`, 'not_found');
  }
  await Promise.all(Object.entries(values).map(([id, value]) => runCapability(d, id, value, opts[id])));
  Object.assign(s.state.values, values);
}

/** A person changes settings: onSettings first; applied only when it did not throw. */
export async function changeSettings(
  d: Device,
  change: { oldSettings: Record<string, unknown>; newSettings: Record<string, unknown>; changedKeys: string[] },
): Promise<void> {
  await d.onSettings(change);
  own(d).state.settings = copy(change.newSettings);
}

export function renamed(d: Device, name: string): Promise<void> {
  own(d).state.name = name;
  return Promise.resolve(d.onRenamed(name));
}
