/**
 * An app folder as the hub reads it: its manifest and its translations. A folder with app.json
 * is read as it is. A folder with `.homeycompose/` and no app.json is composed in memory the way
 * the Homey CLI builds one (nothing is written into the folder):
 *   .homeycompose/app.json                           the base of app.json
 *   .homeycompose/flow/<triggers|conditions|actions>/<id>.json   flow cards (id from the name)
 *   widgets/<id>/widget.compose.json                 widgets (id from the folder)
 *   drivers/<id>/driver.compose.json                 drivers (id from the folder)
 *   .homeycompose/{capabilities,discovery}/<id>.json
 *   .homeycompose/locales/<lang>[.<path>].json       merged into locales/<lang>.json, longest
 *                                                    path first; `$app` and `$widgets` texts go
 *                                                    into app.json
 * Keys starting with `$` are removed from the result, as the CLI does. Files are app input:
 * symlinks are skipped, each file and the result are bounded.
 */

import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { jsonErrorAt } from '../../core/json-error.js';
import { nullRecord } from '../../core/null-prototype.js';
import { FLOW_KINDS } from './flow-cards.js';
import { type AppManifest, MAX_MANIFEST_BYTES, MAX_MANIFEST_TEXT, manifestFromText, parseManifest, readManifestText } from './manifest.js';

export type Locales = Record<string, Record<string, unknown>>;

export interface AppFolder {
  manifest: AppManifest;
  /** locales/<language>.json (composed where the app uses compose), keyed by language. */
  locales: Locales;
  /** Whether the app has a settings page (settings/index.html). */
  settingsPage: boolean;
}

/** The settings page of an app, relative to its folder. */
export const SETTINGS_PAGE = 'settings/index.html';

export type AppFolderResult = { ok: true; folder: AppFolder } | { ok: false; message: string };

const COMPOSE_DIR = '.homeycompose';
const MAX_FILE_BYTES = 256 * 1024;
/** Files of one kind read at most (flow cards, widgets, locales). */
const MAX_FILES = 500;
const LOCAL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const LOCALE_FILE = /^[a-z]{2,3}(-[A-Za-z0-9]+)?\.json$/;
const COMPOSE_LOCALE_FILE = /^([a-z]{2,3}(?:-[A-Za-z0-9]+)?)((?:\.[A-Za-z0-9_-]+)*)\.json$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

class ComposeError extends Error {}

/** The JSON value in `file`, or undefined when it is absent. A symlink counts as absent. */
async function readJsonValue(file: string): Promise<unknown> {
  const info = await lstat(file).catch(() => null);
  if (!info?.isFile()) return undefined;
  if (info.size > MAX_FILE_BYTES) throw new ComposeError(`${file} is larger than 256 KiB`);
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ComposeError(`${file} is not valid JSON: ${jsonErrorAt(text, err)}`);
  }
}

/** The JSON object in `file`, or null when it is absent. */
async function readJson(file: string): Promise<Json | null> {
  const value = await readJsonValue(file);
  if (value === undefined) return null;
  if (!isObject(value)) throw new ComposeError(`${file} must hold a JSON object`);
  return value;
}

/** Names in `dir` (sorted, no dot-names), of folders or of files. */
async function names(dir: string, kind: 'dir' | 'file'): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out = entries
    .filter((e) => !e.name.startsWith('.') && (kind === 'dir' ? e.isDirectory() : e.isFile()))
    .map((e) => e.name)
    .sort();
  if (out.length > MAX_FILES) throw new ComposeError(`${dir} holds more than ${MAX_FILES} entries`);
  return out;
}

/** Objects merge key by key; anything else is replaced. Null-prototype, so no key is special. */
function merge(target: unknown, source: Json): Json {
  const out = nullRecord<unknown>();
  if (isObject(target)) for (const [k, v] of Object.entries(target)) out[k] = v;
  for (const [k, v] of Object.entries(source)) out[k] = isObject(v) ? merge(out[k], v) : v;
  return out;
}

function withoutDollarKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDollarKeys);
  if (!isObject(value)) return value;
  const out = nullRecord<unknown>();
  for (const [k, v] of Object.entries(value)) if (!k.startsWith('$')) out[k] = withoutDollarKeys(v);
  return out;
}

/** locales/<lang>.json of the folder; unreadable files are left out (a broken one must not hide the rest). */
export async function readLocales(dir: string): Promise<Locales> {
  const out: Locales = nullRecord();
  for (const name of (await names(join(dir, 'locales'), 'file').catch(() => [])).filter((n) => LOCALE_FILE.test(n))) {
    const value = await readJson(join(dir, 'locales', name)).catch(() => null);
    if (value) out[name.slice(0, -5)] = value;
  }
  return out;
}

/** Puts a composed locale's `$app` and `$widgets` texts into app.json, as the CLI does. */
function localizeManifest(app: Json, language: string, locale: Json): void {
  const texts = locale.$app;
  if (isObject(texts)) {
    for (const key of ['name', 'description'] as const) {
      if (typeof texts[key] === 'string') app[key] = { ...(isObject(app[key]) ? app[key] : {}), [language]: texts[key] };
    }
  }
  const widgets = locale.$widgets;
  if (!isObject(widgets) || !isObject(app.widgets)) return;
  for (const [id, w] of Object.entries(widgets)) {
    const target = app.widgets[id];
    if (!isObject(target) || !isObject(w)) continue;
    if (typeof w.name === 'string') target.name = { ...(isObject(target.name) ? target.name : {}), [language]: w.name };
    if (!isObject(w.settings) || !Array.isArray(target.settings)) continue;
    for (const [settingId, s] of Object.entries(w.settings)) {
      const setting: unknown = target.settings.find((x: unknown) => isObject(x) && x.id === settingId);
      if (!isObject(setting) || !isObject(s)) continue;
      for (const field of ['title', 'placeholder'] as const) {
        if (typeof s[field] === 'string') setting[field] = { ...(isObject(setting[field]) ? setting[field] : {}), [language]: s[field] };
      }
    }
  }
}

/** app.json and locales of a compose folder, built as the Homey CLI would build them. */
async function compose(dir: string): Promise<{ raw: Json; locales: Locales }> {
  const base = join(dir, COMPOSE_DIR);
  const app = await readJson(join(base, 'app.json'));
  if (!app) throw new ComposeError(`the folder has ${COMPOSE_DIR}/ but neither app.json nor ${COMPOSE_DIR}/app.json`);
  delete app.flow;
  for (const kind of FLOW_KINDS) {
    for (const name of (await names(join(base, 'flow', kind), 'file')).filter((n) => n.endsWith('.json'))) {
      const card = await readJson(join(base, 'flow', kind, name));
      if (!card) continue;
      card.id = card.$id ?? card.id ?? basename(name, '.json');
      const flow = isObject(app.flow) ? app.flow : (app.flow = {});
      ((flow[kind] as unknown[] | undefined) ??= []).push(card);
    }
  }
  await composeDrivers(dir, base, app);
  // Widgets written in app.json itself stay; each widget folder adds (or replaces) one.
  const widgets = merge(app.widgets, {});
  for (const id of await names(join(dir, 'widgets'), 'dir')) {
    const widget = await readJson(join(dir, 'widgets', id, 'widget.compose.json'));
    if (widget) widgets[id] = { ...widget, id, settings: widget.settings ?? [] };
  }
  if (Object.keys(widgets).length) app.widgets = widgets;
  for (const kind of ['capabilities', 'discovery'] as const) {
    delete app[kind];
    const found = nullRecord<unknown>();
    for (const name of (await names(join(base, kind), 'file')).filter((n) => n.endsWith('.json'))) {
      const item = await readJson(join(base, kind, name));
      if (item) found[String(item.$id ?? basename(name, '.json'))] = item;
    }
    if (Object.keys(found).length) app[kind] = found;
  }
  const locales = await readLocales(dir);
  // Longest paths first, as the CLI merges them.
  const files = (await names(join(base, 'locales'), 'file'))
    .map((name) => ({ name, match: COMPOSE_LOCALE_FILE.exec(name) }))
    .filter((f) => f.match !== null)
    .sort((a, b) => b.name.split('.').length - a.name.split('.').length);
  const changed = new Set<string>();
  for (const { name, match } of files) {
    const language = match![1]!;
    const path = match![2]!.split('.').filter(Boolean);
    const content = await readJson(join(base, 'locales', name));
    if (!content) continue;
    let node = (locales[language] = merge(locales[language], {}));
    for (const part of path) node = (node[part] = merge(node[part], {})) as Json;
    Object.assign(node, merge(node, content));
    changed.add(language);
  }
  for (const language of changed) {
    localizeManifest(app, language, locales[language]!);
    locales[language] = withoutDollarKeys(locales[language]) as Json;
  }
  return { raw: withoutDollarKeys(app) as Json, locales };
}

/** A compose template's `$extends`: one id or a list of them. */
function extendsOf(item: Json): string[] {
  const ext = item.$extends;
  return typeof ext === 'string' ? [ext] : Array.isArray(ext) ? ext.filter((e): e is string => typeof e === 'string') : [];
}

/** `item` on top of the templates it extends, read from `folder/<id>.json`. */
async function extended(item: Json, folder: string): Promise<Json> {
  let out: Json = {};
  for (const id of extendsOf(item)) {
    if (!LOCAL_NAME.test(id)) throw new ComposeError(`'$extends' names '${id}', which is not a template id`);
    const template = await readJson(join(folder, `${id}.json`));
    if (!template) throw new ComposeError(`'$extends' names '${id}', but there is no ${id}.json in ${folder}`);
    out = { ...out, ...template, ...(template.$id === undefined && template.id === undefined ? { id } : {}) };
  }
  return { ...out, ...item };
}

/** Replaces Homey compose's driver placeholders in every string of `value`. */
function withPlaceholders(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{\{(\w+)\}\}/g, (all, name: string) => vars[name] ?? all);
  if (Array.isArray(value)) return value.map((v) => withPlaceholders(v, vars));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPlaceholders(v, vars)]));
  return value;
}

/**
 * drivers/<id>/driver.compose.json (on top of `.homeycompose/drivers/templates/` it extends), its
 * driver.settings.compose.json (entries extending `.homeycompose/drivers/settings/`) and its
 * driver.flow.compose.json: device cards, each given a first `device` argument for this driver's
 * devices and added to the app's flow cards, as the Homey CLI builds them.
 */
async function composeDrivers(dir: string, base: string, app: Json): Promise<void> {
  delete app.drivers;
  for (const id of await names(join(dir, 'drivers'), 'dir')) {
    const folder = join(dir, 'drivers', id);
    const own = await readJson(join(folder, 'driver.compose.json'));
    if (!own) continue;
    const vars = { driverId: id, driverPath: `/drivers/${id}`, driverAssetsPath: `/drivers/${id}/assets` };
    const driver = (withPlaceholders(await extended(own, join(base, 'drivers', 'templates')), vars) as Json) ?? {};
    const settings = await readJsonValue(join(folder, 'driver.settings.compose.json'));
    if (Array.isArray(settings)) {
      driver.settings = await Promise.all(settings.map((s) => (isObject(s) ? extended(s, join(base, 'drivers', 'settings')) : s)));
    }
    ((app.drivers as unknown[] | undefined) ??= []).push({ ...driver, id });
    const cards = await readJson(join(folder, 'driver.flow.compose.json'));
    for (const kind of FLOW_KINDS) {
      const list = cards?.[kind];
      if (!Array.isArray(list)) continue;
      for (const raw of list.filter(isObject)) {
        const card = withPlaceholders(await extended(raw, join(base, 'drivers', 'flow', kind)), vars) as Json;
        const filter = [`driver_id=${id}`, typeof card.$filter === 'string' ? card.$filter : ''].filter(Boolean).join('&');
        const args = Array.isArray(card.args) ? card.args : [];
        card.args = [{ type: 'device', name: 'device', filter }, ...args];
        card.id = card.$id ?? card.id;
        const flow = isObject(app.flow) ? app.flow : (app.flow = {});
        ((flow[kind] as unknown[] | undefined) ??= []).push(card);
      }
    }
  }
}

/** Entries of an app folder looked at for links at most (as many as a package may hold). */
const MAX_LINK_WALK = 20_000;

/**
 * A sentence naming a link in the app folder that leads out of it, or null. The permission model
 * checks the path an app opens as written, so a link in a hand-placed folder (store packages
 * hold none) would let the app read its target: the owner token, db.json. Links that stay inside
 * (node_modules/.bin) are fine.
 */
async function linkOut(dir: string): Promise<string | null> {
  const root = await realpath(dir);
  const stack = [dir];
  let seen = 0;
  while (stack.length > 0) {
    const folder = stack.pop()!;
    for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      if (++seen > MAX_LINK_WALK) return `the app folder holds more than ${MAX_LINK_WALK} files and folders`;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.isSymbolicLink()) {
        const target = await realpath(path).catch(() => null);
        if (target === null || (target !== root && !target.startsWith(root + sep))) {
          return `${relative(dir, path)} is a link leading out of the app folder${target ? ` (to ${target})` : ''}; copy what it points at into the folder instead`;
        }
      }
    }
  }
  return null;
}

/** Where Homey's convention puts an app's icon when app.json names none. */
export const CONVENTIONAL_ICON = 'assets/icon.svg';

const isFile = async (path: string): Promise<boolean> => (await lstat(path).catch(() => null))?.isFile() === true;
const hasSettingsPage = (dir: string): Promise<boolean> => isFile(join(dir, SETTINGS_PAGE));

/**
 * The manifest with what Homey finds by convention rather than in app.json: the icon at
 * assets/icon.svg (when app.json names none), and each widget's preview pictures.
 */
async function withConventionalFiles(dir: string, manifest: AppManifest): Promise<AppManifest> {
  const icon = manifest.icon === undefined && (await isFile(join(dir, CONVENTIONAL_ICON))) ? CONVENTIONAL_ICON : manifest.icon;
  const widgetPreviews: Record<string, { light?: string; dark?: string }> = {};
  for (const id of Object.keys(manifest.widgets)) {
    const found: { light?: string; dark?: string } = {};
    for (const theme of ['light', 'dark'] as const) {
      const rel = `widgets/${id}/preview-${theme}.png`;
      if (await isFile(join(dir, rel))) found[theme] = rel;
    }
    if (found.light || found.dark) widgetPreviews[id] = found;
  }
  return { ...manifest, ...(icon !== undefined ? { icon } : {}), widgetPreviews };
}

/**
 * The manifest and locales of the app folder `dir`, or a sentence saying why it cannot run. With
 * `checkFolderName` (the default) the folder must be named after the app id.
 */
export async function loadAppFolder(dir: string, opts: { checkFolderName?: boolean } = {}): Promise<AppFolderResult> {
  const folderName = opts.checkFolderName === false ? undefined : basename(dir);
  const link = await linkOut(dir);
  if (link) return { ok: false, message: link };
  const read = await readManifestText(dir);
  if ('text' in read) {
    const result = manifestFromText(read.text, folderName);
    if (!result.ok) return result;
    return {
      ok: true,
      folder: { manifest: await withConventionalFiles(dir, result.manifest), locales: await readLocales(dir), settingsPage: await hasSettingsPage(dir) },
    };
  }
  if (read.code !== 'ENOENT') return { ok: false, message: `app.json cannot be read (${read.code})` };
  const composeInfo = await lstat(join(dir, COMPOSE_DIR)).catch(() => null);
  if (!composeInfo?.isDirectory()) return { ok: false, message: 'app.json is missing (and there is no .homeycompose/ folder to compose it from)' };
  try {
    const { raw, locales } = await compose(dir);
    if (JSON.stringify(raw).length > MAX_MANIFEST_BYTES) return { ok: false, message: `the composed app.json is larger than ${MAX_MANIFEST_TEXT}` };
    const result = parseManifest(JSON.parse(JSON.stringify(raw)), folderName);
    return result.ok
      ? { ok: true, folder: { manifest: await withConventionalFiles(dir, result.manifest), locales, settingsPage: await hasSettingsPage(dir) } }
      : { ok: false, message: `${result.message} (composed from ${COMPOSE_DIR}/)` };
  } catch (err) {
    if (err instanceof ComposeError) return { ok: false, message: `the app cannot be composed from ${COMPOSE_DIR}/: ${err.message}` };
    throw err;
  }
}
