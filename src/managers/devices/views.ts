/**
 * A device as the Web API shows it (Homey's Device: `homey-api` reads these fields), made from
 * its record, its capability values, its capabilities' facts and whether its app runs.
 */

import { z } from 'zod';
import { lazy } from '../../core/contract.js';
import { appOwnerUri } from '../../core/owners.js';
import { type Capability, capabilityOf } from '../../home/capability.js';
import type { DeviceRecord, StoredValue } from './device-record.js';

const CapabilityView = lazy(() =>
  z.object({
    id: z.string(),
    type: z.enum(['boolean', 'number', 'string', 'enum']),
    title: z.string(),
    getable: z.boolean(),
    setable: z.boolean(),
    units: z.string().nullable(),
    min: z.number().nullable(),
    max: z.number().nullable(),
    step: z.number().nullable(),
    decimals: z.number().nullable(),
    values: z.array(z.object({ id: z.string(), title: z.string() })).nullable(),
    uiComponent: z.string().nullable(),
    insights: z.boolean(),
    value: z.union([z.boolean(), z.number(), z.string(), z.null()]),
    lastUpdated: z.string().nullable(),
    options: z.record(z.string(), z.unknown()),
  }),
);

/** An image a device shows (album art, a camera picture), as Homey's device objects list them. */
export const DeviceImageView = lazy(() =>
  z.object({
    id: z.string().describe("the slot: 'albumart', or the camera's id"),
    type: z.enum(['media', 'camera']),
    title: z.string().nullable(),
    imageObj: z.object({
      id: z.string(),
      url: z.string().describe("its content: the hub's path (GET with the token), or the image's own http(s) URL"),
      lastUpdated: z.string(),
    }),
  }),
);
export type DeviceImageView = z.infer<ReturnType<typeof DeviceImageView>>;

/** One setting of a device as its driver declares it, with its value (getDeviceSettingsObj). */
export const DeviceSettingView = lazy(() =>
  z.object({
    id: z.string(),
    type: z.string(),
    label: z.union([z.string(), z.record(z.string(), z.string())]),
    default: z.unknown(),
    value: z.unknown(),
    min: z.number().optional(),
    max: z.number().optional(),
    values: z.array(z.object({ id: z.string(), label: z.unknown() })).optional(),
  }),
);
export type DeviceSettingView = z.infer<ReturnType<typeof DeviceSettingView>>;

export const DeviceView = lazy(() =>
  z.object({
    id: z.string(),
    uri: z.string(),
    name: z.string(),
    /** `homey:app:<appId>:<driverId>`, as Homey's Web API names drivers. */
    driverId: z.string(),
    ownerUri: z.string(),
    zone: z.string(),
    class: z.string(),
    virtualClass: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    capabilities: z.array(z.string()),
    capabilitiesObj: z.record(z.string(), CapabilityView()),
    settings: z.record(z.string(), z.unknown()),
    available: z.boolean(),
    unavailableMessage: z.string().nullable(),
    warningMessage: z.string().nullable(),
    ready: z.boolean(),
    energy: z.record(z.string(), z.unknown()).nullable(),
    icon: z.string().nullable(),
    note: z.string().nullable(),
    hidden: z.boolean(),
    flags: z.array(z.string()),
    images: z.array(DeviceImageView()),
    /** The capability a tile's tap sets (onoff where there is one), or null. */
    ui: z.object({ quickAction: z.string().nullable() }),
  }),
);
export type DeviceView = z.infer<ReturnType<typeof DeviceView>>;

/** Homey's id of a driver: `homey:app:<appId>:<driverId>`. */
export const driverUri = (appId: string, driverId: string): string => `${appOwnerUri(appId)}:${driverId}`;

/** What hearth does not know (an app's capability its app.json does not declare) is shown as a text readout. */
const UNKNOWN: Capability = {
  type: 'string',
  title: '',
  getable: true,
  setable: false,
  units: null,
  min: null,
  max: null,
  step: null,
  decimals: null,
  values: null,
  ui: 'sensor',
  insights: false,
};

export interface ViewInput {
  record: DeviceRecord;
  /** The images its app shows for it (none when it shows none). */
  images?: readonly DeviceImageView[];
  values: Readonly<Record<string, StoredValue>> | undefined;
  /** The app's own capabilities (its app.json). */
  custom: Readonly<Record<string, Capability>>;
  /** Null when the app runs; else why its devices cannot be reached. */
  appDown: string | null;
}

export function factsOf(record: DeviceRecord, capabilityId: string, custom: Readonly<Record<string, Capability>>): Capability | null {
  return capabilityOf(capabilityId, custom, record.capabilitiesOptions[capabilityId] ?? {});
}

/** What a device's view says of whether it can be reached: its own word, unless its app is down (`appDown`: why). */
export function reachability(record: DeviceRecord, appDown: string | null): Pick<DeviceView, 'available' | 'unavailableMessage' | 'ready'> {
  return {
    available: record.available && appDown === null,
    unavailableMessage: appDown ?? (record.available ? null : record.unavailableMessage),
    ready: appDown === null,
  };
}

export function deviceView(input: ViewInput): DeviceView {
  const { record, values, custom, appDown } = input;
  const capabilitiesObj: DeviceView['capabilitiesObj'] = {};
  for (const id of record.capabilities) {
    const facts = factsOf(record, id, custom) ?? { ...UNKNOWN, title: id };
    const stored = values?.[id];
    capabilitiesObj[id] = {
      id,
      type: facts.type,
      title: facts.title,
      getable: facts.getable,
      setable: facts.setable,
      units: facts.units,
      min: facts.min,
      max: facts.max,
      step: facts.step,
      decimals: facts.decimals,
      values: facts.values ? facts.values.map((v) => ({ ...v })) : null,
      uiComponent: facts.ui,
      insights: facts.insights,
      value: stored?.value ?? null,
      lastUpdated: stored?.lastUpdated ?? null,
      options: record.capabilitiesOptions[id] ?? {},
    };
  }
  const quickAction = record.capabilities.includes('onoff')
    ? 'onoff'
    : (record.capabilities.find((c) => capabilitiesObj[c]?.type === 'boolean' && capabilitiesObj[c]?.setable) ?? null);
  return {
    id: record.id,
    uri: `homey:device:${record.id}`,
    name: record.name,
    driverId: driverUri(record.appId, record.driverId),
    ownerUri: appOwnerUri(record.appId),
    zone: record.zone,
    class: record.class,
    virtualClass: record.virtualClass,
    data: record.data,
    capabilities: [...record.capabilities],
    capabilitiesObj,
    settings: record.settings,
    ...reachability(record, appDown),
    warningMessage: record.warningMessage,
    energy: record.energy,
    icon: record.icon,
    note: record.note,
    hidden: record.hidden,
    flags: [],
    images: [...(input.images ?? [])],
    ui: { quickAction },
  };
}
