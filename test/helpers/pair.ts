/**
 * Pairs a device as a person does with the web app's Add a device, for tests that need one rather
 * than test pairing: a session for the driver, its list_devices, the first device offered added
 * (named and placed as asked), the session ended.
 */
import type { RunningHub } from './hub.js';

export async function pairDevice(hub: RunningHub, driverId: string, placed: { name?: string; zoneId?: string } = {}): Promise<string> {
  const session = await hub.op('drivers', 'createPairSession', { body: { type: 'pair', driverId, ...(placed.zoneId ? { zoneId: placed.zoneId } : {}) } });
  const [listed] = (await hub.op('drivers', 'emitPairingEvent', { params: { id: session.id }, body: { event: 'list_devices' } })) as Array<
    Record<string, unknown>
  >;
  if (!listed) throw new Error(`${driverId} offered no device to pair`);
  const device = await hub.op('drivers', 'createPairSessionDevice', {
    params: { id: session.id },
    body: { ...listed, ...(placed.name ? { name: placed.name } : {}) } as never,
  });
  await hub.op('drivers', 'deletePairSession', { params: { id: session.id } });
  return device.id;
}
