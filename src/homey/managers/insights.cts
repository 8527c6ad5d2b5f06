/**
 * `this.homey.insights`: the app's own insights logs, in the hub's SQLite insights (the Web
 * API's insights manager shows them as `homey:app:<appId>:<logId>`). An app sees only its own.
 */
import type { HomeyContext } from '../context.cjs';
import { HomeyError } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

interface LogInfo {
  id: string;
  [field: string]: unknown;
}

/** One log of the app. `name` is its id. */
export class InsightsLog {
  constructor(
    private readonly ctx: HomeyContext,
    readonly name: string,
    readonly options: Record<string, unknown>,
  ) {}

  /**
   * Records `value` now. (hearth also takes a `date` to record at, for backfilling history.)
   */
  async createEntry(value: number | boolean, date?: Date): Promise<void> {
    if (typeof value !== 'number' && typeof value !== 'boolean') throw new HomeyError('createEntry needs a number or a boolean', 'invalid_args');
    await this.ctx.transport.call('insights.createEntry', { id: this.name, value, ...(date ? { date: date.toISOString() } : {}) });
  }

  toJSON(): { name: string; options: Record<string, unknown> } {
    return { name: this.name, options: this.options };
  }
}

export class ManagerInsights extends Manager {
  static ID = 'insights';

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  private toLog(info: LogInfo): InsightsLog {
    const { id, ...options } = info;
    return new InsightsLog(this.ctx, id, options);
  }

  async getLogs(): Promise<InsightsLog[]> {
    return ((await this.ctx.transport.call('insights.getLogs', {})) as LogInfo[]).map((l) => this.toLog(l));
  }

  /** Rejects with code `not_found` when the app has no log `id`. */
  async getLog(id: string): Promise<InsightsLog> {
    return this.toLog((await this.ctx.transport.call('insights.getLog', { id })) as LogInfo);
  }

  /** Creates the log, or gives the existing one of that id. */
  async createLog(
    id: string,
    options: { title: string | Record<string, string>; type: string; units?: string; decimals?: number; titleTrue?: string; titleFalse?: string },
  ): Promise<InsightsLog> {
    if (options?.type !== 'number' && options?.type !== 'boolean') throw new HomeyError(`log '${id}' needs type 'number' or 'boolean'`, 'invalid_args');
    const info = (await this.ctx.transport.call('insights.createLog', { id, options: options as never })) as LogInfo;
    return this.toLog(info);
  }

  /** Deletes a log (its instance, or its id) with all its entries. */
  async deleteLog(log: { readonly name: string } | string): Promise<void> {
    await this.ctx.transport.call('insights.deleteLog', { id: typeof log === 'string' ? log : log.name });
  }
}
