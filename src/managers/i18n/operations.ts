/**
 * The i18n handlers: its options (the hub's language and units) and a state with the languages
 * it speaks.
 */
import { implement, type Operation } from '../../core/operation.js';
import type { OptionService } from '../../core/options.js';
import { i18nContract, type Units } from './contract.js';
import { LANGUAGES, type Language } from './languages.js';

export function i18nOperations(options: OptionService): Operation[] {
  const { name } = i18nContract;
  return [
    ...options.register(name, i18nContract.options),
    ...implement(i18nContract.operations, {
      getState: () => ({ language: options.get<Language>(name, 'language'), units: options.get<Units>(name, 'units'), languages: LANGUAGES }),
    }),
  ];
}
