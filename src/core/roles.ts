/**
 * The roles of the people of a home (Homey's: owner, manager, user, guest) and what each may do,
 * as scopes: a person's token holds its role's scopes, read at every request, so a changed role
 * counts at once. The web app bundles this module for its people page: keep it free of imports
 * beyond the scopes module.
 */
import { type GrantedScope, grants, type Scope } from './scopes.js';

export const ROLES = ['owner', 'manager', 'user', 'guest'] as const;
/** The longest a person's name may be (the people page checks it as the hub does). */
export const MAX_NAME = 60;
/** The largest picture of a person: a phone's photo, made small by the web app before it is sent. */
export const MAX_AVATAR_BYTES = 48 * 1024;
/** The most rooms a guest may be given (each brings the zones inside it). */
export const MAX_ZONES = 100;
export type Role = (typeof ROLES)[number];

/**
 * Each role's scopes. A guest sees and switches devices, of the rooms they are given only
 * (managers/zones/reach.ts); a user also reads the dashboards, runs flows, reads the home's history and sees the family; a manager changes devices, flows
 * and apps and adds people below itself; only an owner manages tokens, backups and restores
 * (`SYSTEM`) and makes managers and owners.
 */
export const ROLE_SCOPES: { readonly [R in Role]: readonly GrantedScope[] } = {
  owner: ['*'],
  manager: [
    'service.dashboard',
    'service.app',
    'service.app.control',
    'service.speech',
    'service.insights',
    'service.geolocation',
    'service.system',
    'service.device',
    'service.zone',
    'service.flow',
    'service.logic',
    'service.notifications',
    'service.user',
    'service.presence',
    'service.mood',
    'service.alarm',
    'service.energy',
    'SYSTEM_READONLY',
  ],
  user: [
    'service.dashboard',
    'service.app.readonly',
    'service.speech',
    'service.insights.readonly',
    'service.geolocation.readonly',
    'service.system.readonly',
    'service.device.readonly',
    'service.device.control',
    'service.zone.readonly',
    'service.flow.readonly',
    'service.flow.start',
    'service.logic.readonly',
    'service.notifications.readonly',
    'service.user.readonly',
    'service.user.self',
    'service.presence.readonly',
    'service.presence.self',
    'service.mood.readonly',
    'service.mood.set',
    'service.alarm',
    'service.energy.readonly',
  ],
  // No dashboards: a dashboard's widgets show what their apps show, of any room.
  guest: ['service.device.readonly', 'service.device.control', 'service.zone.readonly', 'service.user.self', 'service.presence.self'],
};

/** Each role in words, for the people page. */
export const ROLE_INFO: { readonly [R in Role]: { readonly label: string; readonly sentence: string } } = {
  owner: { label: 'Owner', sentence: 'Everything: people, tokens, backups and restores too.' },
  manager: { label: 'Manager', sentence: 'Changes devices, rooms, flows and apps, and adds users and guests.' },
  user: { label: 'User', sentence: 'Uses devices, dashboards and flows, and sees the family and the timeline.' },
  guest: { label: 'Guest', sentence: 'Sees and switches the devices of the rooms they are given, and nothing else.' },
};

const RANK: { readonly [R in Role]: number } = { owner: 3, manager: 2, user: 1, guest: 0 };

/**
 * Whether a person of role `actor` may make someone `role`, or change or remove someone who is
 * `role`: an owner anyone, anyone else only roles below their own (a manager cannot make a
 * manager, nor touch one; a user or a guest nobody).
 */
export function mayManage(actor: Role, role: Role): boolean {
  return actor === 'owner' || RANK[role] < RANK[actor];
}

/** A person's token's scopes: what the token was made with, within what the role gives. */
export function scopesOf(role: Role, token: readonly GrantedScope[]): readonly GrantedScope[] {
  const roleScopes = ROLE_SCOPES[role];
  if (token.includes('*')) return roleScopes;
  if (roleScopes.includes('*')) return token;
  return token.filter((s): s is Scope => s !== '*' && grants(roleScopes, s));
}
