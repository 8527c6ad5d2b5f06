/**
 * The google-assistant handlers: its option (the PIN, readable only through its own GET) and a
 * state that says whether a PIN is set, never the PIN.
 */
import { implement, type Operation } from '../../core/operation.js';
import type { OptionService } from '../../core/options.js';
import { googleAssistantContract } from './contract.js';

export function googleAssistantOperations(options: OptionService): Operation[] {
  const { name } = googleAssistantContract;
  return [
    ...options.register(name, googleAssistantContract.options),
    ...implement(googleAssistantContract.operations, {
      getState: () => ({ pinCodeSet: options.isSet(name, 'pinCode') }),
    }),
  ];
}
