/**
 * What a token may reach of the home, by zone. A guest is given rooms (core/people.ts); their
 * token carries them (TokenInfo.zones), and every channel asks here: the devices and zones
 * operations (a device or zone out of reach is answered as one that does not exist), the images
 * shown on devices, the WebSockets and Homey's realtime (an event of a device or zone out of reach
 * is not sent). Any other token reaches the whole home.
 */
import type { TokenInfo } from '../../core/tokens.js';
import type { ZonesService } from './service.js';

export class ZoneReach {
  /** A guest's rooms with the zones inside them, per rooms list, made again when the tree changes. */
  private readonly cache = new WeakMap<readonly string[], { revision: number; zones: ReadonlySet<string> }>();

  constructor(private readonly zones: ZonesService) {}

  /** The zones `token` may reach, or null: the whole home. */
  zonesOf(token: TokenInfo | null): ReadonlySet<string> | null {
    const given = token?.zones;
    if (!given) return null;
    const known = this.cache.get(given);
    if (known && known.revision === this.zones.revision) return known.zones;
    const zones = this.zones.inside(given);
    this.cache.set(given, { revision: this.zones.revision, zones });
    return zones;
  }

  /** Whether `token` may reach zone `id` (and what is in it). */
  zone(token: TokenInfo | null, id: string): boolean {
    const zones = this.zonesOf(token);
    return zones === null || zones.has(id);
  }

  /** Whether `token` is limited to some zones. */
  limited(token: TokenInfo | null): boolean {
    return Boolean(token?.zones);
  }
}

const reaches = new WeakMap<ZonesService, ZoneReach>();

/** The one ZoneReach of a home's zones, shared by every manager that asks (its cache with it). */
export function reachOf(zones: ZonesService): ZoneReach {
  let reach = reaches.get(zones);
  if (!reach) reaches.set(zones, (reach = new ZoneReach(zones)));
  return reach;
}
