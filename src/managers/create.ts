/**
 * The managers that make up a hub, made in start order with what each needs of the others: the
 * one place that wires them (hub.ts starts and stops them).
 */
import type { HubApi } from '../apps/host/hub-api.js';
import type { EventReach } from '../core/event-reach.js';
import type { Manager } from '../core/managers.js';
import type { PeopleService } from '../core/people.js';
import type { TokenService } from '../core/tokens.js';
import { AlarmsManager } from './alarms/index.js';
import { AppsManager } from './apps/index.js';
import { BackupManager } from './backup/index.js';
import type { ManagerContext } from './context.js';
import { DashboardsManager } from './dashboards/index.js';
import { DevicesManager } from './devices/index.js';
import { DriversManager } from './drivers/index.js';
import { EnergyManager } from './energy/index.js';
import { FlowManager } from './flow/index.js';
import { FlowTokenManager } from './flowtoken/index.js';
import { GeolocationManager } from './geolocation/index.js';
import { GoogleAssistantManager } from './google-assistant/index.js';
import { I18nManager } from './i18n/index.js';
import { ImagesManager } from './images/index.js';
import { InsightsManager } from './insights/index.js';
import { LogicManager } from './logic/index.js';
import { MatterManager } from './matter/index.js';
import { MoodsManager } from './moods/index.js';
import { NotificationsManager } from './notifications/index.js';
import { PresenceManager } from './presence/index.js';
import { SpeechOutputManager } from './speech-output/index.js';
import { SystemManager } from './system/index.js';
import { TokensManager } from './tokens/index.js';
import { LoginCodes } from './tokens/login-codes.js';
import { UsersManager } from './users/index.js';
import { eventReach } from './zones/event-reach.js';
import { ZonesManager } from './zones/index.js';
import { reachOf } from './zones/reach.js';

/** The managers that make up a hub, in start order. Built once per hub. */
export interface HubManagers {
  readonly i18n: I18nManager;
  readonly geolocation: GeolocationManager;
  readonly apps: AppsManager;
  readonly notifications: NotificationsManager;
  /** Which events a token held to some rooms (a guest's) hears, on either protocol. */
  readonly reach: EventReach;
  readonly all: readonly Manager[];
}

/** What the managers share of the home's people and tokens. */
export interface Access {
  readonly tokens: TokenService;
  readonly people: PeopleService;
}

/** `restart`: asks the daemon to stop this hub, run the work, and start a new one (absent: it cannot). */
export function createManagers(
  ctx: ManagerContext,
  { tokens, people }: Access,
  restart: ((work: () => Promise<void>) => boolean) | undefined,
  hubApi: () => HubApi | null,
): HubManagers {
  // The timeline first: anyone may say something from their start.
  const notifications = new NotificationsManager({ ...ctx, log: ctx.log.child({ module: 'notifications' }) });
  const timeline = notifications.service;
  // First made, last started: each manager gets the part of the apps runtime it uses, and the
  // apps start once every manager serves its SDK calls.
  const apps = new AppsManager({ ...ctx, log: ctx.log.child({ module: 'apps' }) }, { hubApi, timeline });
  const runtime = apps.runtime;
  const i18n = new I18nManager({ ...ctx, log: ctx.log.child({ module: 'i18n' }) });
  const geolocation = new GeolocationManager({ ...ctx, log: ctx.log.child({ module: 'geolocation' }) });
  const insights = new InsightsManager({ ...ctx, log: ctx.log.child({ module: 'insights' }) }, runtime);
  const zones = new ZonesManager({ ...ctx, log: ctx.log.child({ module: 'zones' }) });
  const devices = new DevicesManager({ ...ctx, log: ctx.log.child({ module: 'devices' }) }, zones.service, insights.service, runtime);
  const logic = new LogicManager({ ...ctx, log: ctx.log.child({ module: 'logic' }) });
  const flowtoken = new FlowTokenManager({ ...ctx, log: ctx.log.child({ module: 'flowtoken' }) }, logic.service, runtime);
  const speech = new SpeechOutputManager({ ...ctx, log: ctx.log.child({ module: 'speech-output' }) }, runtime);
  const alarms = new AlarmsManager({ ...ctx, log: ctx.log.child({ module: 'alarms' }) });
  const moods = new MoodsManager({ ...ctx, log: ctx.log.child({ module: 'moods' }) }, devices.service, zones.service);
  const energy = new EnergyManager({ ...ctx, log: ctx.log.child({ module: 'energy' }) }, devices.service, zones.service, insights.service);
  const presence = new PresenceManager({ ...ctx, log: ctx.log.child({ module: 'presence' }) }, people, insights.service);
  flowtoken.tokens.provide({
    ownerUri: 'homey:manager:energy',
    ownerName: 'Energy',
    tokens: () => [{ id: 'power', type: 'number', title: 'Power of the home (W)', value: energy.service.homePowerNow() }],
  });
  // One set of sign-in links: the tokens manager's (a session for scopes) and the people's (for a person).
  const codes = new LoginCodes();
  // --- manager registration: one line per manager, in start order ---
  const all: Manager[] = [
    notifications,
    new SystemManager({ ...ctx, log: ctx.log.child({ module: 'system' }) }, runtime),
    new TokensManager(tokens, codes),
    new UsersManager({ ...ctx, log: ctx.log.child({ module: 'users' }) }, people, tokens, codes, (id) => zones.service.exists(id), timeline),
    i18n,
    geolocation,
    new GoogleAssistantManager({ ...ctx, log: ctx.log.child({ module: 'google-assistant' }) }),
    insights,
    presence,
    speech,
    new BackupManager(
      { ...ctx, log: ctx.log.child({ module: 'backup' }) },
      {
        copyInsights: (dest) => insights.backup(dest),
        ...(restart ? { restart } : {}),
        notify: (text) => timeline.notify({ uri: 'homey:manager:backup', id: 'backup', name: 'Backups' }, text),
      },
    ),
    new DashboardsManager(
      { ...ctx, log: ctx.log.child({ module: 'dashboards' }) },
      (id) => (devices.service.has(id) ? devices.service.record(id) : null),
      runtime,
    ),
    zones,
    devices,
    new DriversManager({ ...ctx, log: ctx.log.child({ module: 'drivers' }) }, devices.service, runtime),
    new MatterManager({ ...ctx, log: ctx.log.child({ module: 'matter' }) }, devices.service, runtime),
    new ImagesManager({ ...ctx, log: ctx.log.child({ module: 'images' }) }, devices.service, runtime, reachOf(zones.service)),
    logic,
    moods,
    alarms,
    energy,
    flowtoken,
    new FlowManager(
      { ...ctx, log: ctx.log.child({ module: 'flow' }) },
      flowtoken.tokens,
      {
        logic: logic.service,
        say: async (text) => {
          await speech.service.say(text);
        },
        location: () => geolocation.location(),
        presence: presence.service,
        moods: moods.service,
        alarms: alarms.service,
        energy: energy.service,
      },
      timeline,
      devices.service,
      runtime,
    ),
    // Last: its apps start once every other manager serves their SDK calls.
    apps,
  ];
  // --- end of manager registration ---
  return { i18n, geolocation, apps, notifications, reach: eventReach(reachOf(zones.service), devices.service), all };
}
