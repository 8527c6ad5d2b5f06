/**
 * Every manager's contract by name: the hub mounts them (each manager holds its own), the web
 * build makes the web app's route table from them (scripts/build-web.mjs) and the web app takes
 * its types from them (src/web/client.ts). Contracts import no Node module.
 */

import { alarmsContract } from './alarms/contract.js';
import { appsContract } from './apps/contract.js';
import { backupContract } from './backup/contract.js';
import { dashboardsContract } from './dashboards/contract.js';
import { devicesContract } from './devices/contract.js';
import { driversContract } from './drivers/contract.js';
import { energyContract } from './energy/contract.js';
import { flowContract } from './flow/contract.js';
import { flowtokenContract } from './flowtoken/contract.js';
import { geolocationContract } from './geolocation/contract.js';
import { googleAssistantContract } from './google-assistant/contract.js';
import { i18nContract } from './i18n/contract.js';
import { imagesContract } from './images/contract.js';
import { insightsContract } from './insights/contract.js';
import { logicContract } from './logic/contract.js';
import { matterContract } from './matter/contract.js';
import { moodsContract } from './moods/contract.js';
import { notificationsContract } from './notifications/contract.js';
import { presenceContract } from './presence/contract.js';
import { speechOutputContract } from './speech-output/contract.js';
import { systemContract } from './system/contract.js';
import { tokensContract } from './tokens/contract.js';
import { usersContract } from './users/contract.js';
import { zonesContract } from './zones/contract.js';

export const CONTRACTS = {
  dashboards: dashboardsContract,
  apps: appsContract,
  'speech-output': speechOutputContract,
  backup: backupContract,
  insights: insightsContract,
  geolocation: geolocationContract,
  i18n: i18nContract,
  'google-assistant': googleAssistantContract,
  tokens: tokensContract,
  system: systemContract,
  zones: zonesContract,
  devices: devicesContract,
  drivers: driversContract,
  images: imagesContract,
  flow: flowContract,
  flowtoken: flowtokenContract,
  logic: logicContract,
  users: usersContract,
  presence: presenceContract,
  moods: moodsContract,
  alarms: alarmsContract,
  energy: energyContract,
  matter: matterContract,
  notifications: notificationsContract,
} as const;

export type Contracts = typeof CONTRACTS;
