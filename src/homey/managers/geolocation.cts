/**
 * `this.homey.geolocation`: the hub's location as set in its geolocation manager (hearth has no
 * GPS: the mode is always `manual`). Synchronous; `location` fires when it changes. The hub only
 * sends the location to an app with the permission.
 */
import { type HomeyContext, hasPermission } from '../context.cjs';
import { needsPermission } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

export const GEOLOCATION_PERMISSION = 'homey:manager:geolocation';

type Location = { latitude: number; longitude: number; accuracy?: number | undefined } | null;

export class ManagerGeolocation extends Manager {
  static ID = 'geolocation';
  private location: Location;

  constructor(private readonly ctx: HomeyContext) {
    super();
    this.location = ctx.state.location;
  }

  private current(what: string): Location {
    if (!hasPermission(this.ctx, GEOLOCATION_PERMISSION)) throw needsPermission(`geolocation.${what}`, GEOLOCATION_PERMISSION);
    return this.location;
  }

  /** The latitude, or undefined while the hub has no location. */
  getLatitude(): number {
    return this.current('getLatitude')?.latitude as number;
  }

  getLongitude(): number {
    return this.current('getLongitude')?.longitude as number;
  }

  /** In metres; undefined when the location was set without one. */
  getAccuracy(): number {
    return this.current('getAccuracy')?.accuracy as number;
  }

  getMode(): string {
    this.current('getMode');
    return 'manual';
  }

  /** The hub's location changed. */
  changed(location: Location): void {
    this.location = location;
    this.emit('location');
  }
}
