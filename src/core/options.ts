/**
 * Options: single named values per manager (`/option/<name>`: GET {value}, PUT {value}, DELETE
 * restores the default). One service holds them all in the store's `options` section; each
 * manager declares its options once and gets its three operations per option from here.
 */
import { z } from 'zod';
import { defineOperation, type Operation } from './operation.js';
import type { EventBus } from './events.js';
import type { ManagerName } from './managers.js';
import type { Scope } from './scopes.js';
import { unavailable } from './errors.js';
import { StoreSectionError, type Section, type Store } from './store.js';
import { nullRecord, safeRecord } from './records.js';

export interface OptionDef<T = unknown> {
  readonly name: string;
  /** Domain validation of a PUT value; its messages name the problem. */
  readonly schema: z.ZodType<T>;
  readonly default: T | null;
  readonly scopes: { readonly get: Scope | null; readonly set: Scope | null; readonly unset: Scope | null };
  /** Never sent in events or state (the PIN); still readable through its GET with its scope. */
  readonly secret?: boolean;
  readonly summary: string;
}

/** Declares an option with its value type inferred from the schema. */
export function defineOption<T>(def: OptionDef<T>): OptionDef {
  return def as OptionDef;
}

type OptionListener = (name: string, value: unknown) => void | Promise<void>;

const OptionsSection = safeRecord(z.string(), safeRecord(z.string(), z.unknown()));

export class OptionService {
  private readonly section: Section<Record<string, Record<string, unknown>>> | null = null;
  /** Why the `options` section could not be opened, or null when it is fine. */
  readonly broken: string | null = null;
  private readonly defs = new Map<string, OptionDef>();
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
      this.section = store.section('options', OptionsSection, () => ({}));
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

  private def(manager: ManagerName, name: string): OptionDef {
    const def = this.defs.get(this.key(manager, name));
    if (!def) throw new Error(`option ${manager}/${name} is not declared`);
    return def;
  }

  /**
   * Declares a manager's options and returns their operations (three per option, with the seed's
   * ids: getOptionX, setOptionX, unsetOptionX).
   */
  register(manager: ManagerName, defs: readonly OptionDef[]): Operation[] {
    const ops: Operation[] = [];
    for (const def of defs) {
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

  private async changed(manager: ManagerName, def: OptionDef, value: unknown): Promise<void> {
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

  private operations(manager: ManagerName, def: OptionDef): Operation[] {
    const cap = def.name[0]!.toUpperCase() + def.name.slice(1);
    const path = `/option/${def.name}`;
    return [
      defineOperation({
        id: `getOption${cap}`,
        method: 'GET',
        path,
        scope: def.scopes.get,
        summary: `Read ${def.summary}`,
        output: z.object({ value: z.unknown() }),
        handler: () => {
          this.mustSection();
          return { value: this.get(manager, def.name) };
        },
      }),
      defineOperation({
        id: `setOption${cap}`,
        method: 'PUT',
        path,
        scope: def.scopes.set,
        summary: `Set ${def.summary}`,
        body: z.strictObject({ value: def.schema }),
        output: z.object({ value: z.unknown() }),
        handler: async ({ body }) => ({ value: await this.set(manager, def.name, body.value) }),
      }),
      defineOperation({
        id: `unsetOption${cap}`,
        method: 'DELETE',
        path,
        scope: def.scopes.unset,
        summary: `Restore the default of ${def.summary}`,
        status: 204,
        handler: () => this.unset(manager, def.name),
      }),
    ];
  }
}
