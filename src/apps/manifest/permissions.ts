/**
 * App permissions, by Homey's names (`homey:manager:speech-output`, ...). An app may ask for any
 * Homey permission: the ones hearth can give open an SDK manager; the others (radios, the LED
 * ring) are kept, listed in the app's record, and the manager they would open throws a sentence
 * naming what hearth lacks. `hearth:` permissions are hearth's own extensions; an unknown one is
 * an error, so a typo in hearth's namespace does not pass silently. `permissionDetails` is the one
 * place a permission is put into words for a person (the store before install, the App object).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Homey permissions hearth grants, with what each opens. */
export const GRANTED = {
  'homey:manager:speech-output': 'speak through the hub (this.homey.speechOutput.say)',
  'homey:manager:geolocation': "read the hub's location (this.homey.geolocation)",
  'homey:manager:api':
    "use the hub's Web API as Homey's own client does: read the home (devices, zones, flows, variables, insights, who lives there), control devices, start flows, set variables and say who is home; never tokens, backups, apps or the hub's settings",
} as const;

/** hearth's own permissions (not Homey's). */
export const HEARTH_PERMISSIONS = {
  'hearth:system:sensors': 'read the board temperature sensors (/sys/class/thermal and /sys/class/hwmon readings)',
  // "where apps run in namespaces": with the permission model alone nothing stops the network.
  'hearth:network:access': 'use the network (the LAN and the internet); where apps run in namespaces, an app without it has only a loopback of its own',
} as const;

export const NETWORK_PERMISSION = 'hearth:network:access';
/** The hub's Web API: `this.homey.api.get`, and Homey's client inside the app (api-socket.ts). */
export const API_PERMISSION = 'homey:manager:api';

/** Homey permissions hearth cannot give, and why: the sentence an app gets when it uses one. */
export const NOT_GRANTED: Readonly<Record<string, string>> = {
  'homey:wireless:zwave': 'hearth has no Z-Wave radio',
  'homey:wireless:zigbee': 'hearth has no Zigbee radio',
  'homey:wireless:433': 'hearth has no 433 MHz radio',
  'homey:wireless:868': 'hearth has no 868 MHz radio',
  'homey:wireless:ir': 'hearth has no infrared transmitter',
  'homey:wireless:ble': 'hearth gives apps no Bluetooth',
  'homey:wireless:nfc': 'hearth has no NFC reader',
  'homey:manager:ledring': 'hearth has no LED ring',
  'homey:manager:speech-input': 'hearth has no speech input',
};

export type Permission = string;

/** The form of every permission: `homey:<kind>:<name>` or `hearth:<kind>:<name>`. */
const FORM = /^(homey|hearth):[a-z0-9-]+:[A-Za-z0-9._-]+$/;

/** Why `p` cannot be in a manifest, or null when it may. */
export function permissionProblem(p: string): string | null {
  if (!FORM.test(p) || p.length > 200) {
    return `'${p.slice(0, 100)}' is not a permission; they are Homey names such as homey:manager:speech-output`;
  }
  if (p.startsWith('hearth:') && !Object.hasOwn(HEARTH_PERMISSIONS, p)) {
    return `unknown permission '${p}'; hearth's own are: ${Object.keys(HEARTH_PERMISSIONS).join(', ')}`;
  }
  return null;
}

/** True when hearth gives what `p` asks for. */
export const isGranted = (p: string): boolean => Object.hasOwn(GRANTED, p) || Object.hasOwn(HEARTH_PERMISSIONS, p);

/** One permission as a person reads it before approving it. */
export interface PermissionDetail {
  id: string;
  /** Whether hearth gives what it asks for. */
  granted: boolean;
  /** What hearth gives, or why it cannot, e.g. "hearth has no Z-Wave radio". */
  sentence: string;
}

function sentenceOf(p: string): string {
  if (Object.hasOwn(GRANTED, p)) return GRANTED[p as keyof typeof GRANTED];
  if (Object.hasOwn(HEARTH_PERMISSIONS, p)) return HEARTH_PERMISSIONS[p as keyof typeof HEARTH_PERMISSIONS];
  if (Object.hasOwn(NOT_GRANTED, p)) return NOT_GRANTED[p]!;
  return p.startsWith('homey:app:') ? 'hearth lets apps call no other app' : 'hearth does not offer it';
}

/**
 * Each permission of a list (in its order) with what it means on hearth: the entries the store
 * catalogue and the App object answer.
 *
 * @example permissionDetails(['homey:wireless:zwave'])
 * // [{ id: 'homey:wireless:zwave', granted: false, sentence: 'hearth has no Z-Wave radio' }]
 */
export function permissionDetails(permissions: readonly string[]): PermissionDetail[] {
  return permissions.map((id) => ({ id, granted: isGranted(id), sentence: sentenceOf(id) }));
}

/** Whether a list asks for the network (in namespaces, an app without it has only its own loopback). */
export const usesNetwork = (permissions: readonly string[]): boolean => permissions.includes(NETWORK_PERMISSION);

/** What hearth cannot give of an app's permissions, one sentence each. */
export function notGranted(permissions: readonly string[]): string[] {
  return permissionDetails(permissions)
    .filter((d) => !d.granted)
    .map((d) => `permission ${d.id}: ${d.sentence}`);
}

/**
 * How the permissions a package asks for differ from those listed for it (order and repeats
 * aside); null when they are the same.
 */
export function permissionChange(listed: readonly string[], asked: readonly string[]): { added: string[]; removed: string[] } | null {
  const added = asked.filter((p) => !listed.includes(p));
  const removed = listed.filter((p) => !asked.includes(p));
  return added.length || removed.length ? { added: [...new Set(added)], removed: [...new Set(removed)] } : null;
}

/** The readings of the board's temperature sensors: single files, never a folder of /sys. */
const SENSOR_FILES: ReadonlyArray<readonly [folder: string, entry: RegExp, files: RegExp]> = [
  ['/sys/class/thermal', /^thermal_zone\d+$/, /^(temp|type)$/],
  ['/sys/class/hwmon', /^hwmon\d+$/, /^(name|temp\d+_(input|label|crit|max))$/],
];

/**
 * The files a permission lets the app read, found now. Single files rather than the class
 * folders: a folder of /sys is a maze of links (`device`, `subsystem`) into the rest of /sys,
 * and the permission model (which checks the path as written) would let an app follow them.
 */
export function permissionReadFiles(permissions: readonly string[]): string[] {
  if (!permissions.includes('hearth:system:sensors')) return [];
  const out: string[] = [];
  for (const [folder, entry, files] of SENSOR_FILES) {
    let entries: string[];
    try {
      entries = readdirSync(folder).filter((e) => entry.test(e));
    } catch {
      continue; // no such class on this board
    }
    for (const e of entries) {
      try {
        for (const f of readdirSync(join(folder, e))) if (files.test(f)) out.push(join(folder, e, f));
      } catch {
        // a sensor that went away
      }
    }
  }
  return out;
}
