/**
 * The home's variables, kept in the data file's `logic-variables` section (each change written
 * at once). A value always has its variable's type; names are unique, as Homey's editor shows
 * variables by name.
 */
import { randomUUID } from 'node:crypto';
import { KiB, MiB } from '../../core/byte-bounds.js';
import { diff } from '../../core/diff.js';
import { conflict, invalid, notFound } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import type { RecordSection, Store } from '../../core/store.js';
import type { HubBus } from '../bus.js';
import { type VariableType, type VariableValue, VariableView } from './contract.js';

/** Variables a home keeps at most. */
const MAX_VARIABLES = 1_000;

export class LogicService {
  private section!: RecordSection<VariableView>;

  constructor(
    private readonly store: Store,
    private readonly bus: HubBus,
  ) {}

  start(): void {
    this.section = this.store.records('logic-variables', VariableView(), { record: 32 * KiB, item: 'a variable', section: 2 * MiB, items: 'variables' });
  }

  list(): Record<string, VariableView> {
    return Object.assign(nullRecord<VariableView>(), this.section.value);
  }

  has(id: string): boolean {
    return Object.hasOwn(this.section.value, id);
  }

  get(id: string): VariableView {
    const v = this.section.value[id];
    if (!v) throw notFound(`variable '${id}' does not exist`);
    return v;
  }

  /** A variable as it will be once the writes queued are on disk, for a check or a change to build on. */
  private pending(id: string): VariableView {
    const v = this.section.next[id];
    if (!v) throw notFound(`variable '${id}' does not exist`);
    return v;
  }

  /** Checked against the writes queued too: twenty creates at once with one name make one variable. */
  private checkName(name: string, except: string | null): void {
    const taken = Object.values(this.section.next).find((v) => v.id !== except && v.name.toLowerCase() === name.toLowerCase());
    if (taken) throw conflict(`a variable named '${taken.name}' exists already`);
  }

  async create(body: { name: string; type: VariableType; value: VariableValue }): Promise<VariableView> {
    if (typeof body.value !== body.type) throw invalid(`variable '${body.name}' is a ${body.type}; its value cannot be ${JSON.stringify(body.value)}`);
    if (Object.keys(this.section.next).length >= MAX_VARIABLES) throw conflict(`a home has at most ${MAX_VARIABLES} variables`);
    this.checkName(body.name, null);
    const variable: VariableView = { id: randomUUID(), name: body.name, type: body.type, value: body.value };
    await this.section.updateSome([variable.id], (d) => {
      d[variable.id] = variable;
    });
    this.bus.publish('logic', 'variable.create', variable);
    return variable;
  }

  async update(id: string, patch: { name?: string | undefined; value?: VariableValue | undefined }): Promise<VariableView> {
    const before = this.pending(id);
    if (patch.value !== undefined && typeof patch.value !== before.type) {
      throw invalid(`variable '${before.name}' is a ${before.type}; its value cannot be ${JSON.stringify(patch.value)}`);
    }
    if (patch.name !== undefined) this.checkName(patch.name, id);
    const next: VariableView = { ...before, name: patch.name ?? before.name, value: patch.value ?? before.value };
    await this.section.updateSome([id], (d) => {
      d[id] = next;
    });
    this.bus.publish('logic', 'variable.update', next, diff(before, next));
    return next;
  }

  async remove(id: string): Promise<void> {
    const variable = this.pending(id);
    await this.section.updateSome([id], (d) => {
      delete d[id];
    });
    this.bus.publish('logic', 'variable.delete', variable);
  }
}
