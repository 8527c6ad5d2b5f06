/**
 * Scope names of the Web API and the one rule of implication between them:
 * `service.X` covers `service.X.readonly`, `SYSTEM` covers `SYSTEM_READONLY`, `*` covers all.
 * The web app bundles this module for its scope picker: keep it free of imports.
 */

export const SCOPES = [
  'service.dashboard',
  'service.dashboard.readonly',
  'service.app',
  'service.app.readonly',
  'service.app.control',
  'service.speech',
  'service.insights',
  'service.insights.readonly',
  'service.geolocation',
  'service.geolocation.readonly',
  'service.system',
  'service.system.readonly',
  'service.device',
  'service.device.readonly',
  'service.device.control',
  'service.zone',
  'service.zone.readonly',
  'service.flow',
  'service.flow.readonly',
  'service.flow.start',
  'service.logic',
  'service.logic.readonly',
  'service.notifications',
  'service.notifications.readonly',
  'service.user',
  'service.user.readonly',
  'service.user.self',
  'service.presence',
  'service.presence.readonly',
  'service.presence.self',
  'service.mood',
  'service.mood.readonly',
  'service.mood.set',
  'service.alarm',
  'service.alarm.readonly',
  'service.energy',
  'service.energy.readonly',
  'SYSTEM',
  'SYSTEM_READONLY',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * Each scope in words, for people choosing scopes (the web app's token and sign-in forms): a
 * short label and one sentence saying what a token with it may do.
 */
export const SCOPE_INFO: { readonly [S in Scope]: { readonly label: string; readonly sentence: string } } = {
  'service.dashboard': { label: 'Dashboards', sentence: 'Create, arrange, rename and delete dashboards and use their widgets.' },
  'service.dashboard.readonly': { label: 'View dashboards', sentence: 'See dashboards and their widgets, without changing them.' },
  'service.app': { label: 'Apps', sentence: 'Install, upgrade, enable, disable, restart and uninstall apps.' },
  'service.app.readonly': { label: 'View apps', sentence: 'See the installed apps, their state and output, and the app store.' },
  'service.app.control': { label: 'App settings', sentence: "Read and change apps' settings, without installing or removing any app." },
  'service.speech': { label: 'Speech', sentence: 'Make the hub say things out loud.' },
  'service.insights': { label: 'Insights', sentence: 'Read and delete logged values and their logs.' },
  'service.insights.readonly': { label: 'View insights', sentence: 'Read logged values and charts, without deleting anything.' },
  'service.geolocation': { label: 'Location', sentence: "Set the hub's location." },
  'service.geolocation.readonly': { label: 'View location', sentence: "See the hub's location." },
  'service.system': { label: 'Hub settings', sentence: 'Change language, units, voices and other hub settings, and start backups.' },
  'service.system.readonly': { label: 'View hub settings', sentence: "See the hub's settings and state." },
  'service.device': { label: 'Devices', sentence: 'Add, rename, move, configure and delete devices, and control them.' },
  'service.device.readonly': { label: 'View devices', sentence: 'See the devices and their state, without changing or controlling them.' },
  'service.device.control': { label: 'Control devices', sentence: 'Switch, dim and otherwise control devices (seeing them needs View devices).' },
  'service.zone': { label: 'Zones', sentence: 'Create, rename, move and delete the zones of the home.' },
  'service.zone.readonly': { label: 'View zones', sentence: 'See the zones of the home.' },
  'service.flow': { label: 'Flows', sentence: 'Create, change, run and delete flows and their folders, and run flow cards.' },
  'service.flow.readonly': { label: 'View flows', sentence: 'See flows, their cards, tokens and run logs, without changing or running them.' },
  'service.flow.start': { label: 'Start flows', sentence: 'Start flows by hand (seeing them needs View flows).' },
  'service.logic': { label: 'Variables', sentence: 'Create, change and delete the variables flows use.' },
  'service.logic.readonly': { label: 'View variables', sentence: 'See the variables flows use and their values.' },
  'service.notifications': { label: 'Timeline', sentence: 'Delete notifications from the timeline and turn off what an app or part of the hub says.' },
  'service.notifications.readonly': { label: 'View timeline', sentence: 'See the timeline: what apps, flows and the hub said.' },
  'service.user': { label: 'People', sentence: 'Add people to the home, change their roles, disable and remove them (never above your own role).' },
  'service.user.readonly': { label: 'View people', sentence: 'See the people of the home, their roles and who is home.' },
  'service.user.self': { label: 'Own account', sentence: 'Change your own name and picture, and see and end your own sessions.' },
  'service.presence': { label: 'Presence', sentence: 'Say whether anyone in the home is home or away, asleep or awake.' },
  'service.presence.readonly': { label: 'View presence', sentence: 'See who is home and who is asleep.' },
  'service.presence.self': { label: 'Own presence', sentence: 'Say whether you are home or away, asleep or awake.' },
  'service.mood': { label: 'Moods', sentence: 'Make, change and delete the moods of the rooms.' },
  'service.mood.readonly': { label: 'View moods', sentence: 'See the moods of the rooms.' },
  'service.mood.set': { label: 'Set moods', sentence: 'Put a room in one of its moods (seeing them needs View moods).' },
  'service.alarm': { label: 'Alarms', sentence: 'Make, change, turn on and off and delete the wake-up alarms.' },
  'service.alarm.readonly': { label: 'View alarms', sentence: 'See the wake-up alarms and when they go off next.' },
  'service.energy': { label: 'Energy', sentence: 'Set the energy prices and forget the energy history.' },
  'service.energy.readonly': { label: 'View energy', sentence: 'See what the home uses and makes, now and per day, month and year.' },
  SYSTEM: { label: 'Administration', sentence: 'Manage tokens and sign-in links, and download, upload and restore backups: everything short of owner.' },
  SYSTEM_READONLY: { label: 'View administration', sentence: 'See backups and the hub’s administrative state, without changing it.' },
};
/**
 * What a family's phone or wall tablet signs in with by default (the web app's "Sign in a phone"):
 * everything its home screen and dashboards show and do (seeing and switching devices, the
 * zones, starting flows, charts, speech), nothing that changes how the home is set up.
 */
export const PHONE_SCOPES: readonly Scope[] = [
  'service.dashboard',
  'service.device.readonly',
  'service.device.control',
  'service.zone.readonly',
  'service.flow.readonly',
  'service.flow.start',
  'service.speech',
  'service.app.readonly',
  'service.insights.readonly',
  'service.notifications.readonly',
  'service.mood.readonly',
  'service.mood.set',
];

/**
 * What a wall tablet signs in with (System → Sign in a phone, "for a wall tablet"): seeing and
 * switching devices, the rooms, the dashboards and whether the apps run; nothing of the home's
 * set-up, no flows, no speech.
 */
export const WALL_SCOPES: readonly Scope[] = [
  'service.dashboard.readonly',
  'service.device.readonly',
  'service.device.control',
  'service.zone.readonly',
  'service.app.readonly',
];

/** What a token may hold: a scope, or `*` for every scope (the owner token). */
export type GrantedScope = Scope | '*';

const scopeSet: ReadonlySet<string> = new Set(SCOPES);
export const isScope = (s: string): s is Scope => scopeSet.has(s);

/**
 * What a granted scope implies besides itself: its `.readonly` and `.self` (who may change
 * everyone's presence may change their own); and the devices scope also controls devices
 * (changing a device is more than switching it), and the flows scope starts flows.
 * `service.app` does not imply `service.app.control`: the seed's scopes keep them apart.
 */
function implies(granted: Scope, needed: Scope): boolean {
  if (granted === 'SYSTEM') return needed === 'SYSTEM_READONLY';
  if (needed === `${granted}.readonly` || needed === `${granted}.self`) return true;
  return (
    (granted === 'service.device' && needed === 'service.device.control') ||
    (granted === 'service.flow' && needed === 'service.flow.start') ||
    (granted === 'service.mood' && needed === 'service.mood.set')
  );
}

/** True when a token holding `granted` may perform an operation that needs `needed`. */
export function grants(granted: readonly GrantedScope[], needed: Scope): boolean {
  for (const g of granted) {
    if (g === '*' || g === needed) return true;
    if (implies(g, needed)) return true;
  }
  return false;
}
