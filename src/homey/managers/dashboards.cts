/**
 * `this.homey.dashboards`: the app's widgets (app.json `widgets`), and the listeners that answer
 * their autocomplete settings while someone configures a widget on a dashboard.
 */
import type { HomeyContext } from '../context.cjs';
import { HomeyError } from '../errors.cjs';
import { Manager } from '../simple-class.cjs';

/** One result an autocomplete listener offers; extra fields come back in the widget's settings. */
export interface AutocompleteResult {
  name: string;
  description?: string;
  image?: string;
  icon?: string;
  [field: string]: unknown;
}
export type AutocompleteListener = (query: string, settings: any) => AutocompleteResult[] | Promise<AutocompleteResult[]>;

/** One setting of a widget (`widget.getSetting(id)`). */
export class WidgetSetting {
  constructor(
    private readonly widget: Widget,
    readonly id: string,
  ) {}

  registerAutocompleteListener(listener: AutocompleteListener): void {
    this.widget.registerSettingAutocompleteListener(this.id, listener);
  }
}

/** One widget the app declares (`this.homey.dashboards.getWidget(id)`). */
export class Widget {
  readonly listeners = new Map<string, AutocompleteListener>();

  constructor(
    readonly id: string,
    private readonly settingIds: readonly string[],
  ) {}

  private setting(name: string): string {
    if (!this.settingIds.includes(name)) {
      throw new HomeyError(`widget '${this.id}' has no setting '${name}' in app.json (it has: ${this.settingIds.join(', ') || 'none'})`, 'not_found');
    }
    return name;
  }

  /** Answers the autocomplete setting `name` of this widget; a second listener replaces the first. */
  registerSettingAutocompleteListener(name: string, listener: AutocompleteListener): Widget {
    if (typeof listener !== 'function') throw new HomeyError('registerSettingAutocompleteListener needs a listener function', 'invalid_args');
    this.listeners.set(this.setting(name), listener);
    return this;
  }

  getSetting(name: string): WidgetSetting {
    return new WidgetSetting(this, this.setting(name));
  }
}

/** Most results passed on (the protocol allows 200). */
const MAX_RESULTS = 200;

export class ManagerDashboards extends Manager {
  static ID = 'dashboards';
  private readonly widgets = new Map<string, Widget>();

  constructor(private readonly ctx: HomeyContext) {
    super();
  }

  /** The widget of that id in app.json; throws (code not_found) for any other id. */
  getWidget(id: string): Widget {
    let widget = this.widgets.get(id);
    if (widget) return widget;
    const declared = this.ctx.manifest.widgets as Record<string, { settings?: Array<{ id?: unknown }> }> | undefined;
    const def = declared && Object.hasOwn(declared, id) ? declared[id] : undefined;
    if (!def) throw new HomeyError(`the app has no widget '${id}' in app.json`, 'not_found');
    widget = new Widget(
      id,
      (def.settings ?? []).map((s) => String(s?.id)),
    );
    this.widgets.set(id, widget);
    return widget;
  }

  /** Runs the listener the app registered (the hub asks while someone types in the setting). */
  async autocomplete(widgetId: string, settingId: string, query: string, settings: Record<string, unknown>): Promise<AutocompleteResult[]> {
    const listener = this.widgets.get(widgetId)?.listeners.get(settingId);
    if (!listener) throw new HomeyError(`the app registered no autocomplete listener for widget '${widgetId}' setting '${settingId}'`, 'not_found');
    const results: unknown = await listener(query, settings);
    if (!Array.isArray(results)) throw new HomeyError('the autocomplete listener did not return an array', 'invalid_args');
    return (results as AutocompleteResult[]).slice(0, MAX_RESULTS);
  }
}
