/**
 * Adding a device: pick one of the installed apps' drivers and a zone; a pairing session starts
 * the driver's onPair; the list_devices view asks the driver for the devices it found and lets
 * the person tick the ones to add. The session ends when this closes, whatever happened.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DriverView } from '../../managers/drivers/contract.js';
import type { ZoneView } from '../../managers/zones/contract.js';
import { describe } from '../api.js';
import { call } from '../client.js';
import { Card, Err, useLoad } from '../ui.js';

interface Offered {
  name: string;
  data: Record<string, unknown>;
  [field: string]: unknown;
}

type Step =
  | { kind: 'choose' }
  | { kind: 'listing' }
  | { kind: 'list'; devices: Offered[] }
  | { kind: 'unsupported'; sentence: string }
  | { kind: 'done'; added: string[] };

export function AddDevice({ zones, onClose }: { zones: Array<{ zone: ZoneView; depth: number }>; onClose: () => void }): JSX.Element {
  const drivers = useLoad(() => call('drivers', 'getDrivers'));
  const [driverId, setDriverId] = useState('');
  const [zone, setZone] = useState(zones[0]?.zone.id ?? '');
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const session = useRef<string | null>(null);

  const end = (): void => {
    const id = session.current;
    session.current = null;
    if (id) void call('drivers', 'deletePairSession', { params: { id } }).catch(() => undefined);
  };
  useEffect(() => end, []);

  const start = async (driver: DriverView): Promise<void> => {
    setError(null);
    setStep({ kind: 'listing' });
    try {
      const s = await call('drivers', 'createPairSession', { body: { type: 'pair', driverId: driver.id, zoneId: zone } });
      session.current = s.id;
      const first = driver.pair[0];
      if (first?.template !== 'list_devices') {
        end();
        setStep({
          kind: 'unsupported',
          sentence: `${driver.name} pairs with its own views (${first?.id ?? 'none'}); the web app can pair only drivers that list their devices yet. A script can pair it through the drivers Web API.`,
        });
        return;
      }
      const listed = await call('drivers', 'emitPairingEvent', { params: { id: s.id }, body: { event: 'list_devices' } });
      const devices = Array.isArray(listed) ? (listed.filter((d) => typeof (d as Offered)?.name === 'string') as Offered[]) : [];
      setPicked(new Set(devices.map((_, i) => i)));
      setStep({ kind: 'list', devices });
    } catch (e) {
      end();
      setError(describe(e));
      setStep({ kind: 'choose' });
    }
  };

  const add = async (devices: Offered[]): Promise<void> => {
    const id = session.current;
    if (!id) return;
    setError(null);
    const added: string[] = [];
    for (const [i, d] of devices.entries()) {
      if (!picked.has(i)) continue;
      try {
        await call('drivers', 'createPairSessionDevice', { params: { id }, body: d });
        added.push(d.name);
      } catch (e) {
        setError(`${d.name}: ${describe(e)}`);
      }
    }
    end();
    setStep({ kind: 'done', added });
  };

  const pairable = Object.values(drivers.data ?? {}).filter((d) => d.unpairable === null && !d.deprecated);
  const driver = pairable.find((d) => d.id === driverId);
  return (
    <Card
      title="Add a device"
      actions={
        <button
          type="button"
          onClick={() => {
            end();
            onClose();
          }}
          data-testid="add-device-close"
        >
          Close
        </button>
      }
    >
      {step.kind === 'choose' ? (
        <form
          class="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (driver) void start(driver);
          }}
        >
          {drivers.data && pairable.length === 0 ? (
            <p>No installed app has a driver that can add devices here. Install an app for your devices first.</p>
          ) : null}
          <label>
            Kind of device{' '}
            <select value={driverId} onChange={(e) => setDriverId((e.target as HTMLSelectElement).value)} data-testid="pair-driver">
              <option value="">Choose…</option>
              {pairable.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({d.ownerId})
                </option>
              ))}
            </select>
          </label>
          <label>
            Zone{' '}
            <select value={zone} onChange={(e) => setZone((e.target as HTMLSelectElement).value)} data-testid="pair-zone">
              {zones.map(({ zone: z, depth }) => (
                <option key={z.id} value={z.id}>
                  {'  '.repeat(depth)}
                  {z.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" class="primary" disabled={!driver} data-testid="pair-start">
            Search for devices
          </button>
        </form>
      ) : null}
      {step.kind === 'listing' ? <p role="status">Asking the app for devices…</p> : null}
      {step.kind === 'list' ? (
        step.devices.length === 0 ? (
          <p data-testid="pair-none">The app found no devices to add.</p>
        ) : (
          <div class="stack">
            {step.devices.map((d, i) => (
              <label key={JSON.stringify(d.data)} class="check">
                <input
                  type="checkbox"
                  checked={picked.has(i)}
                  data-testid={`pair-device-${d.name}`}
                  onChange={() => {
                    const next = new Set(picked);
                    if (next.has(i)) next.delete(i);
                    else next.add(i);
                    setPicked(next);
                  }}
                />
                {d.name}
              </label>
            ))}
            <button type="button" class="primary" disabled={picked.size === 0} data-testid="pair-add" onClick={() => void add(step.devices)}>
              Add {picked.size === 1 ? 'the device' : `${picked.size} devices`}
            </button>
          </div>
        )
      ) : null}
      {step.kind === 'unsupported' ? <p data-testid="pair-unsupported">{step.sentence}</p> : null}
      {step.kind === 'done' ? (
        <p role="status" data-testid="pair-done">
          {step.added.length > 0 ? `Added ${step.added.join(', ')}.` : 'Nothing was added.'}
        </p>
      ) : null}
      <Err msg={error} />
    </Card>
  );
}
