/**
 * Options: single named values per manager (`/option/<name>`: GET {value}, PUT {value}, DELETE
 * restores the default). One service holds them all in the store's `options` section; each
 * manager declares its options once and gets its three operations per option from here.
 */
import { z } from 'zod';
import { KiB } from './byte-bounds.js';
import { extendOperation, type ManagerName, type OptionContract, optionOperations } from './contract.js';
import { unavailable } from './errors.js';
import type { EventBus } from './events.js';
import { nullRecord, safeRecord } from './null-prototype.js';
import type { Operation } from './operation.js';
import type { Scope } from './scopes.js';
import { type Section, type Store, StoreSectionError } from './store.js';

/**
 * A check an option's value must also pass that depends on the hub's state (the voice option
 * names an installed voice): the problem's sentence, or null. Asked on every PUT.
 */
export type OptionCheck = (value: unknown) => string | null;

type OptionListener = (name: string, value: unknown) => void | Promise<void>;

const OptionsSection = safeRecord(z.string(), safeRecord(z.string(), z.unknown()));

export class OptionService {
  private readonly section: Section<Record<string, Record<string, unknown>>> | null = null;
  /** Why the `options` section could not be opened, or null when it is fine. */
  readonly broken: string | null = null;
  private readonly defs = new Map<string, OptionContract>();
  private readonly listeners = new Map<string, Set<OptionListener>>();
  /**
   * Called when a change listener throws. The change is stored and announced by then, so its
   * request still succeeds; the hub logs the listener's error here.
   */
  onListenerError: ((err: unknown, manager: ManagerName, name: string) => void) | undefined;

  constructor(
    store: Store,
    private readonly bus: EventBus,
  ) {
    try {
      this.section = store.section('options', OptionsSection, () => ({}), { bytes: { section: 256 * KiB, items: 'options' }, records: [['*']] });
    } catch (err) {
      // One section holds every manager's options: rather than stop them all, they run on their
      // defaults and every option operation answers 503 with this reason. The file is left as is.
      if (!(err instanceof StoreSectionError)) throw err;
      this.broken = err.message;
    }
  }

  private mustSection(): Section<Record<string, Record<string, unknown>>> {
    if (!this.section) throw unavailable(`options cannot be read or changed: ${this.broken}; repair that section or restore a backup`);
    return this.section;
  }

  private key(manager: ManagerName, name: string): string {
    return `${manager}/${name}`;
  }

  private def(manager: ManagerName, name: string): OptionContract {
    const def = this.defs.get(this.key(manager, name));
    if (!def) throw new Error(`option ${manager}/${name} is not declared`);
    return def;
  }

  /**
   * Declares a manager's options (from its contract) and returns their operations (three per
   * option, with the seed's ids: getOptionX, setOptionX, unsetOptionX). `checks` adds, by option
   * name, what a value must also pass on this hub.
   */
  register(manager: ManagerName, defs: readonly OptionContract[] = [], checks: Readonly<Record<string, OptionCheck>> = {}): Operation[] {
    const ops: Operation[] = [];
    for (const contract of defs) {
      const check = checks[contract.name];
      const def = check ? { ...contract, schema: withCheck(contract.schema, check) } : contract;
      this.defs.set(this.key(manager, def.name), def);
      ops.push(...this.operations(manager, def));
    }
    return ops;
  }

  /** How the API sets an option, and its schema; undefined when no manager declared it. */
  definition(manager: string, name: string): { readonly set: Scope | null; readonly schema: z.ZodType } | undefined {
    const def = this.defs.get(`${manager}/${name}`);
    return def && { set: def.scopes.set, schema: def.schema };
  }

  /** Current value or the default. */
  get<T = unknown>(manager: ManagerName, name: string): T {
    const def = this.def(manager, name);
    const stored = this.section?.value[manager]?.[name];
    return (stored === undefined ? def.default : stored) as T;
  }

  isSet(manager: ManagerName, name: string): boolean {
    return this.section?.value[manager]?.[name] !== undefined;
  }

  /** Validates, persists, notifies. Throws a ZodError-derived HearthError through the HTTP layer. */
  async set(manager: ManagerName, name: string, value: unknown): Promise<unknown> {
    const def = this.def(manager, name);
    const parsed = def.schema.parse(value);
    await this.mustSection().update((all) => {
      (all[manager] ??= nullRecord())[name] = parsed;
    });
    await this.changed(manager, def, parsed);
    return parsed;
  }

  async unset(manager: ManagerName, name: string): Promise<void> {
    const def = this.def(manager, name);
    const section = this.mustSection();
    if (this.isSet(manager, name)) {
      await section.update((all) => {
        const own = all[manager];
        if (own) delete own[name];
      });
    }
    await this.changed(manager, def, def.default);
  }

  /** Calls `listener(name, value)` after every change of a manager's options. */
  onChange(manager: ManagerName, listener: OptionListener): () => void {
    const set = this.listeners.get(manager) ?? new Set();
    this.listeners.set(manager, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  private async changed(manager: ManagerName, def: OptionContract, value: unknown): Promise<void> {
    const payload = def.secret ? { name: def.name, set: value !== null } : { name: def.name, value };
    this.bus.publish(manager, 'option.update', payload);
    for (const l of this.listeners.get(manager) ?? []) {
      try {
        await l(def.name, value);
      } catch (err) {
        this.onListenerError?.(err, manager, def.name);
      }
    }
  }

  private operations(manager: ManagerName, def: OptionContract): Operation[] {
    // One operation per method; their ids and paths are the contract's (optionOperations).
    const handlers: Partial<Record<string, Operation['handler']>> = {
      GET: () => {
        const stored = this.mustSection().value[manager]?.[def.name];
        return { value: stored === undefined ? def.default : stored };
      },
      PUT: async ({ body }) => ({ value: await this.set(manager, def.name, (body as { value: unknown }).value) }),
      DELETE: () => this.unset(manager, def.name),
    };
    return Object.entries(optionOperations(def)).map(([id, op]) => extendOperation(op, { id, handler: handlers[op.method]! }));
  }
}

function withCheck<T>(schema: z.ZodType<T>, check: OptionCheck): z.ZodType<T> {
  return schema.superRefine((value, ctx) => {
    const problem = check(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}
