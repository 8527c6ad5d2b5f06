/**
 * Turns the columns a client sent into stored columns: fills missing column and widget ids with
 * uuids and checks what a schema cannot see — ids unique on the dashboard and across dashboards
 * (a widget instance id is also its widget store's id), app widgets that exist, settings size,
 * and settings values against the app widget's declarations (text, number range, dropdown...).
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { SettingDefinition } from '../../apps/manifest/settings.js';
import { settingProblem } from '../../apps/wire/setting-rules.cjs';
import { invalid } from '../../core/errors.js';
import { type ChoosableDevice, choiceProblem, type DeviceChoice } from '../../home/device-choice.js';
import { appIdOf } from './app-widgets.js';
import { type Column, type ColumnsInput, type Dashboard, LIMITS, type Widget } from './views.js';

export interface ColumnContext {
  /** The dashboard being updated (null on create): its widgets may keep an app widget that is gone. */
  readonly previous: Dashboard | null;
  /** Widget instance id -> id of the other dashboard holding it. */
  readonly usedElsewhere: ReadonlyMap<string, string>;
  readonly appWidgetExists: (id: string) => boolean;
  /** The settings an app widget declares (none when it is unknown). */
  readonly settingDefinitions: (appWidgetId: string) => readonly SettingDefinition[];
  /** Which devices an app widget may be given (null: none). */
  readonly deviceChoice: (appWidgetId: string) => DeviceChoice | null;
  readonly device: (id: string) => ChoosableDevice | null;
}

const HINT = 'list the installed ones with GET /api/manager/dashboards/appwidget';

export function buildColumns(input: ColumnsInput, ctx: ColumnContext): Column[] {
  const previousWidgets = new Map<string, Widget>();
  for (const c of ctx.previous?.columns ?? []) for (const w of c.widgets) previousWidgets.set(w.id, w);
  const columnIds = new Set<string>();
  const widgetIds = new Set<string>();
  return input.map((column, ci) => {
    const columnId = column.id ?? randomUUID();
    if (columnIds.has(columnId)) throw invalid(`body field 'columns.${ci}.id': column id '${columnId}' is used twice`);
    columnIds.add(columnId);
    const widgets = column.widgets.map((w, wi): Widget => {
      const at = `columns.${ci}.widgets.${wi}`;
      const id = w.id ?? randomUUID();
      if (widgetIds.has(id)) throw invalid(`body field '${at}.id': widget id '${id}' is used twice on this dashboard`);
      widgetIds.add(id);
      const other = ctx.usedElsewhere.get(id);
      if (other !== undefined) throw invalid(`body field '${at}.id': widget id '${id}' is used by dashboard '${other}' already`);
      // A widget whose app was uninstalled stays on its dashboard (shown as missing); a new or
      // changed widget must name an app widget that exists now.
      const kept = previousWidgets.get(id)?.appWidgetId === w.appWidgetId;
      if (!kept && !ctx.appWidgetExists(w.appWidgetId)) {
        throw invalid(`body field '${at}.appWidgetId': app widget '${w.appWidgetId}' does not exist; ${HINT}`);
      }
      if (w.settings !== undefined && Buffer.byteLength(JSON.stringify(w.settings)) > LIMITS.widgetSettingsBytes) {
        throw invalid(`body field '${at}.settings' is larger than ${LIMITS.widgetSettingsBytes / 1024} KiB as JSON`);
      }
      if (w.settings) checkSettings(w.settings, kept ? previousWidgets.get(id)?.settings : undefined, ctx.settingDefinitions(w.appWidgetId), at);
      if (w.devices) checkDevices(w.devices, kept ? previousWidgets.get(id)?.devices : undefined, w.appWidgetId, ctx, at);
      return {
        id,
        appWidgetId: w.appWidgetId,
        ...(w.settings !== undefined ? { settings: w.settings } : {}),
        ...(w.devices !== undefined ? { devices: w.devices } : {}),
        ...(w.height !== undefined && w.height !== null ? { height: w.height } : {}),
      };
    });
    return { id: columnId, widgets };
  });
}

/**
 * The devices given to a widget: only to one that asks for them, each once, one at most for a
 * singular picker, each existing and fitting the widget's filter. A list the dashboard already
 * held is left alone (a device deleted since stays listed, and the widget is told only of those
 * that exist), as are settings.
 */
function checkDevices(ids: readonly string[], before: readonly string[] | undefined, appWidgetId: string, ctx: ColumnContext, at: string): void {
  const choice = ctx.deviceChoice(appWidgetId);
  if (!choice) throw invalid(`body field '${at}.devices': widget '${appWidgetId}' shows no devices (its widget.compose.json has no 'devices')`);
  if (new Set(ids).size !== ids.length) throw invalid(`body field '${at}.devices' names a device twice`);
  if (choice.singular && ids.length > 1) throw invalid(`body field '${at}.devices': widget '${appWidgetId}' shows one device, not ${ids.length}`);
  if (before && isDeepStrictEqual(before, ids)) return;
  for (const [i, id] of ids.entries()) {
    if (before?.includes(id)) continue;
    const device = ctx.device(id);
    if (!device) throw invalid(`body field '${at}.devices.${i}': device '${id}' does not exist; list them with GET /api/manager/devices/device`);
    const problem = choiceProblem(choice, appIdOf(appWidgetId), device);
    if (problem) throw invalid(`body field '${at}.devices.${i}': ${problem}`);
  }
}

/**
 * Each declared setting whose value is new must fit its declaration. Values a dashboard already
 * held are left alone: an app upgrade that drops a dropdown value must not make every later save
 * of that dashboard fail. Undeclared keys are free-form, as for app settings.
 */
function checkSettings(
  settings: Readonly<Record<string, unknown>>,
  before: Readonly<Record<string, unknown>> | undefined,
  definitions: readonly SettingDefinition[],
  at: string,
): void {
  for (const def of definitions) {
    if (!Object.hasOwn(settings, def.id)) continue;
    const value = settings[def.id];
    if (before && isDeepStrictEqual(before[def.id], value)) continue;
    const problem = settingProblem(def, value);
    if (problem) throw invalid(`body field '${at}.settings.${def.id}': ${problem}`);
  }
}
