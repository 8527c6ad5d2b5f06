/**
 * Geolocation: where the hub is (coordinates) and its postal address. Options only.
 */
import type { Manager } from '../../core/managers.js';
import { implement, type Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { type Address, geolocationContract, type Location } from './contract.js';

export { Address, Location } from './contract.js';

export class GeolocationManager implements Manager {
  readonly name = geolocationContract.name;
  readonly contract = geolocationContract;
  readonly operations: readonly Operation[];

  constructor(private readonly ctx: ManagerContext) {
    this.operations = [
      ...ctx.options.register(this.name, geolocationContract.options),
      ...implement(geolocationContract.operations, {
        getState: () => ({
          location: this.location(),
          address: ctx.options.get<Address | null>(this.name, 'address'),
          locationSet: ctx.options.isSet(this.name, 'location'),
          addressSet: ctx.options.isSet(this.name, 'address'),
        }),
      }),
    ];
  }

  location(): Location | null {
    return this.ctx.options.get<Location | null>(this.name, 'location');
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
