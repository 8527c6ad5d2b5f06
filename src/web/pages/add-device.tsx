/**
 * Adding a device: pick one of the installed apps' drivers and a zone; a pairing session starts
 * the driver's onPair, and its views follow (pair-flow.tsx). The session ends when the pairing is
 * done or this closes, whatever happened.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DriverView, PairSessionView } from '../../managers/drivers/contract.js';
import type { ZoneView } from '../../managers/zones/contract.js';
import { describe } from '../api.js';
import { call } from '../client.js';
import { Card, Err, useLoad } from '../ui.js';
import { PairFlow } from './pair-flow.js';

type Step = { kind: 'choose' } | { kind: 'starting' } | { kind: 'pairing'; session: PairSessionView; driver: DriverView } | { kind: 'done'; added: string[] };

export function AddDevice({ zones, onClose }: { zones: Array<{ zone: ZoneView; depth: number }>; onClose: () => void }): JSX.Element {
  const drivers = useLoad(() => call('drivers', 'getDrivers'));
  const [driverId, setDriverId] = useState('');
  const [zone, setZone] = useState(zones[0]?.zone.id ?? '');
  const [step, setStep] = useState<Step>({ kind: 'choose' });
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
    setStep({ kind: 'starting' });
    try {
      const s = await call('drivers', 'createPairSession', { body: { type: 'pair', driverId: driver.id, zoneId: zone } });
      session.current = s.id;
      setStep({ kind: 'pairing', session: s, driver });
    } catch (e) {
      setError(describe(e));
      setStep({ kind: 'choose' });
    }
  };

  const pairable = Object.values(drivers.data ?? {}).filter((d) => d.unpairable === null && !d.deprecated);
  const driver = pairable.find((d) => d.id === driverId);
  const close = (
    <button
      type="button"
      data-testid="add-device-close"
      onClick={() => {
        end();
        onClose();
      }}
    >
      Close
    </button>
  );
  return (
    <Card title="Add a device" actions={close}>
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
            Start
          </button>
        </form>
      ) : null}
      {step.kind === 'starting' ? <p role="status">Starting the pairing…</p> : null}
      {step.kind === 'pairing' ? (
        <PairFlow
          session={step.session}
          driver={step.driver}
          zone={zone}
          onFinish={(added) => {
            end();
            setStep({ kind: 'done', added });
          }}
        />
      ) : null}
      {step.kind === 'done' ? (
        <p role="status" data-testid="pair-done">
          {step.added.length > 0 ? `Added ${step.added.join(', ')}.` : 'Nothing was added.'}
        </p>
      ) : null}
      <Err msg={error} />
    </Card>
  );
}
