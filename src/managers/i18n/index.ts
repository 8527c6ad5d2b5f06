/**
 * i18n: the hub's language and units. Options only, plus a state with the supported languages.
 */
import { z } from 'zod';
import { defineStateOperation, type Operation } from '../../core/operation.js';
import type { Manager, ManagerContext } from '../../core/managers.js';
import { defineOption } from '../../core/options.js';
import { LANGUAGE_CODES, LANGUAGES, isLanguage, type Language } from './languages.js';

export type Units = 'metric' | 'imperial';

const language = z
  .string({ error: 'language must be a string such as "en"' })
  .refine(isLanguage, { error: (i) => `unknown language '${String(i.input)}'; supported: ${LANGUAGE_CODES.join(', ')}` });
const units = z.enum(['metric', 'imperial'], { error: 'units must be "metric" or "imperial"' });

const OPTIONS = [
  defineOption({
    name: 'language',
    schema: language,
    default: 'en',
    scopes: { get: 'service.system.readonly', set: 'service.system', unset: 'service.system' },
    summary: 'the language of the hub (BCP-47 code)',
  }),
  defineOption({
    name: 'units',
    schema: units,
    default: 'metric',
    scopes: { get: 'service.system.readonly', set: 'service.system', unset: 'service.system' },
    summary: 'the unit system (metric or imperial)',
  }),
];

export const I18nState = z.object({
  language: z.string(),
  units: z.enum(['metric', 'imperial']),
  languages: z.record(z.string(), z.string()),
});

export class I18nManager implements Manager {
  readonly name = 'i18n';
  readonly eventScope = 'service.system.readonly';
  readonly operations: readonly Operation[];

  constructor(private readonly ctx: ManagerContext) {
    this.operations = [
      ...ctx.options.register(this.name, OPTIONS),
      defineStateOperation({
        summary: 'Language, units and the supported languages',
        output: I18nState,
        handler: () => ({ language: this.language(), units: this.units(), languages: LANGUAGES }),
      }),
    ];
  }

  language(): Language {
    return this.ctx.options.get<Language>(this.name, 'language');
  }

  units(): Units {
    return this.ctx.options.get<Units>(this.name, 'units');
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
