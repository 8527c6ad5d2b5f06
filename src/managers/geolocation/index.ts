/**
 * Geolocation: where the hub is (coordinates) and its postal address. Options only.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { geolocationContract, type Location } from './contract.js';
import { geolocationOperations } from './operations.js';

export { Address, Location } from './contract.js';

export class GeolocationManager implements Manager {
  readonly name = geolocationContract.name;
  readonly contract = geolocationContract;
  readonly operations: readonly Operation[];

  constructor(private readonly ctx: ManagerContext) {
    this.operations = geolocationOperations(ctx.options);
  }

  location(): Location | null {
    return this.ctx.options.get<Location | null>(this.name, 'location');
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
