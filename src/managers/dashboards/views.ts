/**
 * The shapes of the dashboards manager: what clients send (create/update bodies), what is kept
 * in the store (section `dashboards`: dashboards and widget stores together, so one write keeps
 * them in step), and what the API answers. Limits are data here, next to the schemas.
 */

import { z } from 'zod';
import { lazy } from '../../core/contract.js';
import { safeRecord } from '../../core/null-prototype.js';

export const LIMITS = {
  nameLength: 100,
  columns: 20,
  widgetsPerColumn: 100,
  /** Largest widget store state, as JSON text. */
  stateBytes: 64 * 1024,
  /** Devices one widget instance shows at most (Homey's `devices` picker). */
  devicesPerWidget: 100,
  /** Largest settings object of one widget instance, as JSON text. */
  widgetSettingsBytes: 16 * 1024,
  /** Autocomplete results returned to a client at most. */
  autocompleteResults: 100,
  autocompleteTimeoutMs: 5_000,
  /** Autocomplete requests waiting on one app at once; more answer 503. */
  autocompleteInFlight: 32,
} as const;

/** Ids clients may choose (uuids fit); ids the hub makes are uuids. */
const LocalId = lazy(() => z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or - (a uuid fits)'));
/** `<appId>:<widgetId>` as listed by getAppWidgets. */
export const AppWidgetId = lazy(() =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_.-]+:[A-Za-z0-9_-]+$/, 'must be an app widget id such as com.example.app:clock'),
);
const Height = lazy(() => z.union([z.number().int().positive().max(4000), z.string().regex(/^\d{1,3}%$/, "must be pixels or a percentage such as '75%'")]));
const JsonObject = lazy(() => safeRecord(z.string(), z.unknown()));

const DeviceIds = lazy(() => z.array(z.string().min(1).max(100)).max(LIMITS.devicesPerWidget, `a widget shows ${LIMITS.devicesPerWidget} devices at most`));

const WidgetInput = lazy(() =>
  z.strictObject({
    id: LocalId().optional(),
    appWidgetId: AppWidgetId(),
    settings: JsonObject().optional(),
    /** The devices chosen for a widget whose app widget asks for them (its `devices` key), in the order shown. */
    devices: DeviceIds().optional(),
    height: Height().nullable().optional(),
    /** Answered by the hub; accepted (and ignored) so a client can send back what it got. */
    missing: z.boolean().optional(),
  }),
);
const ColumnInput = lazy(() =>
  z.strictObject({
    id: LocalId().optional(),
    widgets: z.array(WidgetInput()).max(LIMITS.widgetsPerColumn, `a column holds at most ${LIMITS.widgetsPerColumn} widgets`).default([]),
  }),
);
const Name = lazy(() => z.string().trim().min(1, 'must not be empty').max(LIMITS.nameLength, `must be at most ${LIMITS.nameLength} characters`));
const Columns = lazy(() => z.array(ColumnInput()).max(LIMITS.columns, `a dashboard has at most ${LIMITS.columns} columns`));

/** createDashboard's body (the dashboard itself, or wrapped as `{"dashboard": {...}}`). */
export const CreateDashboardBody = lazy(() => z.strictObject({ id: LocalId().optional(), name: Name(), columns: Columns() }));
/** updateDashboard's body: any of name and columns; `id` only if it is the one in the path. */
export const UpdateDashboardBody = lazy(() => z.strictObject({ id: LocalId().optional(), name: Name().optional(), columns: Columns().optional() }));
export type ColumnsInput = z.output<ReturnType<typeof Columns>>;

/** A widget instance as stored. */
export const Widget = lazy(() =>
  z.object({
    id: z.string(),
    appWidgetId: z.string(),
    settings: JsonObject().optional(),
    devices: z.array(z.string()).optional(),
    height: Height().nullable().optional(),
  }),
);
export type Widget = z.infer<ReturnType<typeof Widget>>;
export const Column = lazy(() => z.object({ id: z.string(), widgets: z.array(Widget()) }));
export type Column = z.infer<ReturnType<typeof Column>>;
export const Dashboard = lazy(() => z.object({ id: z.string(), name: z.string(), columns: z.array(Column()) }));
export type Dashboard = z.infer<ReturnType<typeof Dashboard>>;

export const WidgetStore = lazy(() => z.object({ id: z.string(), ownerUri: z.string(), state: JsonObject() }));
export type WidgetStore = z.infer<ReturnType<typeof WidgetStore>>;

/** The store section. */
export const DashboardsSection = lazy(() =>
  z.object({
    dashboards: safeRecord(z.string(), Dashboard()),
    widgetStores: safeRecord(z.string(), WidgetStore()),
  }),
);
export type DashboardsSection = z.infer<ReturnType<typeof DashboardsSection>>;
export const SECTION = 'dashboards';

/** A dashboard as the API answers it: a widget whose app widget is gone says `missing: true`. */
export const DashboardView = lazy(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    columns: z.array(
      z.object({
        id: z.string(),
        widgets: z.array(Widget().extend({ missing: z.literal(true).optional().describe('its app widget is not installed (any more)') })),
      }),
    ),
  }),
);

export type DashboardView = z.infer<ReturnType<typeof DashboardView>>;

export const SettingView = lazy(() => JsonObject().describe("one setting definition from the app's app.json"));
export const AppWidgetView = lazy(() =>
  z.object({
    id: z.string().describe('<appId>:<widgetId>'),
    ownerId: z.string(),
    ownerUri: z.string().describe('homey:app:<appId>'),
    ownerName: z.string(),
    name: z.string().describe("in the hub's language"),
    settings: z.array(SettingView()),
    height: Height().nullable(),
    transparent: z.boolean(),
    deprecated: z.boolean(),
    devices: z
      .object({
        type: z.enum(['app', 'global']),
        singular: z.boolean(),
        filter: z.object({ class: z.string().optional(), capabilities: z.string().optional() }).optional(),
      })
      .nullable()
      .describe("Homey's devices picker: which devices the widget may be given (its page reads them with Homey.getDeviceIds()); null when it takes none"),
    preview: z
      .object({ light: z.string().nullable(), dark: z.string().nullable() })
      .describe(
        "the widget's preview pictures (preview-light.png, preview-dark.png in its folder) at /app/<appId>/widget-preview/<widgetId>/<theme>; null where it has none",
      ),
  }),
);
export type AppWidget = z.infer<ReturnType<typeof AppWidgetView>>;

/** Homey's autocomplete result: `name` shown; the app may add fields (an `id`, usually), kept in the setting's value. */
export const AutocompleteResult = lazy(() =>
  z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    image: z.string().optional(),
    icon: z.string().optional(),
  }),
);

export const StateView = lazy(() =>
  z.object({
    dashboards: z.number().int(),
    widgets: z.number().int().describe('widget instances on all dashboards'),
    widgetStores: z.number().int(),
    appWidgets: z.number().int(),
    appWidgetsNotRunning: z.number().int().describe('app widgets whose app is not running'),
    missingWidgets: z.number().int().describe('widget instances whose app widget is not installed'),
  }),
);
export type DashboardsState = z.infer<ReturnType<typeof StateView>>;
