/**
 * The google-assistant contract: a PIN that the voice assistant asks for before sensitive
 * actions. The PIN is secret: never in events, state or logs; readable only through its own GET.
 */
import { z } from 'zod';
import { defineContract, defineOption, lazy, stateOperation } from '../../core/contract.js';

const PinCode = lazy(() =>
  z.string({ error: 'pinCode must be a string of 4 to 8 digits, e.g. "1234"' }).regex(/^\d{4,8}$/, { error: 'pinCode must be 4 to 8 digits, e.g. "1234"' }),
);

export const googleAssistantContract = defineContract({
  name: 'google-assistant',
  eventScope: 'service.system.readonly',
  options: [
    defineOption({
      name: 'pinCode',
      schema: PinCode(),
      default: null,
      secret: true,
      scopes: { get: 'service.system', set: 'service.system', unset: 'service.system' },
      summary: 'the PIN the voice assistant asks for',
    }),
  ],
  operations: {
    getState: stateOperation({ summary: 'Whether a PIN is set (never the PIN)', output: () => z.object({ pinCodeSet: z.boolean() }) }),
  },
});
