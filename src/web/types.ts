/**
 * The API's answers as the server declares them: type-only imports from the managers' schema
 * modules, so nothing of zod reaches the bundle and a change on the server breaks this build
 * instead of the page. Those modules must stay free of Node imports (this build has DOM types
 * only, so one that is not fails here).
 */
export type { AppsState, AppView as App, CatalogueApp, CatalogueRelease, CatalogueView, CrashLog, PermissionDetail } from '../managers/apps/views.js';
export type { ArchiveSummary, BackupJob, BackupState } from '../managers/backup/views.js';
export type { AppWidget, DashboardView as Dashboard } from '../managers/dashboards/views.js';
export type { Units } from '../managers/i18n/contract.js';
export type { EntriesView as Entries, LogView as Log } from '../managers/insights/views.js';
export type { Voice } from '../managers/speech-output/engines/engine.js';
export type { SystemState } from '../managers/system/views.js';
export type { LoginCodeView as LoginCode, TokenView as Token } from '../managers/tokens/views.js';
