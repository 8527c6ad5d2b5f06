/**
 * i18n: the hub's language and units. Options only, plus a state with the supported languages.
 */
import type { Manager } from '../../core/managers.js';
import type { Operation } from '../../core/operation.js';
import type { ManagerContext } from '../context.js';
import { i18nContract, type Units } from './contract.js';
import type { Language } from './languages.js';
import { i18nOperations } from './operations.js';

export type { Units } from './contract.js';

export class I18nManager implements Manager {
  readonly name = i18nContract.name;
  readonly contract = i18nContract;
  readonly operations: readonly Operation[];

  constructor(private readonly ctx: ManagerContext) {
    this.operations = i18nOperations(ctx.options);
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
