/**
 * The geolocation handlers: its options (where the hub is, its postal address) and its state.
 */
import { implement, type Operation } from '../../core/operation.js';
import type { OptionService } from '../../core/options.js';
import { type Address, geolocationContract, type Location } from './contract.js';

export function geolocationOperations(options: OptionService): Operation[] {
  const { name } = geolocationContract;
  return [
    ...options.register(name, geolocationContract.options),
    ...implement(geolocationContract.operations, {
      getState: () => ({
        location: options.get<Location | null>(name, 'location'),
        address: options.get<Address | null>(name, 'address'),
        locationSet: options.isSet(name, 'location'),
        addressSet: options.isSet(name, 'address'),
      }),
    }),
  ];
}
