/**
 * The part of the protocol that carries devices (protocol.ts holds the rest): a device as its
 * app sees it, the calls an app's Driver and Device classes make to the hub, and the calls the
 * hub makes into them (capability listeners, settings, pairing). The hub is the keeper of every
 * device record; the app holds a copy, sent with init and with each device it gains.
 */
import { z } from 'zod';
import { safeRecord } from '../../core/null-prototype.js';
import { openCall } from './open-call.js';

const JsonObject = safeRecord(z.string(), z.unknown());
const DeviceId = z.string().min(1).max(64);
const CapabilityId = z.string().regex(/^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64})?$/, 'must be a capability id such as onoff or measure_temperature.inside');
const StoreKey = z.string().min(1).max(256);
/** A capability's value: null is "not known". */
export const CapabilityValue = z.union([z.boolean(), z.number(), z.string().max(4096), z.null()]);
const Message = z.string().max(1000).nullable();
const SessionId = z.string().min(1).max(64);
const ImageId = z.string().regex(/^[0-9a-f-]{36}$/, 'must be a uuid');
const ImageSlot = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -');
/** What a pairing handler answers: any JSON value. */
export const HandlerAnswer = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), safeRecord(z.string(), z.unknown())]);

/** A device as its app's Device instance sees it. */
export const DeviceState = z.object({
  id: DeviceId,
  /** The driver's id in app.json (not Homey's `homey:app:<appId>:<driverId>`). */
  driverId: z.string(),
  name: z.string(),
  class: z.string(),
  data: JsonObject,
  store: JsonObject,
  settings: JsonObject,
  capabilities: z.array(z.string()),
  capabilitiesOptions: safeRecord(z.string(), JsonObject),
  values: safeRecord(z.string(), CapabilityValue),
  available: z.boolean(),
  unavailableMessage: Message,
  warningMessage: Message,
  energy: JsonObject.nullable(),
});
export type DeviceState = z.infer<typeof DeviceState>;

/** A device a pairing offers (Homey's onPairListDevices entries); the hub fills in the driver's defaults. */
export const PairDevice = z.looseObject({
  name: z.string().min(1).max(200),
  data: JsonObject,
  store: JsonObject.optional(),
  settings: JsonObject.optional(),
  capabilities: z.array(CapabilityId).max(256).optional(),
  capabilitiesOptions: safeRecord(z.string(), JsonObject).optional(),
  class: z.string().max(64).optional(),
  icon: z.string().max(512).optional(),
  energy: JsonObject.optional(),
});
export type PairDevice = z.infer<typeof PairDevice>;

const Found = { id: z.string().min(1).max(256), lastSeen: z.string(), address: z.string().max(64) };
/**
 * A device a discovery strategy found, as the hub hands it to the app: Homey's
 * DiscoveryResultMDNSSD (txt, name, host), DiscoveryResultSSDP (the response's headers, lowercase
 * names) or DiscoveryResultMAC (the MAC address, also its id).
 */
export const DiscoveryResult = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('mdns-sd'),
    ...Found,
    port: z.number().int().min(0).max(65535),
    name: z.string().max(256),
    fullname: z.string().max(512),
    host: z.string().max(256),
    txt: safeRecord(z.string(), z.string()),
  }),
  z.object({ type: z.literal('ssdp'), ...Found, port: z.number().int().min(0).max(65535).nullable(), headers: safeRecord(z.string(), z.string()) }),
  z.object({ type: z.literal('mac'), ...Found, mac: z.string().regex(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/) }),
]);
export type DiscoveryResult = z.infer<typeof DiscoveryResult>;
const StrategyId = z.string().min(1).max(64);

const call = openCall;

/** Calls an app's Driver and Device instances make to the hub (about their own devices only). */
export const DEVICE_HUB_CALLS = {
  /** The app's devices, asked once its drivers are made (each becomes a Device instance). */
  'drivers.devices': call(
    () => z.object({}),
    () => z.array(DeviceState),
  ),
  /** What the app's discovery strategies have found so far, by strategy. */
  'discovery.results': call(
    () => z.object({}),
    () => safeRecord(z.string(), z.array(DiscoveryResult)),
  ),
  'device.setCapabilityValue': call(
    () => z.object({ id: DeviceId, capabilityId: CapabilityId, value: CapabilityValue }),
    () => z.null(),
  ),
  'device.setStoreValue': call(
    () => z.object({ id: DeviceId, key: StoreKey, value: z.unknown() }),
    () => z.null(),
  ),
  'device.unsetStoreValue': call(
    () => z.object({ id: DeviceId, key: StoreKey }),
    () => z.null(),
  ),
  'device.setSettings': call(
    () => z.object({ id: DeviceId, settings: JsonObject }),
    () => z.null(),
  ),
  'device.setAvailable': call(
    () => z.object({ id: DeviceId, available: z.boolean(), message: Message }),
    () => z.null(),
  ),
  'device.setWarning': call(
    () => z.object({ id: DeviceId, message: Message }),
    () => z.null(),
  ),
  'device.addCapability': call(
    () => z.object({ id: DeviceId, capabilityId: CapabilityId }),
    () => z.null(),
  ),
  'device.removeCapability': call(
    () => z.object({ id: DeviceId, capabilityId: CapabilityId }),
    () => z.null(),
  ),
  'device.setCapabilityOptions': call(
    () => z.object({ id: DeviceId, capabilityId: CapabilityId, options: JsonObject }),
    () => z.null(),
  ),
  'device.setClass': call(
    () => z.object({ id: DeviceId, class: z.string().min(1).max(64) }),
    () => z.null(),
  ),
  'device.setEnergy': call(
    () => z.object({ id: DeviceId, energy: JsonObject }),
    () => z.null(),
  ),
  /** `homey.images.createImage()`: an image of the app's, its id the app's (a uuid). */
  'image.register': call(
    () => z.object({ id: ImageId }),
    () => z.null(),
  ),
  /** Where its content comes from: the app (a file or a stream it serves), or an http(s) URL the client fetches. */
  'image.set': call(
    () => z.object({ id: ImageId, source: z.enum(['app', 'url']), url: z.string().max(2048).nullable() }),
    () => z.null(),
  ),
  /** `image.update()`: the content changed; clients fetch it again. */
  'image.update': call(
    () => z.object({ id: ImageId }),
    () => z.null(),
  ),
  'image.unregister': call(
    () => z.object({ id: ImageId }),
    () => z.null(),
  ),
  /** `setAlbumArtImage(image)` (slot `albumart`) and `setCameraImage(id, title, image)`: a device shows an image. */
  'device.setImage': call(
    () => z.object({ id: DeviceId, slot: ImageSlot, type: z.enum(['media', 'camera']), title: z.string().max(256).nullable(), image: ImageId }),
    () => z.null(),
  ),
  /** `homey.cloud.createOAuth2Callback(url)`: the hub keeps it, to hand it the code a person pastes. */
  'oauth2.callback': call(
    () => z.object({ url: z.string().max(4096) }),
    () => z.object({ id: z.string() }),
  ),
  /** The driver's pairing code talks to the pairing view (its emit, showView, nextView, ..., done). */
  'pair.toView': call(
    () =>
      z.object({
        session: SessionId,
        kind: z.enum(['emit', 'showView', 'nextView', 'prevView', 'done']),
        event: z.string().max(128).optional(),
        data: z.unknown(),
      }),
    () => z.unknown(),
  ),
} as const;

/** Calls the hub makes into an app's drivers and devices. */
export const DEVICE_APP_CALLS = {
  /** A device was paired: the app makes its Device instance (onInit, then onAdded). */
  'device.added': call(
    () => z.object({ device: DeviceState }),
    () => z.null(),
  ),
  /** A device was deleted by a person: onDeleted, then the instance is gone. */
  'device.deleted': call(
    () => z.object({ id: DeviceId }),
    () => z.null(),
  ),
  'device.renamed': call(
    () => z.object({ id: DeviceId, name: z.string() }),
    () => z.null(),
  ),
  /** A person changes settings: onSettings may refuse (it throws) and nothing is stored. */
  'device.settings': call(
    () => z.object({ id: DeviceId, oldSettings: JsonObject, newSettings: JsonObject, changedKeys: z.array(z.string()) }),
    () => z.null(),
  ),
  /** A person (or a flow) sets capabilities: the app's capability listeners run. */
  'device.capability': call(
    () => z.object({ id: DeviceId, values: safeRecord(z.string(), CapabilityValue), opts: JsonObject }),
    () => z.null(),
  ),
  /** A pairing (or repair) session starts: the driver's onPair / onRepair. */
  'pair.start': call(
    () => z.object({ session: SessionId, driverId: z.string(), type: z.enum(['pair', 'repair']), deviceId: DeviceId.optional() }),
    () => z.null(),
  ),
  /** The view emits an event to the session: the handler's answer. */
  'pair.emit': call(
    () => z.object({ session: SessionId, event: z.string().min(1).max(128), data: z.unknown() }),
    () => HandlerAnswer,
  ),
  'pair.end': call(
    () => z.object({ session: SessionId }),
    () => z.null(),
  ),
  /** An image's content, from its file or stream (the app reads its own files): at most 4 MiB. The hub tells its type by its bytes. */
  'image.content': call(
    () => z.object({ id: ImageId }),
    () => z.object({ base64: z.string().max(6 * 1024 * 1024) }),
  ),
  /** The code (or the provider's refusal) of an OAuth2 sign-in, for the app's callback. */
  'oauth2.code': call(
    () => z.object({ id: z.string().max(64), code: z.string().max(4096).nullable(), error: z.string().max(1024).nullable() }),
    () => z.null(),
  ),
  /** A strategy found a device, or saw it again (a new address, or just now). */
  'discovery.result': call(
    () => z.object({ strategy: StrategyId, result: DiscoveryResult }),
    () => z.null(),
  ),
} as const;
