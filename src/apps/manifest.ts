/**
 * The app manifest (`apps/<id>/app.json`): its schema, and loading it from a folder into either
 * a manifest or a sentence saying what is wrong (a broken app is listed, never fatal).
 */
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join, normalize } from 'node:path';
import semver from 'semver';
import { z } from 'zod';
import { PERMISSION_NAMES, type Permission } from './permissions.js';
import { describeIssues } from '../core/zod-issues.js';
import { nullRecord, safeRecord } from '../core/records.js';

/** Reverse-domain id: at least two dot-separated segments, e.g. `com.hearth.sysmon`. */
export const APP_ID = /^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$/i;
const LOCAL_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A semantic version exactly as semver.org writes it (`1.0.0`, `2.1.0-beta.3`; not `v1.0`). */
export const Version = z
  .string()
  .max(256)
  // semver itself tolerates a leading 'v' or '=' and spaces; a manifest must be exact.
  .refine((v) => /^\d/.test(v) && v.trim() === v && semver.valid(v) !== null, 'must be a semantic version such as 1.0.0');

export const AppId = z.string().max(128).regex(APP_ID, 'must be a reverse-domain id such as com.example.myapp');

/** A text per language; English is required so every hub can show something. */
export const Localized = z
  .object({ en: z.string().min(1, 'needs an English text') })
  .catchall(z.string());
const Label = z.union([z.string().min(1), Localized]);

const settingBase = {
  id: z.string().regex(LOCAL_ID, 'must be 1-64 letters, digits, _ or -'),
  label: Label,
  hint: Label.optional(),
};

export const SettingDefinition = z.discriminatedUnion('type', [
  z.object({ ...settingBase, type: z.literal('text'), default: z.string().optional(), placeholder: Label.optional() }),
  z.object({
    ...settingBase,
    type: z.literal('number'),
    default: z.number().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().positive().optional(),
    units: Label.optional(),
  }),
  z.object({ ...settingBase, type: z.literal('checkbox'), default: z.boolean().optional() }),
  z.object({
    ...settingBase,
    type: z.literal('dropdown'),
    default: z.string().optional(),
    values: z.array(z.object({ id: z.string().min(1), label: Label })).min(1),
  }),
  z.object({ ...settingBase, type: z.literal('autocomplete'), default: z.unknown().optional() }),
]);
export type SettingDefinition = z.infer<typeof SettingDefinition>;

const Settings = z.array(SettingDefinition).superRefine((defs, ctx) => {
  const seen = new Set<string>();
  for (const [i, d] of defs.entries()) {
    if (seen.has(d.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `setting id '${d.id}' is used twice` });
    seen.add(d.id);
    if (d.type === 'dropdown' && d.default !== undefined && !d.values.some((v) => v.id === d.default)) {
      ctx.addIssue({ code: 'custom', path: [i, 'default'], message: `default '${d.default}' is not one of the values` });
    }
  }
});

export const WidgetDefinition = z.object({
  name: Localized,
  settings: Settings.default([]),
  /** Pixels, or a percentage of the width ('75%'). */
  height: z.union([z.number().int().positive().max(4000), z.string().regex(/^\d{1,3}%$/)]).optional(),
  transparent: z.boolean().optional(),
  deprecated: z.boolean().optional(),
});
export type WidgetDefinition = z.infer<typeof WidgetDefinition>;

const RelativeFile = z
  .string()
  .min(1)
  .refine((p) => !isAbsolute(p) && !normalize(p).startsWith('..'), 'must be a path inside the app folder');

const permission = z.string().refine((p): p is Permission => (PERMISSION_NAMES as string[]).includes(p), {
  error: (issue) => `unknown permission '${String(issue.input)}'; known: ${PERMISSION_NAMES.join(', ')}`,
});

export const AppManifest = z.object({
  id: AppId,
  version: Version,
  sdk: z.literal(3, 'must be 3 (the SDK version this hub runs)'),
  name: Localized,
  description: Localized.optional(),
  main: RelativeFile.default('app.js'),
  permissions: z.array(permission).default([]).transform((p) => [...new Set(p)] as Permission[]),
  settings: Settings.default([]),
  widgets: safeRecord(z.string(), WidgetDefinition)
    .superRefine((widgets, ctx) => {
      for (const id of Object.keys(widgets)) {
        if (!LOCAL_ID.test(id)) ctx.addIssue({ code: 'custom', path: [id], message: `widget id '${id}' must be 1-64 letters, digits, _ or -` });
      }
    })
    .default(() => nullRecord<z.output<typeof WidgetDefinition>>()),
});
export type AppManifest = z.infer<typeof AppManifest>;

export const MANIFEST_FILE = 'app.json';
const MAX_MANIFEST_BYTES = 256 * 1024;

export type ManifestResult = { ok: true; manifest: AppManifest } | { ok: false; message: string };

/** Turns zod issues into one sentence naming each bad field. */
/** Validates a parsed app.json; `folderName`, when given, must equal the id. */
export function parseManifest(raw: unknown, folderName?: string): ManifestResult {
  const parsed = AppManifest.safeParse(raw);
  if (!parsed.success) return { ok: false, message: describeIssues(parsed.error, MANIFEST_FILE) };
  if (folderName !== undefined && parsed.data.id !== folderName) {
    return { ok: false, message: `app.json id '${parsed.data.id}' does not match its folder name '${folderName}'` };
  }
  return { ok: true, manifest: parsed.data };
}

/**
 * Reads and validates `<dir>/app.json`. Never throws for a bad app: the result says what is
 * wrong in a sentence that ends up as the app's `crashedMessage`.
 */
export async function loadManifest(dir: string, opts: { checkFolderName?: boolean } = {}): Promise<ManifestResult> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, message: code === 'ENOENT' ? 'app.json is missing' : `app.json cannot be read (${code})` };
  }
  if (text.length > MAX_MANIFEST_BYTES) return { ok: false, message: 'app.json is larger than 256 KiB' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `app.json is not valid JSON: ${(err as Error).message}` };
  }
  return parseManifest(raw, opts.checkFolderName === false ? undefined : basename(dir));
}

/** The English (or first) text of a localized value, for logs and fallbacks. */
export function textOf(value: string | Record<string, string>, language = 'en'): string {
  if (typeof value === 'string') return value;
  return value[language] ?? value.en ?? Object.values(value)[0] ?? '';
}
