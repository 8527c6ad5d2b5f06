/**
 * Homey.Driver: the class a driver's driver.js exports. One instance per driver the app declares
 * (made after the app's onInit, whether or not it has devices); it pairs new devices (onPair, or
 * the default pairing that lists onPairListDevices) and holds the driver's devices.
 */
import type { Device } from './device.cjs';
import { HomeyError } from './errors.cjs';
import type { Homey } from './homey.cjs';
import type { DiscoveryStrategy } from './managers/discovery.cjs';
import type { PairSession } from './pair-session.cjs';
import { SimpleClass } from './simple-class.cjs';

interface Internals {
  devices: Map<string, Device>;
  ready: Promise<void>;
  markReady(): void;
}
const internals = new WeakMap<Driver, Internals>();
let pending: { homey: Homey; id: string; manifest: Record<string, unknown> } | null = null;

/** Runs `make` (which calls `new DriverClass()`) with what the Driver takes. */
export function constructingDriver<T>(given: NonNullable<typeof pending>, make: () => T): T {
  pending = given;
  try {
    return make();
  } finally {
    pending = null;
  }
}

/** Device data compared as Homey does: the same keys with the same values. */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export class Driver extends SimpleClass {
  readonly homey: Homey;
  readonly id: string;
  /** The driver's entry in app.json. */
  readonly manifest: Record<string, unknown>;

  constructor(..._args: unknown[]) {
    super();
    if (!pending) throw new Error('Homey.Driver is made by the hub: export your class from driver.js (module.exports = MyDriver)');
    this.homey = pending.homey;
    this.id = pending.id;
    this.manifest = pending.manifest;
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    internals.set(this, { devices: new Map(), ready, markReady });
  }

  static isEqualDeviceData(a: unknown, b: unknown): boolean {
    return sameData(a, b);
  }

  /** Resolves once onInit has run. */
  ready(): Promise<void> {
    return internals.get(this)!.ready;
  }

  getDevices(): Device[] {
    return [...internals.get(this)!.devices.values()];
  }

  /** The device whose data equals `data` (as paired). */
  getDevice(data: unknown): Device {
    const found = this.getDevices().find((d) => sameData(d.getData(), data));
    if (!found) throw new HomeyError(`driver '${this.id}' has no device with data ${JSON.stringify(data)?.slice(0, 200)}`, 'not_found');
    return found;
  }

  /** The discovery strategy the driver names in app.json (`discovery`). */
  getDiscoveryStrategy(): DiscoveryStrategy {
    const id = this.manifest.discovery;
    if (typeof id !== 'string') throw new HomeyError(`driver '${this.id}' names no discovery strategy in app.json`, 'not_found');
    return this.homey.discovery.getStrategy(id);
  }

  getManifest(): Record<string, unknown> {
    return this.manifest;
  }

  async onInit(): Promise<void> {}
  async onUninit(): Promise<void> {}

  /** A pairing starts: by default the list_devices view lists onPairListDevices. */
  async onPair(session: PairSession): Promise<void> {
    session.setHandler('list_devices', () => this.onPairListDevices());
  }

  async onRepair(_session: PairSession, _device: Device): Promise<void> {}

  /** Homey calls it for radio devices only; kept for the SDK's shape. */
  async onUnpair(_session: PairSession, _device: Device): Promise<void> {}

  /** The devices the default pairing offers; a driver without its own onPair overrides this. */
  async onPairListDevices(): Promise<unknown[]> {
    return [];
  }
}

// ---- The drivers manager's side ----------------------------------------------------------------

export const driverDevices = (d: Driver): Map<string, Device> => internals.get(d)!.devices;
export const markDriverReady = (d: Driver): void => internals.get(d)!.markReady();
