/**
 * The app manifest: Homey's `app.json`, accepted as Homey apps ship it. The fields hearth uses are
 * checked and normalised (a setting's `title` is its label, its `value` its default); every other
 * Homey field is kept in `raw` (the app reads it as `this.homey.manifest`) and never an error.
 * Loading a folder gives a manifest or a sentence saying what is wrong: a broken app is listed,
 * never fatal. A folder with `.homeycompose/` and no app.json is composed first (compose.ts).
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join, normalize } from 'node:path';
import semver from 'semver';
import { z } from 'zod';
import { jsonErrorAt } from '../../core/json-error.js';
import { nearest } from '../../core/nearest.js';
import { nullRecord, safeRecord } from '../../core/null-prototype.js';
import { transient } from '../../core/transient.js';
import { describeIssues } from '../../core/zod-issues.js';
import type { Capability } from '../../home/capability.js';
import { CustomCapabilities, type DiscoveryStrategy, DriverList, readDiscovery } from './drivers.js';
import type { FlowKind } from './flow-cards.js';
import { permissionProblem } from './permissions.js';
import { LOCAL_ID, Localized, Settings, settingWarnings, withReadableSettings } from './settings.js';
import { describeUnrun, incompatibility } from './support.js';

/** Reverse-domain id: at least two dot-separated segments, e.g. `com.hearth.sysmon`. */
export const APP_ID = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$/i;

/** A semantic version exactly as semver.org writes it (`1.0.0`, `2.1.0-beta.3`; not `v1.0`). */
export const Version = transient(() =>
  z
    .string()
    .max(256)
    // semver itself tolerates a leading 'v' or '=' and spaces; a manifest must be exact.
    .refine((v) => /^\d/.test(v) && v.trim() === v && semver.valid(v) !== null, 'must be a semantic version such as 1.0.0'),
);

export const AppId = transient(() => z.string().max(128).regex(APP_ID, 'must be a reverse-domain id such as com.example.myapp'));

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
const Method = transient(() =>
  z
    .string()
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(HTTP_METHODS, { error: 'method must be GET, POST, PUT or DELETE' })),
);
/** `/`, `/things`, `/things/:id`: literal segments and `:name` parameters, nothing else. */
const RoutePath = transient(() =>
  z
    .string()
    .max(256)
    .regex(/^\/([A-Za-z0-9._~-]+|:[A-Za-z_][A-Za-z0-9_]*)?(\/([A-Za-z0-9._~-]+|:[A-Za-z_][A-Za-z0-9_]*))*\/?$/, 'must be a path such as / or /things/:id'),
);

/** One Web API route of an app or widget: `api.js` exports a function named after its key. */
export const ApiRoute = transient(() =>
  z
    .object({
      method: z.union([Method(), z.array(Method()).min(1)]),
      path: RoutePath(),
      public: z.boolean().optional(),
    })
    .transform((r) => ({ methods: Array.isArray(r.method) ? r.method : [r.method], path: r.path, public: r.public === true })),
);
export type ApiRoute = z.output<ReturnType<typeof ApiRoute>>;

const ApiRoutes = transient(() => safeRecord(z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/, 'must be the name of a function in api.js'), ApiRoute()));

/**
 * Homey's widget `devices` key: the dashboard offers a device picker, and the page reads the
 * chosen ids with Homey.getDeviceIds(). Homey requires `type` and `singular`; a widget that
 * leaves them out gets its own app's devices, as many as the person picks.
 */
export const WidgetDevices = transient(() =>
  z.object({
    type: z.enum(['app', 'global']).default('app'),
    singular: z.boolean().default(false),
    filter: z
      .object({
        class: z.string().max(500).optional(),
        capabilities: z.string().max(2000).optional(),
      })
      .optional(),
  }),
);

export const WidgetDefinition = transient(() =>
  z.object({
    name: Localized(),
    devices: WidgetDevices().optional(),
    settings: z.preprocess((s) => s ?? [], Settings()),
    /** Pixels, or a percentage of the width ('75%'). */
    height: z.union([z.number().int().positive().max(4000), z.string().regex(/^\d{1,3}%$/)]).optional(),
    transparent: z.boolean().optional(),
    deprecated: z.boolean().optional(),
    api: ApiRoutes().default(() => nullRecord<ApiRoute>()),
  }),
);
export type WidgetDefinition = z.infer<ReturnType<typeof WidgetDefinition>>;

const RelativeFile = transient(() =>
  z
    .string()
    .min(1)
    .refine((p) => !isAbsolute(p) && !normalize(p).startsWith('..'), 'must be a path inside the app folder'),
);

/**
 * An image Homey's app.json names (`"/assets/images/small.png"`): a picture file inside the app
 * folder, the leading slash Homey writes dropped. A bad one is left out, never a reason to refuse
 * the app: images are decoration.
 */
const ImagePath = transient(() =>
  z
    .string()
    .max(256)
    .transform((p) => p.replace(/^\/+/, ''))
    .pipe(RelativeFile().refine((p) => /\.(png|jpe?g|svg|webp)$/i.test(p), 'must be a png, jpg, svg or webp file'))
    .optional()
    .catch(undefined),
);
export const IMAGE_KINDS = ['small', 'large', 'xlarge', 'icon'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

const permission = transient(() =>
  z.string().superRefine((p, ctx) => {
    const problem = permissionProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/** An entry of a list Homey keys by `id` (flow cards, drivers): only the id matters here. */
const Declared = transient(() => z.array(z.looseObject({ id: z.string().min(1).max(128) })).optional());

export const Schema = transient(() =>
  z.object({
    id: AppId(),
    version: Version(),
    sdk: z.literal(3, 'must be 3 (the SDK version this hub runs)'),
    name: Localized(),
    description: Localized().optional(),
    /** Homey's app pictures (small 250x175, large 500x350, xlarge 1000x700) and its icon (SVG). */
    images: z.object({ small: ImagePath(), large: ImagePath(), xlarge: ImagePath() }).optional().catch(undefined),
    icon: ImagePath(),
    brandColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .optional()
      .catch(undefined),
    /** hearth's extension: the main module; Homey's is app.js, app.mjs or app.cjs, whichever the app has (mainModule). */
    main: RelativeFile().optional(),
    esm: z.boolean().optional(),
    runtime: z.string().optional(),
    platforms: z.array(z.string()).optional(),
    permissions: z
      .array(permission())
      .default([])
      .transform((p) => [...new Set(p)]),
    /** hearth's extension: declared app settings with their defaults (Homey has none). */
    settings: Settings().default([]),
    api: ApiRoutes().default(() => nullRecord<ApiRoute>()),
    widgets: safeRecord(z.string(), WidgetDefinition())
      .superRefine((widgets, ctx) => {
        for (const id of Object.keys(widgets)) {
          if (!LOCAL_ID.test(id)) ctx.addIssue({ code: 'custom', path: [id], message: `widget id '${id}' must be 1-64 letters, digits, _ or -` });
        }
      })
      .default(() => nullRecord<z.output<ReturnType<typeof WidgetDefinition>>>()),
    flow: z.looseObject({ triggers: Declared(), conditions: Declared(), actions: Declared() }).optional(),
    drivers: DriverList().default([]),
    /** The app's own capabilities, as hearth's capability facts. */
    capabilities: CustomCapabilities().default(() => nullRecord<Capability>()),
    /** hearth's extension: what the app needs beyond the hub's defaults (up to the hub's maximum). */
    hearth: z
      .object({
        memoryMb: z.number().int().positive().optional(),
        diskMb: z.number().int().positive().optional(),
      })
      .optional(),
  }),
);

export interface AppManifest extends Omit<z.output<ReturnType<typeof Schema>>, 'flow' | 'main'> {
  /** The main module app.json names (hearth's extension), relative to the app folder; null: found by its file (mainModule). */
  main: string | null;
  /** The ids of the flow cards the app declares, per kind. */
  flow: Record<FlowKind, string[]>;
  /** Why hearth cannot run the app at all (every driver needs a radio, another runtime), or null. */
  incompatible: string | null;
  /** What the app declares that hearth does not run, one sentence each. */
  unrun: string[];
  /** app.json as the app wrote it (or as compose made it): `this.homey.manifest`. */
  raw: Record<string, unknown>;
  /** What Homey's tools would warn about and hearth let pass, one sentence each naming the field. */
  warnings: string[];
  /** The discovery strategies hearth runs (app.json `discovery`: mdns-sd, ssdp, mac), by id. */
  discovery: Record<string, DiscoveryStrategy>;
  /**
   * Each widget's preview pictures found in its folder (`widgets/<id>/preview-light.png`,
   * `preview-dark.png`, as Homey's add-widget picker shows them), relative to the app folder.
   */
  widgetPreviews?: Record<string, { light?: string; dark?: string }>;
}

export const MANIFEST_FILE = 'app.json';
/**
 * The largest app.json (written or composed) the hub reads: it keeps each app's manifest in
 * memory and sends it to the app. Homey sets no such limit we know of; an app with 124 flow
 * cards already passes 256 KiB, and the largest in our corpus of real apps is far below this.
 */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
export const MAX_MANIFEST_TEXT = '4 MiB';

export type ManifestResult = { ok: true; manifest: AppManifest } | { ok: false; message: string };

/** Images and the brand colour app.json names but hearth left out (they are decoration, never a refusal). */
function droppedDecoration(m: z.output<ReturnType<typeof Schema>>, raw: Record<string, unknown>): string[] {
  const out: string[] = [];
  const images = (typeof raw.images === 'object' && raw.images !== null ? raw.images : {}) as Record<string, unknown>;
  for (const kind of ['small', 'large', 'xlarge'] as const) {
    if (images[kind] !== undefined && m.images?.[kind] === undefined)
      out.push(`images.${kind}: not a png, jpg, svg or webp file inside the app folder; left out`);
  }
  if (raw.icon !== undefined && m.icon === undefined) out.push('icon: not a png, jpg, svg or webp file inside the app folder; left out');
  if (raw.brandColor !== undefined && m.brandColor === undefined) out.push('brandColor: not a colour such as #00aaff; left out');
  return out;
}

/**
 * The top-level keys of app.json that Homey's apps use (its docs and validator, and what the
 * apps of the compatibility corpus write), and hearth's own `main` and `hearth` (an app's memory
 * and disk beyond the defaults, which the hub reads): any other is most likely a typo,
 * which Homey's validator would refuse and hearth would otherwise ignore in silence.
 */
const KNOWN_KEYS = new Set([
  ...['_comment', 'id', 'version', 'compatibility', 'sdk', 'runtime', 'esm', 'main', 'platforms', 'name', 'description', 'category'],
  ...['permissions', 'images', 'icon', 'author', 'contributors', 'contributing', 'bugs', 'source', 'homepage', 'support', 'tags'],
  ...['brandColor', 'brandName', 'homeyCommunityTopicId', 'platformLocalRequiredFeatures', 'dependencies', 'api', 'flow', 'drivers'],
  ...['capabilities', 'discovery', 'signals', 'screensavers', 'widgets', 'settings', 'energy', 'hearth'],
]);

/** A warning per top-level key Homey does not know, naming the nearest known one. */
function unknownKeys(raw: Record<string, unknown>): string[] {
  return Object.keys(raw)
    .filter((k) => !KNOWN_KEYS.has(k) && !k.startsWith('$'))
    .slice(0, 20)
    .map((k) => {
      const near = nearest(k, KNOWN_KEYS);
      return `'${k.slice(0, 64)}' is not a key Homey knows in app.json${near ? ` (did you mean '${near}'?)` : ''}; it is kept in the manifest but nothing reads it`;
    });
}

/** Validates a parsed app.json; `folderName`, when given, must equal the id. */
export function parseManifest(raw: unknown, folderName?: string): ManifestResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, message: 'app.json must hold a JSON object' };
  const { cleaned, warnings: unreadable } = withReadableSettings(raw as Record<string, unknown>);
  const parsed = Schema().safeParse(cleaned);
  if (!parsed.success) return { ok: false, message: describeIssues(parsed.error, MANIFEST_FILE) };
  const m = parsed.data;
  if (folderName !== undefined && m.id !== folderName) {
    return { ok: false, message: `app.json id '${m.id}' does not match its folder name '${folderName}'` };
  }
  const rawObject = raw as Record<string, unknown>;
  const { flow, unrun } = describeUnrun(m, rawObject);
  const discovery = readDiscovery(rawObject.discovery);
  unrun.push(...discovery.unrun);
  const warnings = [
    ...unknownKeys(rawObject),
    ...unreadable,
    ...settingWarnings(m.settings, 'settings'),
    ...Object.entries(m.widgets).flatMap(([id, w]) => settingWarnings(w.settings, `widgets.${id}.settings`)),
    ...droppedDecoration(m, rawObject),
  ];
  const { flow: _flow, main, ...rest } = m;
  return {
    ok: true,
    manifest: {
      ...rest,
      main: main ?? null,
      flow,
      incompatible: incompatibility(m),
      unrun,
      raw: rawObject,
      warnings,
      discovery: discovery.strategies,
    },
  };
}

/** app.json of `dir` as text, or why it cannot be read (ENOENT: no app.json). */
export async function readManifestText(dir: string): Promise<{ text: string } | { code: string | undefined }> {
  try {
    return { text: await readFile(join(dir, MANIFEST_FILE), 'utf8') };
  } catch (err) {
    return { code: (err as NodeJS.ErrnoException).code };
  }
}

/** Parses app.json text into a manifest or a sentence. */
export function manifestFromText(text: string, folderName?: string): ManifestResult {
  if (text.length > MAX_MANIFEST_BYTES) return { ok: false, message: `app.json is larger than ${MAX_MANIFEST_TEXT}` };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `app.json is not valid JSON: ${jsonErrorAt(text, err)}` };
  }
  return parseManifest(raw, folderName);
}

/**
 * Reads and validates `<dir>/app.json`. Never throws for a bad app: the result says what is
 * wrong in a sentence that ends up as the app's `crashedMessage`. (App folders go through
 * loadAppFolder in compose.ts, which composes a folder that has no app.json.)
 */
export async function loadManifest(dir: string, opts: { checkFolderName?: boolean } = {}): Promise<ManifestResult> {
  const read = await readManifestText(dir);
  if ('code' in read) return { ok: false, message: read.code === 'ENOENT' ? 'app.json is missing' : `app.json cannot be read (${read.code})` };
  return manifestFromText(read.text, opts.checkFolderName === false ? undefined : basename(dir));
}

/** The English (or first) text of a localized value, for logs and fallbacks. */
export function textOf(value: string | Record<string, string>, language = 'en'): string {
  if (typeof value === 'string') return value;
  return value[language] ?? value.en ?? Object.values(value)[0] ?? '';
}

/**
 * The app's main module in `dir`, relative to it, or null when it has none. Homey takes ES modules
 * by file extension (its ESM guide: rename app.js to app.mjs), with no manifest field, and runs an
 * app without a main module with the base Homey.App (Athom's own apps have none). `"esm": true`
 * (hearth's older rule) makes app.mjs the first choice; app.json's `main` names one outright.
 */
export function mainModule(manifest: Pick<AppManifest, 'main' | 'esm'>, dir: string): string | null {
  if (manifest.main !== null) return manifest.main;
  const order = manifest.esm ? ['app.mjs', 'app.js', 'app.cjs'] : ['app.js', 'app.mjs', 'app.cjs'];
  return order.find((f) => existsSync(join(dir, f))) ?? null;
}
