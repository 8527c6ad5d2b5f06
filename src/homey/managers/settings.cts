/**
 * `this.homey.settings`: Homey's synchronous settings. Reads come from a copy in the app's
 * process (sent with init, kept current by the hub's events); a write changes the copy at once,
 * fires `set`, and goes to the hub, which stores it in db.json and tells the app's pages. What
 * the hub would refuse (too large, too many, not what app.json declares) throws here, where the
 * app made the call. These are the settings the Web API's getAppSettings/setAppSetting show.
 */
import { capProblem, type DeclaredSetting, keyProblem, settingProblem, storedValue } from '../../apps/wire/setting-rules.cjs';
import type { HomeyContext } from '../context.cjs';
import { HomeyError } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

export class ManagerSettings extends Manager {
  static ID = 'settings';
  private readonly saved: Record<string, unknown>;
  private readonly defaults: Record<string, unknown>;

  constructor(private readonly ctx: HomeyContext) {
    super();
    this.saved = Object.assign(Object.create(null) as Record<string, unknown>, ctx.state.settings);
    this.defaults = Object.assign(Object.create(null) as Record<string, unknown>, ctx.state.defaults);
  }

  /** Every key with a value: saved ones and declared defaults. */
  getKeys(): string[] {
    return [...new Set([...Object.keys(this.defaults), ...Object.keys(this.saved)])];
  }

  /** The value, or null when the key has none. */
  get(key: string): unknown {
    if (Object.hasOwn(this.saved, key)) return this.saved[key];
    return Object.hasOwn(this.defaults, key) ? this.defaults[key] : null;
  }

  /**
   * `value` undefined unsets the key, as on Homey: the JSON it keeps settings in cannot hold
   * undefined, so the key reads back null (apps write `set(key, this.option)` before the option
   * has a value; refusing it stopped them in onInit).
   */
  set(key: string, value: unknown): void {
    checkKey(key);
    if (value === undefined) {
      this.unset(key);
      return;
    }
    const as = storedValue(key, value);
    if (!as.ok) throw new HomeyError(as.problem, 'invalid_args');
    const stored = as.value;
    const declared = this.declared(key);
    const problem = (declared && settingProblem(declared, stored)) || capProblem(this.ctx.app.id, this.saved, key, stored);
    if (problem) throw new HomeyError(problem, 'invalid_args');
    const before = Object.hasOwn(this.saved, key) ? { value: this.saved[key] } : null;
    this.saved[key] = stored;
    this.emit('set', key);
    this.ctx.transport.call('settings.set', { key, value: stored }).catch((err: Error) => {
      // Refused after all (the hub's view differs): undo, unless something changed it since.
      if (this.saved[key] === stored) this.restore(key, before);
      this.error(`the hub refused settings.set('${key}'): ${err.message}`);
    });
  }

  unset(key: string): void {
    checkKey(key);
    if (!Object.hasOwn(this.saved, key)) return;
    delete this.saved[key];
    this.emit('unset', key);
    this.ctx.transport.call('settings.unset', { key }).catch((err: Error) => this.error(`the hub refused settings.unset('${key}'): ${err.message}`));
  }

  /** A change made elsewhere (the Web API, a settings page), as the hub reported it. */
  changed(key: string, value: { value: unknown } | null): void {
    this.restore(key, value);
  }

  private restore(key: string, value: { value: unknown } | null): void {
    if (value) {
      this.saved[key] = value.value;
      this.emit('set', key);
    } else if (Object.hasOwn(this.saved, key)) {
      delete this.saved[key];
      this.emit('unset', key);
    }
  }

  private declared(key: string): DeclaredSetting | undefined {
    const settings = this.ctx.manifest.settings;
    return Array.isArray(settings) ? (settings as DeclaredSetting[]).find((s) => s?.id === key) : undefined;
  }
}

function checkKey(key: unknown): asserts key is string {
  const problem = keyProblem(key);
  if (problem) throw new HomeyError(problem, 'invalid_args');
}
