/**
 * The permissions an app manifest may ask for, and what each one opens: SDK calls (checked by
 * the hub's call router) and, for a few, extra read access in the child's permission model.
 */

export const PERMISSIONS = {
  'hearth:manager:insights': 'create, write, list and delete its own insights logs',
  'hearth:manager:speech-output': 'speak text through the hub (hub.speech.say)',
  'hearth:manager:geolocation': "read the hub's location (hub.geolocation.getLocation)",
  'hearth:system:sensors': 'read the board sensors under /sys/class/thermal and /sys/class/hwmon',
} as const;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

/**
 * Folders a permission adds to the child's `--allow-fs-read` list. Node checks the path as the
 * app wrote it (not its symlink target), so the class folders are enough: /sys/devices itself
 * stays closed.
 */
export const PERMISSION_READ_PATHS: Readonly<Partial<Record<Permission, readonly string[]>>> = {
  'hearth:system:sensors': ['/sys/class/thermal', '/sys/class/hwmon'],
};
