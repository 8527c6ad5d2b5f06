// Unit tests of buildColumns' settings checks: declared settings must fit their declaration when
// their value is new; values a dashboard already held, and undeclared keys, are left alone.
import { describe, expect, it } from 'vitest';
import type { SettingDefinition } from '../../../src/apps/manifest/settings.js';
import { buildColumns, type ColumnContext } from '../../../src/managers/dashboards/columns.js';
import type { Dashboard } from '../../../src/managers/dashboards/views.js';

const WIDGET = 'com.test.w:clock';
const definitions: SettingDefinition[] = [
  {
    id: 'mode',
    type: 'dropdown',
    label: { en: 'Mode' },
    values: [
      { id: 'day', label: { en: 'Day' } },
      { id: 'night', label: { en: 'Night' } },
    ],
  },
  { id: 'size', type: 'number', label: { en: 'Size' }, min: 1, max: 10 },
];

function context(previous: Dashboard | null = null): ColumnContext {
  return {
    previous,
    usedElsewhere: new Map(),
    appWidgetExists: (id) => id === WIDGET,
    settingDefinitions: (id) => (id === WIDGET ? definitions : []),
    deviceChoice: () => null,
    device: () => null,
  };
}

const columns = (settings: Record<string, unknown>) => [{ id: 'c', widgets: [{ id: 'w', appWidgetId: WIDGET, settings }] }];

describe('widget settings against their declarations', () => {
  it('accepts values that fit, null, and keys the widget does not declare', () => {
    const built = buildColumns(columns({ mode: 'night', size: 10, free: { any: ['json'] } }), context());
    expect(built[0]!.widgets[0]!.settings).toEqual({ mode: 'night', size: 10, free: { any: ['json'] } });
    expect(buildColumns(columns({ mode: null }), context())[0]!.widgets[0]!.settings).toEqual({ mode: null });
  });

  it('refuses a new value outside its declaration, naming the field', () => {
    expect(() => buildColumns(columns({ mode: 'dusk' }), context())).toThrow(
      "body field 'columns.0.widgets.0.settings.mode': setting 'mode' must be one of: day, night",
    );
    expect(() => buildColumns(columns({ size: 11 }), context())).toThrow("body field 'columns.0.widgets.0.settings.size': setting 'size' must be at most 10");
  });

  it('leaves alone a value the dashboard already held, even if the declaration no longer allows it', () => {
    const previous: Dashboard = { id: 'd', name: 'D', columns: [{ id: 'c', widgets: [{ id: 'w', appWidgetId: WIDGET, settings: { mode: 'dusk' } }] }] };
    expect(buildColumns(columns({ mode: 'dusk', size: 3 }), context(previous))[0]!.widgets[0]!.settings).toEqual({ mode: 'dusk', size: 3 });
    // A changed value is checked again.
    expect(() => buildColumns(columns({ mode: 'dawn' }), context(previous))).toThrow(/must be one of: day, night/);
  });
});
