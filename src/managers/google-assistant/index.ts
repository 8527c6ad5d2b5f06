/**
 * The voice-assistant integration: a PIN that the assistant asks for before sensitive actions.
 * The PIN is secret: never in events, state or logs; readable only through its own GET.
 */
import { z } from 'zod';
import { defineStateOperation, type Operation } from '../../core/operation.js';
import type { Manager, ManagerContext } from '../../core/managers.js';
import { defineOption } from '../../core/options.js';

const PinCode = z
  .string({ error: 'pinCode must be a string of 4 to 8 digits, e.g. "1234"' })
  .regex(/^\d{4,8}$/, { error: 'pinCode must be 4 to 8 digits, e.g. "1234"' });

const OPTIONS = [
  defineOption({
    name: 'pinCode',
    schema: PinCode,
    default: null,
    secret: true,
    scopes: { get: 'service.system', set: 'service.system', unset: 'service.system' },
    summary: 'the PIN the voice assistant asks for',
  }),
];

export class GoogleAssistantManager implements Manager {
  readonly name = 'google-assistant';
  readonly eventScope = 'service.system.readonly';
  readonly operations: readonly Operation[];

  constructor(ctx: ManagerContext) {
    this.operations = [
      ...ctx.options.register(this.name, OPTIONS),
      defineStateOperation({
        summary: 'Whether a PIN is set (never the PIN)',
        output: z.object({ pinCodeSet: z.boolean() }),
        handler: () => ({ pinCodeSet: ctx.options.isSet(this.name, 'pinCode') }),
      }),
    ];
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
