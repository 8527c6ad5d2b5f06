/**
 * The backup manager's two options (seed: automaticBackupsEnabled, lastSuccessfulBackup), shared
 * by the manager and the offline `hearth backup` so both record a success the same way.
 */
import { z } from 'zod';
import { defineOption } from '../../core/contract.js';

export const BACKUP = 'backup' as const;
export const OPTION_ENABLED = 'automaticBackupsEnabled';
export const OPTION_LAST_SUCCESS = 'lastSuccessfulBackup';

export const BACKUP_OPTIONS = [
  defineOption({
    name: OPTION_ENABLED,
    schema: z.boolean({ error: 'automaticBackupsEnabled must be true or false' }),
    default: true,
    scopes: { get: 'SYSTEM', set: 'SYSTEM', unset: 'SYSTEM' },
    summary: 'whether the hub makes backups on its schedule',
  }),
  defineOption({
    name: OPTION_LAST_SUCCESS,
    schema: z.iso.datetime({ offset: true, error: 'lastSuccessfulBackup must be an ISO-8601 date-time, e.g. "2026-11-21T03:30:00.000Z"' }),
    default: null,
    // The seed lists no scope for set/unset. "No scope listed" is read as internal: the hub
    // writes it after each verified backup, and through the API only SYSTEM may, since a wrong
    // value hides failed backups and stops the catch-up backup (docs/decisions.md).
    scopes: { get: 'SYSTEM', set: 'SYSTEM', unset: 'SYSTEM' },
    summary: 'when the last verified backup was made (ISO-8601)',
  }),
];
