/**
 * The i18n contract: the hub's language and units (options), and a state with the supported
 * languages.
 */
import { z } from 'zod';
import { defineContract, defineOption, lazy, stateOperation } from '../../core/contract.js';
import { isLanguage, LANGUAGE_CODES } from './languages.js';

export type Units = 'metric' | 'imperial';

const language = lazy(() =>
  z
    .string({ error: 'language must be a string such as "en"' })
    .refine(isLanguage, { error: (i) => `unknown language '${String(i.input)}'; supported: ${LANGUAGE_CODES.join(', ')}` }),
);
const units = lazy(() => z.enum(['metric', 'imperial'], { error: 'units must be "metric" or "imperial"' }));

export const I18nState = lazy(() =>
  z.object({
    language: z.string(),
    units: z.enum(['metric', 'imperial']),
    languages: z.record(z.string(), z.string()),
  }),
);

const scopes = { get: 'service.system.readonly', set: 'service.system', unset: 'service.system' } as const;

export const i18nContract = defineContract({
  name: 'i18n',
  eventScope: 'service.system.readonly',
  options: [
    defineOption({ name: 'language', schema: language(), default: 'en', scopes, summary: 'the language of the hub (BCP-47 code)' }),
    defineOption({ name: 'units', schema: units(), default: 'metric', scopes, summary: 'the unit system (metric or imperial)' }),
  ],
  operations: {
    getState: stateOperation({ summary: 'Language, units and the supported languages', output: () => I18nState() }),
  },
});
