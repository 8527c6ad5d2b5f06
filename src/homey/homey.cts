/**
 * The Homey instance of an app (`this.homey`, and `homey` in api.js handlers): its managers,
 * identity, env.json, translations and timers that are cleared when the app unloads. Managers
 * hearth backs talk to the hub; the others fail with a sentence naming what hearth lacks.
 */

import type { AppEvent } from '../apps/wire/protocol.js' with { 'resolution-mode': 'import' };
import type { App } from './app.cjs';
import { type HomeyContext, hasPermission, runningApp } from './context.cjs';
import { ManagerApi } from './managers/api.cjs';
import { ManagerAudio } from './managers/audio.cjs';
import { ManagerClock } from './managers/clock.cjs';
import type { ManagerCloud } from './managers/cloud.cjs';
import { ManagerDashboards } from './managers/dashboards.cjs';
import type { ManagerDiscovery } from './managers/discovery.cjs';
import type { ManagerDrivers } from './managers/drivers.cjs';
import { ManagerFlow } from './managers/flow.cjs';
import { ManagerGeolocation } from './managers/geolocation.cjs';
import { ManagerI18n } from './managers/i18n.cjs';
import type { ManagerImages } from './managers/images.cjs';
import { ManagerInsights } from './managers/insights.cjs';
import { ManagerNotifications } from './managers/notifications.cjs';
import { ManagerSettings } from './managers/settings.cjs';
import { ManagerSpeechOutput } from './managers/speech-output.cjs';
import { unavailableManager } from './managers/unavailable.cjs';
import { SimpleClass } from './simple-class.cjs';

// Homey's declarations of the managers hearth cannot back (types only: nothing is loaded).
import type ManagerAppsDecl = require('homey-apps-sdk-v3-types/manager/apps');
import type ManagerArpDecl = require('homey-apps-sdk-v3-types/manager/arp');
import type ManagerBLEDecl = require('homey-apps-sdk-v3-types/manager/ble');
import type ManagerLedringDecl = require('homey-apps-sdk-v3-types/manager/ledring');
import type ManagerNFCDecl = require('homey-apps-sdk-v3-types/manager/nfc');
import type ManagerRFDecl = require('homey-apps-sdk-v3-types/manager/rf');
import type ManagerSpeechInputDecl = require('homey-apps-sdk-v3-types/manager/speech-input');
import type ManagerZigBeeDecl = require('homey-apps-sdk-v3-types/manager/zigbee');
import type ManagerZwaveDecl = require('homey-apps-sdk-v3-types/manager/zwave');

type Timer = ReturnType<typeof setTimeout>;

export class Homey extends SimpleClass {
  readonly dir: string;
  readonly tmpdir: string;
  /** The Homey version whose SDK hearth offers (apps compare it with their `compatibility`). */
  readonly version: string;
  /** The app's env.json. */
  readonly env: Record<string, unknown>;
  /** The app's app.json. */
  readonly manifest: Record<string, unknown>;
  readonly platform = 'local' as const;
  readonly platformVersion = 2;
  /** The app's instance; set by the bootstrap right after the app class is constructed. */
  app!: App;

  readonly settings: ManagerSettings;
  readonly i18n: ManagerI18n;
  readonly insights: ManagerInsights;
  readonly speechOutput: ManagerSpeechOutput;
  readonly geolocation: ManagerGeolocation;
  readonly clock: ManagerClock;
  readonly dashboards: ManagerDashboards;
  readonly api: ManagerApi;
  readonly notifications: ManagerNotifications;
  readonly audio: ManagerAudio;
  readonly flow: ManagerFlow;
  readonly apps = unavailableManager<ManagerAppsDecl>('ManagerApps', 'apps', 'hearth lets apps call no other app', {
    getInstalled: 'async',
    getVersion: 'async',
  });
  readonly arp = unavailableManager<ManagerArpDecl>('ManagerArp', 'arp', 'hearth gives apps no view of the network neighbours', { getMAC: 'async' });
  readonly ble = unavailableManager<ManagerBLEDecl>('ManagerBLE', 'ble', 'hearth gives apps no Bluetooth', { discover: 'async', find: 'async' });

  readonly ledring = unavailableManager<ManagerLedringDecl>('ManagerLedring', 'ledring', 'hearth has no LED ring', {
    createAnimation: 'async',
    createSystemAnimation: 'async',
    createProgressAnimation: 'async',
    registerAnimation: 'async',
    unregisterAnimation: 'async',
    registerScreensaver: 'async',
    unregisterScreensaver: 'async',
  });
  readonly nfc = unavailableManager<ManagerNFCDecl>('ManagerNFC', 'nfc', 'hearth has no NFC reader', {});
  readonly rf = unavailableManager<ManagerRFDecl>('ManagerRF', 'rf', 'hearth has no 433 MHz, 868 MHz or infrared radio', {
    tx: 'async',
    cmd: 'async',
    getSignal433: 'sync',
    getSignal868: 'sync',
    getSignalInfrared: 'sync',
    enableSignalRX: 'async',
    disableSignalRX: 'async',
  });
  readonly speechInput = unavailableManager<ManagerSpeechInputDecl>('ManagerSpeechInput', 'speech-input', 'hearth has no speech input', {
    ask: 'async',
    confirm: 'async',
  });
  readonly zigbee = unavailableManager<ManagerZigBeeDecl>('ManagerZigBee', 'zigbee', 'hearth has no Zigbee radio', { getNode: 'async' });
  readonly zwave = unavailableManager<ManagerZwaveDecl>('ManagerZwave', 'zwave', 'hearth has no Z-Wave radio', { getNode: 'async' });

  private readonly timeouts = new Set<Timer>();
  private readonly intervals = new Set<Timer>();

  constructor(private readonly ctx: HomeyContext) {
    super();
    runningApp(ctx);
    this.dir = ctx.app.dir;
    this.tmpdir = ctx.app.userdata;
    this.version = ctx.state.homeyVersion;
    this.env = ctx.env;
    this.manifest = ctx.manifest;
    this.settings = new ManagerSettings(ctx);
    this.i18n = new ManagerI18n(ctx);
    this.insights = new ManagerInsights(ctx);
    this.speechOutput = new ManagerSpeechOutput(ctx);
    this.geolocation = new ManagerGeolocation(ctx);
    this.clock = new ManagerClock(ctx);
    this.dashboards = new ManagerDashboards(ctx);
    this.api = new ManagerApi(ctx);
    this.notifications = new ManagerNotifications(ctx);
    this.audio = new ManagerAudio(ctx);
    // A card's device argument is one of the app's Device instances (the drivers manager's).
    this.flow = new ManagerFlow(ctx, () => this.drivers);
  }

  private driversManager: ManagerDrivers | undefined;
  private discoveryManager: ManagerDiscovery | undefined;
  private cloudManager: ManagerCloud | undefined;
  private imagesManager: ManagerImages | undefined;

  /**
   * `this.homey.drivers` and `this.homey.discovery`, made (and their modules loaded) on first use:
   * most apps have no drivers, and each module an app process loads costs it memory.
   */
  get drivers(): ManagerDrivers {
    const { ManagerDrivers: Made } = require('./managers/drivers.cjs') as typeof import('./managers/drivers.cjs');
    this.driversManager ??= new Made(this.ctx);
    return this.driversManager;
  }

  /** `this.homey.cloud` and `this.homey.images`, made on first use too: few apps sign in with OAuth2 or show images. */
  get cloud(): ManagerCloud {
    const { ManagerCloud: Made } = require('./managers/cloud.cjs') as typeof import('./managers/cloud.cjs');
    this.cloudManager ??= new Made(this.ctx);
    return this.cloudManager;
  }

  get images(): ManagerImages {
    const { ManagerImages: Made } = require('./managers/images.cjs') as typeof import('./managers/images.cjs');
    this.imagesManager ??= new Made(this.ctx);
    return this.imagesManager;
  }

  get discovery(): ManagerDiscovery {
    const { ManagerDiscovery: Made } = require('./managers/discovery.cjs') as typeof import('./managers/discovery.cjs');
    this.discoveryManager ??= new Made(this.ctx);
    return this.discoveryManager;
  }

  /**
   * Resolves when the managers can be used: on hearth they can from the start (the hub sent
   * their state with init), so this never waits, and awaiting it in onInit cannot deadlock.
   */
  async ready(): Promise<void> {}

  /** Kept for Homey's SDK; hearth has nothing to mark. */
  markReady(): void {}

  hasPermission(permission: string): boolean {
    return hasPermission(this.ctx, permission);
  }

  __(key: string | object, tags?: object): string {
    return this.i18n.__(key, tags);
  }

  /** Like setTimeout, cleared when the app unloads. */
  setTimeout(callback: (...args: unknown[]) => void, ms: number, ...args: unknown[]): NodeJS.Timeout {
    const timer: Timer = setTimeout(() => {
      this.timeouts.delete(timer);
      callback(...args);
    }, ms);
    this.timeouts.add(timer);
    return timer;
  }

  clearTimeout(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timeouts.delete(timer);
  }

  /** Like setInterval, cleared when the app unloads. */
  setInterval(callback: (...args: unknown[]) => void, ms: number, ...args: unknown[]): NodeJS.Timeout {
    const timer = setInterval(callback, ms, ...args);
    this.intervals.add(timer);
    return timer;
  }

  clearInterval(timer: NodeJS.Timeout): void {
    clearInterval(timer);
    this.intervals.delete(timer);
  }

  /** Clears every timer the app made through this instance (the app is unloading). */
  destroy(): void {
    for (const t of this.timeouts) clearTimeout(t);
    for (const t of this.intervals) clearInterval(t);
    this.timeouts.clear();
    this.intervals.clear();
  }

  /** Applies a change the hub reported to the app's copy of its state. */
  applyEvent(event: AppEvent): void {
    switch (event.name) {
      case 'settings.set':
        this.settings.changed(event.key, { value: event.value });
        break;
      case 'settings.unset':
        this.settings.changed(event.key, null);
        break;
      case 'i18n.update':
        this.i18n.changed(event);
        break;
      case 'geolocation.update':
        this.geolocation.changed(event.location);
        break;
      case 'flow.update':
        this.flow.changed(event.kind, event.card);
        break;
    }
  }
}
