/**
 * Devices: every device of the home by zone (the zones in their tree's order), each a tile with
 * the controls its capabilities call for (device-tile.tsx), live: a value a device reports, or
 * another person sets, shows at once. A tile's menu renames, moves, repairs (through its driver's
 * repair views) or deletes the device; "Add a device" pairs one (add-device.tsx).
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { DeviceView } from '../../managers/devices/views.js';
import type { DriverView, PairSessionView } from '../../managers/drivers/contract.js';
import type { ZoneView } from '../../managers/zones/contract.js';
import { call } from '../client.js';
import { useLiveDevices } from '../live-devices.js';
import { ActionButton, Card, Err, useAction, useLiveCollection, useLoad } from '../ui.js';
import { AddDevice } from './add-device.js';
import { DeviceSettings } from './device-settings.js';
import { DeviceTile } from './device-tile.js';
import { PairFlow } from './pair-flow.js';

type Dict<T> = Record<string, T>;

/** The zones depth first from the root, each with its depth, so a house reads top-down. */
function zoneOrder(zones: Dict<ZoneView>): Array<{ zone: ZoneView; depth: number }> {
  const out: Array<{ zone: ZoneView; depth: number }> = [];
  const children = (parent: string | null) =>
    Object.values(zones)
      .filter((z) => z.parent === parent)
      .sort((a, b) => a.name.localeCompare(b.name));
  const walk = (z: ZoneView, depth: number): void => {
    out.push({ zone: z, depth });
    if (depth < 20) for (const c of children(z.id)) walk(c, depth + 1);
  };
  for (const root of children(null)) walk(root, 0);
  return out;
}

function DeviceMenu({
  device,
  zones,
  driver,
}: {
  device: DeviceView;
  zones: Array<{ zone: ZoneView; depth: number }>;
  driver: DriverView | undefined;
}): JSX.Element {
  const [name, setName] = useState(device.name);
  const [repairing, setRepairing] = useState<PairSessionView | null>(null);
  const [repaired, setRepaired] = useState(false);
  const [settings, setSettings] = useState(false);
  const a = useAction();
  const end = (id: string): void => void call('drivers', 'deletePairSession', { params: { id } }).catch(() => undefined);
  if (repairing && driver) {
    return (
      <PairFlow
        session={repairing}
        driver={driver}
        zone={device.zone}
        onFinish={() => {
          end(repairing.id);
          setRepairing(null);
          setRepaired(true);
        }}
      />
    );
  }
  return (
    <details class="menu">
      <summary aria-label={`More for ${device.name}`}>⋯</summary>
      <div class="menu-body">
        <form
          class="inline"
          onSubmit={a.submit(async () => {
            await call('devices', 'updateDevice', { params: { id: device.id }, body: { name } });
          })}
        >
          <input aria-label="Name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} data-testid="device-name" />
          <button type="submit" disabled={a.busy}>
            Rename
          </button>
        </form>
        <label>
          Zone{' '}
          <select
            value={device.zone}
            data-testid="device-zone"
            onChange={(e) =>
              void a.run(() => call('devices', 'updateDevice', { params: { id: device.id }, body: { zone: (e.target as HTMLSelectElement).value } }))
            }
          >
            {zones.map(({ zone, depth }) => (
              <option key={zone.id} value={zone.id}>
                {'  '.repeat(depth)}
                {zone.name}
              </option>
            ))}
          </select>
        </label>
        {settings ? (
          <DeviceSettings device={device} onClose={() => setSettings(false)} />
        ) : (
          <button type="button" data-testid="device-settings-open" onClick={() => setSettings(true)}>
            Settings
          </button>
        )}
        {driver && driver.repair.length > 0 ? (
          <ActionButton
            label="Repair"
            testId="device-repair"
            onRun={async () => {
              setRepaired(false);
              setRepairing(await call('drivers', 'createPairSession', { body: { type: 'repair', driverId: driver.id, deviceId: device.id } }));
            }}
          />
        ) : null}
        {repaired ? <span role="status">Repaired.</span> : null}
        <ActionButton
          label="Delete"
          kind="danger"
          testId="device-delete"
          confirm={`Delete ${device.name}? Its app forgets it, and its insights logs go with it.`}
          onRun={() => call('devices', 'deleteDevice', { params: { id: device.id } })}
        />
        <Err msg={a.error} />
      </div>
    </details>
  );
}

/** Devices and zones, kept current by the devices and zones events. */
function useHome(): { devices: Dict<DeviceView> | undefined; zones: Dict<ZoneView> | undefined; drivers: Dict<DriverView>; error: string | null } {
  const devices = useLiveDevices();
  // For the repair views of each device's driver; a token that cannot see drivers repairs nothing.
  const drivers = useLoad(() => call('drivers', 'getDrivers').catch(() => ({})));
  const zones = useLoad(() => call('zones', 'getZones'));
  useLiveCollection('zones', 'zone', zones);
  return { devices: devices.data, zones: zones.data, drivers: drivers.data ?? {}, error: devices.error ?? zones.error };
}

export function DevicesPage(): JSX.Element {
  const { devices, zones, drivers, error } = useHome();
  const [adding, setAdding] = useState(false);
  if (error) return <Err msg={error} />;
  if (!devices || !zones) return <p class="muted">Loading…</p>;
  const order = zoneOrder(zones);
  const all = Object.values(devices).filter((d) => !d.hidden);
  return (
    <>
      <header class="page-head">
        <h1>Devices</h1>
        <button type="button" class="primary" data-testid="add-device" onClick={() => setAdding(true)}>
          Add a device
        </button>
      </header>
      {adding ? <AddDevice zones={order} onClose={() => setAdding(false)} /> : null}
      {all.length === 0 && !adding ? (
        <Card>
          <p data-testid="no-devices">
            No devices yet. Devices come through their apps: <a href="#/apps">get the app</a> for your lights, plugs and sensors, then press <b>Add a device</b>
            .
          </p>
        </Card>
      ) : null}
      {order.map(({ zone, depth }) => {
        const here = all.filter((d) => d.zone === zone.id).sort((a, b) => a.name.localeCompare(b.name));
        if (here.length === 0) return null;
        return (
          <section key={zone.id} class="zone" data-testid={`zone-${zone.name}`} style={{ marginLeft: `${depth}rem` }}>
            <h2>{zone.name}</h2>
            <div class="tiles">
              {here.map((d) => (
                <DeviceTile key={d.id} device={d} menu={<DeviceMenu device={d} zones={order} driver={drivers[d.driverId]} />} />
              ))}
            </div>
          </section>
        );
      })}
    </>
  );
}
