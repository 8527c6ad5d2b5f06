/**
 * The app's side of its Web API, in the app's process: loads `api.js` (the app's, or a widget's
 * `widgets/<id>/api.js`) when first called and runs the function named after the route with
 * Homey's `{ homey, params, query, body }`. What the function returns is the answer; what it
 * throws becomes an error answer (its `statusCode` when it set one between 400 and 599, else 500).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiAnswer, ApiCall } from '../wire/protocol.js';
import { RpcError } from '../wire/wire.js';
import { loadModule } from './load-module.js';

type Handler = (args: Record<string, unknown>) => unknown;
type Handlers = Record<string, unknown>;

export class WebApiHandlers {
  private readonly modules = new Map<string, Promise<Handlers>>();

  constructor(
    private readonly appDir: string,
    private readonly homey: unknown,
  ) {}

  private folderOf(widgetId: string | null): string {
    return widgetId === null ? this.appDir : join(this.appDir, 'widgets', widgetId);
  }

  /** The exports of api.js (or api.mjs) in `folder`, loaded once. */
  private load(widgetId: string | null): Promise<Handlers> {
    const key = widgetId ?? '';
    let loaded = this.modules.get(key);
    if (!loaded) {
      const folder = this.folderOf(widgetId);
      const file = ['api.js', 'api.mjs', 'api.cjs'].map((f) => join(folder, f)).find((f) => existsSync(f));
      loaded = file
        ? loadModule(file).then((mod) => {
            // module.exports = {...} arrives as `default`; ES modules may export named functions too.
            const d = mod.default;
            return (typeof d === 'object' && d !== null ? { ...mod, ...(d as Handlers) } : mod) as Handlers;
          })
        : Promise.reject(new RpcError('not_found', `${widgetId === null ? 'the app' : `widget '${widgetId}'`} has no api.js`));
      this.modules.set(key, loaded);
    }
    return loaded;
  }

  async run(call: ApiCall): Promise<ApiAnswer> {
    const handlers = await this.load(call.widgetId);
    const fn = handlers[call.route];
    if (typeof fn !== 'function') {
      const where = call.widgetId === null ? 'api.js' : `widgets/${call.widgetId}/api.js`;
      return { ok: false, status: 501, message: `${where} exports no function '${call.route}' for this route` };
    }
    try {
      const result = await (fn as Handler)({
        homey: this.homey,
        params: call.params,
        query: call.query,
        body: call.body ?? {},
        ...(call.widgetInstanceId !== undefined ? { widgetInstanceId: call.widgetInstanceId } : {}),
      });
      // Sent as JSON: what JSON cannot hold (undefined, functions) is dropped here, not in the hub.
      const json = JSON.stringify(result);
      return { ok: true, body: json === undefined ? null : JSON.parse(json) };
    } catch (err) {
      const status = Number((err as { statusCode?: unknown })?.statusCode);
      const message = err instanceof Error ? err.message : String(err);
      return { ok: false, status: Number.isInteger(status) && status >= 400 && status <= 599 ? status : 500, message: message.slice(0, 4096) };
    }
  }
}
