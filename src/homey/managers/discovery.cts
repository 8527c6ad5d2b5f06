/**
 * `this.homey.discovery` and a driver's `getDiscoveryStrategy()`: the results of the app's
 * strategies (app.json `discovery`: mdns-sd, ssdp, mac), found by the hub on the LAN and handed to the app as
 * they come. A strategy emits `result` for each; devices of the drivers that use it hear theirs
 * through onDiscoveryResult / onDiscoveryAvailable / onDiscoveryAddressChanged /
 * onDiscoveryLastSeenChanged (the drivers manager calls `deliver`).
 */
import type { DiscoveryResult as WireResult } from '../../apps/wire/device-calls.js' with { 'resolution-mode': 'import' };
import type { HomeyContext } from '../context.cjs';
import type { Device } from '../device.cjs';
import { describeError, HomeyError, notAvailable } from '../errors.cjs';
import { Manager, SimpleClass } from '../simple-class.cjs';

export abstract class DiscoveryResult extends SimpleClass {
  id: string;
  lastSeen: Date;
  address: string;

  constructor(r: WireResult) {
    super();
    this.id = r.id;
    this.lastSeen = new Date(r.lastSeen);
    this.address = r.address;
  }
}

export class DiscoveryResultMDNSSD extends DiscoveryResult {
  /** A string, as Homey's SDK declares it. */
  port: string;
  name: string;
  fullname: string;
  host: string;
  txt: Record<string, string>;

  constructor(r: Extract<WireResult, { type: 'mdns-sd' }>) {
    super(r);
    this.port = String(r.port);
    this.name = r.name;
    this.fullname = r.fullname;
    this.host = r.host;
    this.txt = { ...r.txt };
  }
}

export class DiscoveryResultSSDP extends DiscoveryResult {
  /** The port of the device's LOCATION, as a string (Homey's SDK); empty when it gave none. */
  port: string;
  /** The answer's or announcement's headers, with lowercase names. */
  headers: Record<string, string>;

  constructor(r: Extract<WireResult, { type: 'ssdp' }>) {
    super(r);
    this.port = r.port === null ? '' : String(r.port);
    this.headers = { ...r.headers };
  }
}

export class DiscoveryResultMAC extends DiscoveryResult {
  mac: string;

  constructor(r: Extract<WireResult, { type: 'mac' }>) {
    super(r);
    this.mac = r.mac;
  }
}

export type AnyDiscoveryResult = DiscoveryResultMDNSSD | DiscoveryResultSSDP | DiscoveryResultMAC;

function resultOf(r: WireResult): AnyDiscoveryResult {
  if (r.type === 'ssdp') return new DiscoveryResultSSDP(r);
  if (r.type === 'mac') return new DiscoveryResultMAC(r);
  return new DiscoveryResultMDNSSD(r);
}

export class DiscoveryStrategy extends SimpleClass {
  private readonly results = new Map<string, AnyDiscoveryResult>();

  constructor(
    readonly id: string,
    readonly type: 'mdns-sd' | 'ssdp' | 'mac',
  ) {
    super();
  }

  getDiscoveryResults(): Record<string, AnyDiscoveryResult> {
    return Object.fromEntries(this.results);
  }

  getDiscoveryResult(id: string): AnyDiscoveryResult {
    const found = this.results.get(id);
    if (!found) throw new HomeyError(`discovery strategy '${this.id}' has found no '${id}'`, 'not_found');
    return found;
  }

  /** Takes a result from the hub; answers it with what it was before (undefined: new). */
  take(r: WireResult): { result: AnyDiscoveryResult; before: AnyDiscoveryResult | undefined } {
    const before = this.results.get(r.id);
    const result = resultOf(r);
    this.results.set(r.id, result);
    this.emit('result', result);
    return { result, before };
  }
}

export class ManagerDiscovery extends Manager {
  static ID = 'discovery';
  private readonly strategies = new Map<string, DiscoveryStrategy>();

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  getStrategy(strategyId: string): DiscoveryStrategy {
    const made = this.strategies.get(strategyId);
    if (made) return made;
    const declared = (this.ctx.manifest.discovery as Record<string, { type?: unknown }> | undefined)?.[strategyId];
    if (!declared || !Object.hasOwn(this.ctx.manifest.discovery as object, strategyId)) {
      throw new HomeyError(`the app declares no discovery strategy '${strategyId}' in app.json`, 'not_found');
    }
    const type = declared.type;
    if (type !== 'mdns-sd' && type !== 'ssdp' && type !== 'mac') {
      throw notAvailable(`discovery strategy '${strategyId}' (${String(type)})`, 'hearth runs mdns-sd, ssdp and mac discovery');
    }
    const strategy = new DiscoveryStrategy(strategyId, type);
    this.strategies.set(strategyId, strategy);
    return strategy;
  }
}

/** Which result each device took as its own, with the address it had then. */
const bound = new WeakMap<Device, { id: string; address: string }>();

/**
 * Offers a result to a device of a driver that uses the strategy: its onDiscoveryResult decides
 * whether it is the device's; the first time it is, onDiscoveryAvailable; later, a new address
 * (or port) is onDiscoveryAddressChanged, the same one onDiscoveryLastSeenChanged. As on Homey, an
 * onDiscoveryAvailable that throws makes the device unavailable with its message (the device
 * cannot be reached there); the next result offers it again.
 */
export async function deliver(device: Device, result: AnyDiscoveryResult): Promise<void> {
  let stage = 'onDiscoveryResult';
  try {
    if (!device.onDiscoveryResult(result as never)) return;
    const address = 'port' in result ? `${result.address}:${result.port}` : result.address;
    const had = bound.get(device);
    bound.set(device, { id: result.id, address });
    if (!had) {
      stage = 'onDiscoveryAvailable';
      await device.onDiscoveryAvailable(result);
    } else if (had.address !== address) await device.onDiscoveryAddressChanged(result);
    else await device.onDiscoveryLastSeenChanged(result);
  } catch (err) {
    device.error('a discovery listener failed:', describeError(err));
    if (stage !== 'onDiscoveryAvailable') return;
    bound.delete(device);
    await device.setUnavailable(err instanceof Error ? err.message : String(err)).catch((e: unknown) => device.error(describeError(e)));
  }
}
