/**
 * The devices contract, at Homey's paths as Homey's client (`homey-api`) calls them: the devices
 * with their capabilities and values, a device's settings, renaming, moving and deleting it, and
 * setting a capability (run by the device's app). Events: device.create/update/delete, and
 * capability.update for each new value (Homey's clients hear it as `capability` on
 * `homey:device:<id>`).
 */
import { z } from 'zod';
import { ActorView } from '../../core/actor.js';
import { defineContract, lazy, op, stateOperation } from '../../core/contract.js';
import { resourceEvents } from '../../core/events.js';
import { DeviceSettingView, DeviceView } from './views.js';

const Id = lazy(() => z.object({ id: z.string().min(1).max(64) }));
const CapabilityParams = lazy(() => z.object({ deviceId: z.string().min(1).max(64), capabilityId: z.string().min(1).max(130) }));
const Value = lazy(() => z.union([z.boolean(), z.number(), z.string().max(4096), z.null()]));

export const CapabilityEvent = lazy(() =>
  z.object({
    deviceId: z.string(),
    capabilityId: z.string(),
    value: Value(),
    /** The caller's id of the set that made it (homey-api's), or null. */
    transactionId: z.string().nullable(),
    transactionTime: z.string().nullable(),
    by: ActorView().nullable().describe("hearth's: who set it (a person, a script's token, a flow), or the device's app when it reported it itself"),
  }),
);

export const devicesContract = defineContract({
  name: 'devices',
  eventScope: 'service.device.readonly',
  events: lazy(() => ({ ...resourceEvents('device', DeviceView()), 'capability.update': [CapabilityEvent()] })),
  operations: {
    getState: stateOperation({
      summary: 'How many devices there are, and how many are unavailable',
      output: () => z.object({ devices: z.number().int(), unavailable: z.number().int() }),
    }),
    getDevices: op(
      {
        method: 'GET',
        path: '/device',
        scope: 'service.device.readonly',
        summary: 'Every device by id, with its capabilities and their values',
      },
      () => ({
        output: z.record(z.string(), DeviceView()),
      }),
    ),
    getDevice: op({ method: 'GET', path: '/device/:id', scope: 'service.device.readonly', summary: 'One device' }, () => ({
      params: Id(),
      output: DeviceView(),
    })),
    updateDevice: op(
      {
        method: 'PUT',
        path: '/device/:id',
        scope: 'service.device',
        summary: 'Rename a device, move it to another zone, change its note or hide it',
        bodyRoot: 'device',
      },
      () => ({
        params: Id(),
        body: z.strictObject({
          name: z.string().trim().min(1, 'a device needs a name').max(200).optional(),
          zone: z.string().min(1).max(64).optional(),
          note: z.string().max(2000).nullable().optional(),
          hidden: z.boolean().optional(),
          virtualClass: z.string().max(64).nullable().optional(),
        }),
        output: DeviceView(),
      }),
    ),
    getDeviceSettingsObj: op(
      {
        method: 'GET',
        path: '/device/:id/settings_obj',
        scope: 'service.device.readonly',
        summary: "The device's settings as its driver declares them, each with its value",
      },
      () => ({
        params: Id(),
        output: z.array(DeviceSettingView()),
      }),
    ),
    setDeviceSettings: op(
      {
        method: 'PUT',
        path: '/device/:id/settings',
        scope: 'service.device',
        summary: "Change settings `{<id>: value}`: checked against the driver's declaration, then the app's onSettings may refuse them",
        bodyRoot: 'settings',
      },
      () => ({
        params: Id(),
        body: z.record(z.string(), z.unknown()),
        output: DeviceView(),
      }),
    ),
    deleteDevice: op({ method: 'DELETE', path: '/device/:id', scope: 'service.device', summary: 'Delete a device (its app hears it)', status: 204 }, () => ({
      params: Id(),
    })),
    getCapabilityValue: op(
      {
        method: 'GET',
        path: '/device/:deviceId/capability/:capabilityId',
        scope: 'service.device.readonly',
        summary: "A capability's value",
      },
      () => ({
        params: CapabilityParams(),
        output: Value(),
      }),
    ),
    setCapabilityValue: op(
      {
        method: 'PUT',
        path: '/device/:deviceId/capability/:capabilityId',
        scope: 'service.device.control',
        summary: "Set a capability `{value, opts?, transactionId?}`: the device's app acts on it, then it is the device's value",
      },
      () => ({
        params: CapabilityParams(),
        body: z.strictObject({
          value: Value(),
          opts: z.record(z.string(), z.unknown()).optional(),
          transactionId: z.string().max(128).optional(),
        }),
        output: z.null(),
      }),
    ),
  },
});
