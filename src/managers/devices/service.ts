/**
 * The devices of the home: their records (the `devices` section), their capability values
 * (values.ts), and every change to them, whoever makes it: a person through the Web API (rename,
 * move, settings, a capability set, delete), the pairing (create), or the device's own app
 * (sdk.ts). Every change is published: device.create/update/delete with the Device view, and
 * capability.update for each value. A capability set by a person goes through the app's
 * listener first and is the device's value only once the app took it.
 */
import type { Logger } from 'pino';
import { AppRefusal } from '../../apps/host/errors.js';
import type { DeviceSettingDef, DriverDefinition } from '../../apps/manifest/drivers.js';
import type { AppManifest } from '../../apps/manifest/manifest.js';
import type { DEVICE_APP_CALLS, DeviceState, PairDevice } from '../../apps/wire/device-calls.js';
import type { AppCallArgs, AppCallResult } from '../../apps/wire/protocol.js';
import type { Actor } from '../../core/actor.js';
import { MiB } from '../../core/byte-bounds.js';
import { diff } from '../../core/diff.js';
import { conflict, HearthError, notFound } from '../../core/errors.js';
import { nullRecord } from '../../core/null-prototype.js';
import type { RecordSection, Store } from '../../core/store.js';
import { type Capability, valueProblem } from '../../home/capability.js';
import type { HubBus } from '../bus.js';
import type { ZonesService } from '../zones/service.js';
import { dataKey, recordDataKey } from './data-key.js';
import type { DeviceLogs } from './device-logs.js';
import { DEVICES_SECTION, DeviceRecord, LIMITS, type StoredValue } from './device-record.js';
import { checkPartBytes, newDeviceRecord } from './new-record.js';
import { settingProblem } from './setting-check.js';
import { CapabilityValues } from './values.js';
import { type DeviceImageView, type DeviceView, deviceView, factsOf, reachability } from './views.js';

/** How long an app's capability listener or onSettings may take. */
export const LISTENER_TIMEOUT_MS = 10_000;
/** How long a new device's onInit and onAdded may take before the pairing hears of it. */
const ADDED_TIMEOUT_MS = 30_000;

type DeviceAppMethod = keyof typeof DEVICE_APP_CALLS;

/** The apps runtime as the devices see it. */
export interface DeviceApps {
  manifest(appId: string): AppManifest | null;
  /** Null when the app runs; else why its devices cannot be reached. */
  down(appId: string): string | null;
  call<M extends DeviceAppMethod>(appId: string, method: M, args: AppCallArgs<M>, timeoutMs: number): Promise<AppCallResult<M>>;
}

export type DevicePatch = {
  name?: string | undefined;
  zone?: string | undefined;
  note?: string | null | undefined;
  hidden?: boolean | undefined;
  virtualClass?: string | null | undefined;
};

export class DevicesService {
  private section!: RecordSection<DeviceRecord>;
  readonly values: CapabilityValues;

  constructor(
    private readonly store: Store,
    private readonly bus: HubBus,
    private readonly zones: ZonesService,
    private readonly log: Logger,
    private readonly apps: DeviceApps,
    private readonly logs: DeviceLogs | null = null,
  ) {
    this.values = new CapabilityValues(store, log);
  }

  start(): void {
    this.section = this.store.records(DEVICES_SECTION, DeviceRecord, { record: MiB, item: 'a device', section: 16 * MiB, items: 'devices' });
    this.values.open();
    this.zones.hasDevices = (zone) => Object.values(this.section.next).some((d) => d.zone === zone);
  }

  stop(): Promise<void> {
    return this.values.flush();
  }

  private custom(appId: string): Readonly<Record<string, Capability>> {
    return this.apps.manifest(appId)?.capabilities ?? {};
  }

  private down(appId: string): string | null {
    return this.apps.down(appId);
  }

  has(id: string): boolean {
    return Object.hasOwn(this.section.value, id);
  }

  /** Every device's record. */
  records(): DeviceRecord[] {
    return Object.values(this.section.value);
  }

  record(id: string): DeviceRecord {
    const r = Object.hasOwn(this.section.value, id) ? this.section.value[id] : undefined;
    if (!r) throw notFound(`device '${id}' does not exist`);
    return r;
  }

  private viewOf(record: DeviceRecord, images = this.imagesOf(record.id)): DeviceView {
    return deviceView({ record, values: this.values.of(record.id), custom: this.custom(record.appId), appDown: this.down(record.appId), images });
  }

  /** The images each device shows (the images manager says; none without one). */
  imagesOf: (deviceId: string) => readonly DeviceImageView[] = () => [];

  /** The images a device shows changed: device.update with the change, if its view changed. */
  imagesChanged(deviceId: string, before: readonly DeviceImageView[]): void {
    if (!this.has(deviceId)) return;
    const record = this.record(deviceId);
    const now = this.viewOf(record);
    const changes = diff(this.viewOf(record, before), now);
    if (changes.changedKeys.length > 0) this.bus.publish('devices', 'device.update', now, changes);
  }

  /** How many devices there are, and how many cannot be reached (without making their views). */
  state(): { devices: number; unavailable: number } {
    const all = Object.values(this.section.value);
    return { devices: all.length, unavailable: all.filter((r) => !r.available || this.down(r.appId) !== null).length };
  }

  list(): Record<string, DeviceView> {
    const out = nullRecord<DeviceView>();
    for (const r of Object.values(this.section.value)) out[r.id] = this.viewOf(r);
    return out;
  }

  get(id: string): DeviceView {
    return this.viewOf(this.record(id));
  }

  ofApp(appId: string): DeviceRecord[] {
    return Object.values(this.section.value).filter((d) => d.appId === appId);
  }

  /** A device as its app's Device instance starts from. */
  stateOf(r: DeviceRecord): DeviceState {
    const values = nullRecord<StoredValue['value']>();
    for (const c of r.capabilities) values[c] = this.values.of(r.id)?.[c]?.value ?? null;
    return {
      id: r.id,
      driverId: r.driverId,
      name: r.name,
      class: r.class,
      data: r.data,
      store: r.store,
      settings: r.settings,
      capabilities: r.capabilities,
      capabilitiesOptions: r.capabilitiesOptions,
      values,
      available: r.available,
      unavailableMessage: r.unavailableMessage,
      warningMessage: r.warningMessage,
      energy: r.energy,
    };
  }

  /** Changes a record and publishes device.update with what changed in its view. */
  async change(id: string, mutate: (r: DeviceRecord) => void): Promise<DeviceView> {
    const before = this.get(id);
    await this.section.updateSome([id], (d) => {
      const r = d[id];
      if (!r) throw notFound(`device '${id}' does not exist`);
      mutate(r);
      checkPartBytes(r);
    });
    const after = this.get(id);
    const changes = diff(before, after);
    if (changes.changedKeys.length > 0) this.bus.publish('devices', 'device.update', after, changes);
    return after;
  }

  /** Republishes the devices of an app whose running state changed: `wasDown` is why they could not be reached before, or null. */
  appChanged(appId: string, wasDown: string | null): void {
    const down = this.down(appId);
    for (const record of this.ofApp(appId)) {
      // Only what the app's state shows is compared (a thousand devices' whole views were made
      // twice and compared: 100 ms at a big home's start); the view is made for an event only.
      const changes = diff(reachability(record, wasDown), reachability(record, down));
      if (changes.changedKeys.length > 0) this.bus.publish('devices', 'device.update', this.viewOf(record), changes);
    }
  }

  /**
   * Whether a device of this driver has `data` already (by value, whatever the order of its keys,
   * as Homey compares it). Against the writes queued too: the same device paired twice at once is
   * added once.
   */
  isPaired(appId: string, driverId: string, data: unknown): boolean {
    return this.pairedWith(appId, driverId)(data);
  }

  /** isPaired for many candidates (a driver's list_devices): the driver's devices read once. */
  pairedWith(appId: string, driverId: string): (data: unknown) => boolean {
    const keys = new Set(
      Object.values(this.section.next)
        .filter((d) => d.appId === appId && d.driverId === driverId)
        .map(recordDataKey),
    );
    return (data) => keys.has(dataKey(data));
  }

  /** A paired device: the driver's defaults with what the pairing gave, told to its app. */
  async create(appId: string, driverId: string, given: PairDevice, zone?: string): Promise<DeviceView> {
    const apps = this.apps;
    const driver = apps.manifest(appId)?.drivers.find((d) => d.id === driverId);
    if (!driver) throw notFound(`app '${appId}' has no driver '${driverId}'`);
    if (zone !== undefined && !this.zones.exists(zone)) throw new HearthError('invalid_parameter', `zone '${zone}' does not exist`);
    if (Object.keys(this.section.next).length >= LIMITS.devices) throw conflict(`a hub keeps ${LIMITS.devices} devices at most`);
    if (this.isPaired(appId, driverId, given.data)) throw conflict(`this device (${given.name}) is added already`);
    const record = newDeviceRecord(appId, driver, given, zone ?? this.zones.root);
    await this.section.updateSome([record.id], (d) => {
      d[record.id] = record;
    });
    const view = this.get(record.id);
    this.bus.publish('devices', 'device.create', view);
    await apps.call(appId, 'device.added', { device: this.stateOf(record) }, ADDED_TIMEOUT_MS).catch((err: unknown) => {
      this.log.warn({ err, device: record.id, app: appId }, 'the app did not take its new device');
    });
    return this.get(record.id);
  }

  async update(id: string, patch: DevicePatch): Promise<DeviceView> {
    const before = this.record(id);
    if (patch.zone !== undefined && !this.zones.exists(patch.zone)) throw new HearthError('invalid_parameter', `zone '${patch.zone}' does not exist`);
    const view = await this.change(id, (r) => {
      if (patch.name !== undefined) r.name = patch.name;
      if (patch.zone !== undefined) r.zone = patch.zone;
      if (patch.note !== undefined) r.note = patch.note;
      if (patch.hidden !== undefined) r.hidden = patch.hidden;
      if (patch.virtualClass !== undefined) r.virtualClass = patch.virtualClass;
    });
    if (patch.name !== undefined && patch.name !== before.name && !this.down(before.appId)) {
      await this.apps
        .call(before.appId, 'device.renamed', { id, name: patch.name }, LISTENER_TIMEOUT_MS)
        .catch((err: unknown) => this.log.warn({ err, device: id }, 'the app failed to hear of the rename'));
    }
    return view;
  }

  /** Deletes a device: its app hears it first (onDeleted), but a failing or stopped app does not keep it. */
  async remove(id: string): Promise<DeviceView> {
    const record = this.record(id);
    const view = this.get(id);
    if (!this.down(record.appId)) {
      await this.apps
        .call(record.appId, 'device.deleted', { id }, LISTENER_TIMEOUT_MS)
        .catch((err: unknown) => this.log.warn({ err, device: id }, 'the app failed to hear of the delete'));
    }
    await this.section.updateSome([id], (d) => {
      delete d[id];
    });
    this.values.forget(id);
    this.logs?.forget(id);
    this.bus.publish('devices', 'device.delete', view);
    return view;
  }

  /** Every device of an uninstalled app goes with it. */
  async removeApp(appId: string): Promise<void> {
    const gone = this.ofApp(appId).map((r) => this.get(r.id));
    if (gone.length === 0) return;
    await this.section.updateSome(
      gone.map((v) => v.id),
      (d) => {
        for (const v of gone) delete d[v.id];
      },
    );
    for (const v of gone) {
      this.values.forget(v.id);
      this.logs?.forget(v.id);
      this.bus.publish('devices', 'device.delete', v);
    }
  }

  /** The device's settings as its driver declares them, each with its value (Homey's settings object). */
  settingsObj(id: string): Array<DeviceSettingDef & { value: unknown }> {
    const record = this.record(id);
    return this.driverOf(record).deviceSettings.map((def) => ({ ...def, value: record.settings[def.id] ?? def.default }));
  }

  private driverOf(record: DeviceRecord): DriverDefinition {
    const driver = this.apps.manifest(record.appId)?.drivers.find((d) => d.id === record.driverId);
    if (!driver) throw new HearthError('unavailable', `the driver of '${record.name}' is not loaded (its app '${record.appId}' is missing or broken)`);
    return driver;
  }

  /**
   * Why the settings an app sets on its own device (`Device#setSettings`) cannot be kept, or
   * null: a setting its driver declares takes a value of its type, as on Homey (which refuses
   * such a call with invalid_setting_type); null clears one; keys it does not declare are the
   * app's own business and kept.
   */
  appSettingsProblem(record: DeviceRecord, settings: Record<string, unknown>): string | null {
    const defs = this.driverOf(record).deviceSettings;
    for (const [key, value] of Object.entries(settings)) {
      const def = defs.find((d) => d.id === key);
      const problem = def && value !== null ? settingProblem(def, value) : null;
      if (problem) return `setting '${key}' of '${record.name}' ${problem}: nothing was set (Homey: invalid_setting_type)`;
    }
    return null;
  }

  /**
   * A person changes settings: each is checked against the driver's declaration, the app's
   * onSettings hears them (and may refuse them: its message is the answer), then they are kept.
   */
  async setSettings(id: string, patch: Record<string, unknown>): Promise<DeviceView> {
    const record = this.record(id);
    const defs = this.driverOf(record).deviceSettings;
    for (const [key, value] of Object.entries(patch)) {
      const def = defs.find((d) => d.id === key);
      if (!def) throw new HearthError('invalid_parameter', `'${record.name}' has no setting '${key}'`);
      const problem = settingProblem(def, value);
      if (problem) throw new HearthError('invalid_parameter', `setting '${key}': ${problem}`);
    }
    const newSettings = { ...record.settings, ...patch };
    const changedKeys = Object.keys(patch).filter((k) => JSON.stringify(record.settings[k]) !== JSON.stringify(patch[k]));
    if (changedKeys.length === 0) return this.get(id);
    const down = this.down(record.appId);
    if (down) throw new HearthError('unavailable', `'${record.name}' cannot be reached: ${down}`);
    try {
      await this.apps.call(record.appId, 'device.settings', { id, oldSettings: record.settings, newSettings, changedKeys }, LISTENER_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof AppRefusal) throw new HearthError('invalid_parameter', `'${record.name}' refused the settings: ${err.said}`);
      throw err;
    }
    return this.change(id, (r) => {
      r.settings = { ...r.settings, ...patch };
    });
  }

  /** The facts of a capability the device has, or 404. */
  facts(record: DeviceRecord, capabilityId: string): Capability {
    if (!record.capabilities.includes(capabilityId)) throw notFound(`device '${record.name}' has no capability '${capabilityId}'`);
    const facts = factsOf(record, capabilityId, this.custom(record.appId));
    if (!facts) throw new HearthError('invalid_parameter', `capability '${capabilityId}' is neither Homey's nor declared in the app's app.json`);
    return facts;
  }

  getCapabilityValue(id: string, capabilityId: string): StoredValue['value'] {
    const record = this.record(id);
    this.facts(record, capabilityId);
    return this.values.of(id)?.[capabilityId]?.value ?? null;
  }

  /** A person (or a flow: `by`) sets a capability: checked, run by the app's listener, then stored and published. */
  async setCapabilityValue(
    id: string,
    capabilityId: string,
    value: unknown,
    opts: Record<string, unknown> = {},
    transactionId?: string,
    by: Actor | null = null,
  ): Promise<void> {
    const record = this.record(id);
    const facts = this.facts(record, capabilityId);
    if (!facts.setable) throw new HearthError('invalid_parameter', `${facts.title} of '${record.name}' cannot be set`);
    const problem = valueProblem(facts, value);
    if (problem) throw new HearthError('invalid_parameter', problem);
    const down = this.down(record.appId);
    if (down) throw new HearthError('unavailable', `'${record.name}' cannot be reached: ${down}`);
    if (!record.available)
      throw new HearthError('unavailable', `'${record.name}' is unavailable${record.unavailableMessage ? `: ${record.unavailableMessage}` : ''}`);
    const v = value as StoredValue['value'];
    await this.apps.call(record.appId, 'device.capability', { id, values: { [capabilityId]: v }, opts: { [capabilityId]: opts } }, LISTENER_TIMEOUT_MS);
    if (facts.getable) this.report(record, capabilityId, v, facts, transactionId, by);
  }

  /** Stores a value and publishes it (capability.update, saying who set it: `by`); returns it as stored. */
  report(
    record: DeviceRecord,
    capabilityId: string,
    value: StoredValue['value'],
    facts: Capability,
    transactionId?: string,
    by: Actor | null = null,
  ): StoredValue {
    const stored = this.values.set(record.id, capabilityId, value);
    this.logs?.record(record.id, capabilityId, facts, value);
    this.bus.publish('devices', 'capability.update', {
      deviceId: record.id,
      capabilityId,
      value,
      transactionId: transactionId ?? null,
      transactionTime: stored.lastUpdated,
      by,
    });
    return stored;
  }
}
