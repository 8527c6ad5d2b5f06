/**
 * What a restore through the Web API may bring in. A restore is, part by part, a set of writes:
 * the backup's version of a part replaces the hub's only when the caller holds the scope that
 * changes that part through the API; otherwise the hub's own version stays. So an archive made
 * on another hub (anyone with SYSTEM can upload one) gives nobody a right they did not hold.
 *
 * - tokens: the hub's tokens always stay (the caller's session goes on working, nobody is signed
 *   out); the backup's are added only where the caller could have created them (scopes it holds,
 *   never an owner token, never a person's unless the owner restores, never an id or secret
 *   hash the hub already has).
 * - apps (code, records with their permissions, settings, userdata): only the owner's restore
 *   brings them in. Through the API app code otherwise comes only from the owner's app store.
 * - insights.db: `service.insights`; each section of db.json by the scope that writes it
 *   (SECTION_SCOPE: devices and their values `service.device`, zones `service.zone`, flows and
 *   their folders `service.flow`, variables `service.logic`, dashboards `service.dashboard`, the
 *   hub's name and voices `service.system`).
 * - options: each one by its own set scope, and only a value its schema accepts; an option the
 *   API does not let anyone set (or this hub does not know) only with the owner.
 * - any other section of db.json: only with the owner.
 * - this hub's record of its own backups (the `backup` section, `lastSuccessfulBackup`) always
 *   stays: it says what this hub did, not what the archive's hub had done by then.
 *
 * restorePlan() says the same in words, before a restore, for the person about to make it.
 *
 * `hearth restore` on the command line passes no rights: whoever can run it owns the data dir.
 */
import type { z } from 'zod';
import { type GrantedScope, grants, type Scope } from '../core/scopes.js';
import type { StoreDocument } from '../core/store.js';
import type { FilePlan } from './restore-journal.js';

export interface RestoreRights {
  /** The caller's scopes; `*` is the owner. */
  readonly grants: readonly GrantedScope[];
  /** How the API sets an option (`set: null`: only the hub writes it); undefined: no such option. */
  readonly option: (manager: string, name: string) => { readonly set: Scope | null; readonly schema: z.ZodType } | undefined;
}

/** Each section of db.json and the scope that writes it through the API; absent: only the owner. */
const SECTION_SCOPE: Readonly<Record<string, Scope>> = {
  devices: 'service.device',
  'device-values': 'service.device',
  zones: 'service.zone',
  flows: 'service.flow',
  'flow-folders': 'service.flow',
  'logic-variables': 'service.logic',
  dashboards: 'service.dashboard',
  speech: 'service.system',
  system: 'service.system',
};

/** This hub's own record of its backups: always this hub's, whoever restores. */
const HUB_OWN_SECTION = 'backup';
const HUB_OWN_OPTIONS: ReadonlyArray<readonly [string, string]> = [['backup', 'lastSuccessfulBackup']];

/** The parts of a home a restore may bring back, in a person's words, with the scope each needs. */
const PARTS: ReadonlyArray<{ words: string; scope: Scope | '*' }> = [
  { words: 'devices and their values', scope: 'service.device' },
  { words: 'zones', scope: 'service.zone' },
  { words: 'flows and their folders', scope: 'service.flow' },
  { words: 'variables', scope: 'service.logic' },
  { words: 'dashboards', scope: 'service.dashboard' },
  { words: "the hub's name and voices", scope: 'service.system' },
  { words: 'insights (logged values and charts)', scope: 'service.insights' },
  { words: 'apps (their code, permissions, settings and data)', scope: '*' },
];

/**
 * What a restore by `rights` will bring back from the backup and what it will leave as it is,
 * in words, for the confirmation a person reads before restoring.
 */
export function restorePlan(rights: RestoreRights | undefined): { brings: string[]; keeps: string[] } {
  const owner = isOwnerRights(rights);
  const may = (scope: Scope | '*'): boolean => owner || (scope !== '*' && holds(rights as RestoreRights, scope));
  const brings = PARTS.filter((p) => may(p.scope)).map((p) => p.words);
  const keeps = PARTS.filter((p) => !may(p.scope)).map((p) => `${p.words} (${p.scope === '*' ? 'only the owner may bring them back' : `needs ${p.scope}`})`);
  brings.push(owner ? 'settings (language, units, location, ...)' : 'the settings your sign-in may change');
  brings.push("the backup's tokens where your sign-in could have made them; the hub's tokens and sign-ins all stay");
  keeps.push("this hub's record of its backups");
  return { brings, keeps };
}

export const isOwnerRights = (rights: RestoreRights | undefined): boolean => rights === undefined || rights.grants.includes('*');

const holds = (rights: RestoreRights, scope: Scope): boolean => grants(rights.grants, scope);

/** Which files the restore takes from the backup, with a sentence for each one left out. */
export function planFiles(rights: RestoreRights | undefined): FilePlan & { leftOut: string[] } {
  if (isOwnerRights(rights)) return { apps: true, insights: true, leftOut: [] };
  const r = rights as RestoreRights;
  const leftOut = ['apps (their code, permissions, settings and data) stay as installed: only the owner may bring apps in through a restore'];
  const insights = holds(r, 'service.insights');
  if (!insights) leftOut.push('insights stay as they are: replacing them needs service.insights');
  return { apps: false, insights, leftOut };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The backup's tokens the caller could have created, added to the hub's own. */
function mergeTokens(
  backup: unknown,
  current: unknown,
  rights: RestoreRights | undefined,
  leftOut: string[],
): { merged: Record<string, unknown>; added: number } {
  const merged: Record<string, unknown> = Object.create(null);
  const hashes = new Set<unknown>();
  for (const [id, t] of Object.entries(isObject(current) ? current : {})) {
    merged[id] = t;
    if (isObject(t)) hashes.add(t.hash);
  }
  let added = 0;
  let refused = 0;
  for (const [id, t] of Object.entries(isObject(backup) ? backup : {})) {
    if (!isObject(t) || Object.hasOwn(merged, id) || hashes.has(t.hash)) continue;
    const scopes = Array.isArray(t.scopes) ? (t.scopes as unknown[]) : [];
    // A person's token acts as that person (their role decides what it may manage): only the
    // owner's restore brings one in, or a manager could restore a token that is the owner's.
    const allowed =
      t.owner !== true &&
      (t.userId === undefined || isOwnerRights(rights)) &&
      scopes.every((s) => (s === '*' ? isOwnerRights(rights) : typeof s === 'string' && (isOwnerRights(rights) || holds(rights as RestoreRights, s as Scope))));
    if (!allowed) {
      refused++;
      continue;
    }
    merged[id] = t;
    hashes.add(t.hash);
    added++;
  }
  if (refused > 0) leftOut.push(`${refused} of the backup's tokens: an owner token, a person's, or scopes the restoring token does not hold`);
  return { merged, added };
}

/** Each option from the backup where the caller may set it to that value, else the hub's own. */
function mergeOptions(backup: unknown, current: unknown, rights: RestoreRights, leftOut: string[]): Record<string, unknown> {
  const cur = isObject(current) ? current : {};
  const out: Record<string, Record<string, unknown>> = Object.create(null);
  for (const [manager, values] of Object.entries(cur)) if (isObject(values)) out[manager] = Object.assign(Object.create(null), values);
  const refused: string[] = [];
  for (const [manager, values] of Object.entries(isObject(backup) ? backup : {})) {
    if (!isObject(values)) continue;
    for (const [name, value] of Object.entries(values)) {
      const def = rights.option(manager, name);
      if (!def || def.set === null || !holds(rights, def.set) || !def.schema.safeParse(value).success) {
        refused.push(`${manager}/${name}`);
        continue;
      }
      (out[manager] ??= Object.create(null))[name] = value;
    }
  }
  if (refused.length > 0) leftOut.push(`options kept as they are (the restoring token may not set them, or the value is not valid): ${refused.join(', ')}`);
  return out;
}

/**
 * The db.json a restore writes: the backup's document with each part the caller may not replace
 * taken from the hub's current one (null: the hub has none). Returns the sentences of what was
 * left out, for the restore's record.
 */
export function composeStore(
  backup: StoreDocument,
  current: StoreDocument | null,
  rights: RestoreRights | undefined,
): { doc: StoreDocument; leftOut: string[]; tokensAdded: number } {
  const leftOut: string[] = [];
  const cur: Record<string, unknown> = current ?? {};
  const doc: StoreDocument = { ...backup };
  const tokens = mergeTokens(backup.tokens, cur.tokens, rights, leftOut);
  doc.tokens = tokens.merged;
  const tokensAdded = tokens.added;
  if (isOwnerRights(rights)) return { doc: keepHubOwn(doc, cur), leftOut, tokensAdded };
  const r = rights as RestoreRights;
  doc.options = mergeOptions(backup.options, cur.options, r, leftOut);
  const kept: string[] = [];
  for (const name of new Set([...Object.keys(backup), ...Object.keys(cur)])) {
    if (name === 'schemaVersion' || name === 'tokens' || name === 'options' || name === HUB_OWN_SECTION) continue;
    const scope = SECTION_SCOPE[name];
    if (scope !== undefined && holds(r, scope)) continue;
    if (JSON.stringify(backup[name]) === JSON.stringify(cur[name])) continue;
    if (cur[name] === undefined) delete doc[name];
    else doc[name] = cur[name];
    kept.push(scope ? `${name} (needs ${scope})` : name);
  }
  if (kept.length > 0) leftOut.push(`kept as they are: ${kept.join(', ')}`);
  return { doc: keepHubOwn(doc, cur), leftOut, tokensAdded };
}

/** `doc` with this hub's own record of its backups (section and options) as the hub has it now. */
function keepHubOwn(doc: StoreDocument, cur: Record<string, unknown>): StoreDocument {
  if (cur[HUB_OWN_SECTION] === undefined) delete doc[HUB_OWN_SECTION];
  else doc[HUB_OWN_SECTION] = cur[HUB_OWN_SECTION];
  const options = isObject(doc.options) ? doc.options : {};
  const now = isObject(cur.options) ? cur.options : {};
  for (const [manager, name] of HUB_OWN_OPTIONS) {
    const mine = isObject(now[manager]) ? (now[manager] as Record<string, unknown>)[name] : undefined;
    const values: Record<string, unknown> = Object.assign(Object.create(null), isObject(options[manager]) ? options[manager] : {});
    if (mine === undefined) delete values[name];
    else values[name] = mine;
    options[manager] = values;
  }
  doc.options = options;
  return doc;
}
