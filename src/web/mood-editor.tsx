/**
 * A mood's values, edited on its room's page: its name, and for each device what it takes (on or
 * off, how bright, how far the blinds, the thermostat's target, as the device's capability allows);
 * a device can be left out, or every value taken again from how the device is now. Saved with
 * `updateMood`; deleted with `deleteMood`.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { DeviceView } from '../managers/devices/views.js';
import type { MoodView } from '../managers/moods/contract.js';
import { call } from './client.js';
import { Err, useAction } from './ui.js';

type State = MoodView['devices'][string]['state'];
type Cap = DeviceView['capabilitiesObj'][string];

/** Values shown as a percentage (fractions 0..1 on the wire). */
const PERCENT = new Set(['dim', 'windowcoverings_set', 'light_saturation', 'light_temperature', 'light_hue']);

function ValueInput({
  cap,
  value,
  label,
  onChange,
}: {
  cap: Cap | undefined;
  value: string | number | boolean;
  label: string;
  onChange: (v: string | number | boolean) => void;
}): JSX.Element {
  if (typeof value === 'boolean')
    return (
      <label class="inline">
        <input type="checkbox" checked={value} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} /> {label}
      </label>
    );
  if (typeof value === 'number' && PERCENT.has(cap?.id ?? '')) {
    return (
      <label class="inline">
        {label}{' '}
        <input
          type="number"
          min={0}
          max={100}
          step={1}
          value={Math.round(value * 100)}
          onInput={(e) => onChange(Number((e.target as HTMLInputElement).value) / 100)}
        />
        {' %'}
      </label>
    );
  }
  if (typeof value === 'number')
    return (
      <label class="inline">
        {label}{' '}
        <input
          type="number"
          min={cap?.min ?? undefined}
          max={cap?.max ?? undefined}
          step={cap?.step ?? 'any'}
          value={value}
          onInput={(e) => onChange(Number((e.target as HTMLInputElement).value))}
        />
        {cap?.units ? ` ${cap.units}` : ''}
      </label>
    );
  const values = cap?.values ?? null;
  if (values)
    return (
      <label class="inline">
        {label}{' '}
        <select value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
          {values.map((v) => (
            <option key={v.id} value={v.id}>
              {v.title}
            </option>
          ))}
        </select>
      </label>
    );
  return (
    <label class="inline">
      {label} <input value={value} onInput={(e) => onChange((e.target as HTMLInputElement).value)} />
    </label>
  );
}

export function MoodEditor({ mood, devices, onDone }: { mood: MoodView; devices: Readonly<Record<string, DeviceView>>; onDone: () => void }): JSX.Element {
  const [name, setName] = useState(mood.name);
  const [values, setValues] = useState<Record<string, State>>(() => Object.fromEntries(Object.entries(mood.devices).map(([id, d]) => [id, { ...d.state }])));
  const a = useAction();
  const set = (id: string, cap: string, v: string | number | boolean) => setValues((prev) => ({ ...prev, [id]: { ...prev[id], [cap]: v } }));
  /** Each of the device's values in the mood, as it is now. */
  const now = (id: string) =>
    setValues((prev) => {
      const caps = devices[id]?.capabilitiesObj ?? {};
      const state = { ...prev[id] };
      for (const cap of Object.keys(state)) {
        const v = caps[cap]?.value;
        if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') state[cap] = v;
      }
      return { ...prev, [id]: state };
    });
  const leaveOut = (id: string) =>
    setValues((prev) => {
      const next = { ...prev };
      delete next[id];
      return next;
    });
  return (
    <form
      class="card mood-editor"
      data-testid={`mood-editor-${mood.name}`}
      onSubmit={a.submit(async () => {
        const body = { name, devices: Object.fromEntries(Object.entries(values).map(([id, state]) => [id, { state }])) };
        await call('moods', 'updateMood', { params: { id: mood.id }, body });
        onDone();
      })}
    >
      <label class="inline">
        Name <input value={name} required maxLength={60} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <ul class="plain">
        {Object.entries(values).map(([id, state]) => {
          const device = devices[id];
          const deviceName = device?.name ?? 'A device that is gone';
          return (
            <li key={id} class="mood-device" data-testid={`mood-device-${deviceName}`}>
              <b>{deviceName}</b>
              <div class="inline wrap">
                {Object.entries(state).map(([cap, v]) => {
                  const facts = device?.capabilitiesObj[cap];
                  return <ValueInput key={cap} cap={facts} value={v} label={facts?.title ?? cap} onChange={(nv) => set(id, cap, nv)} />;
                })}
              </div>
              <div class="inline wrap">
                <button type="button" onClick={() => now(id)} aria-label={`Take how ${deviceName} is now`}>
                  As it is now
                </button>
                <button type="button" onClick={() => leaveOut(id)} aria-label={`Leave ${deviceName} out`}>
                  Leave out
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <div class="inline wrap">
        <button type="submit" class="primary" disabled={a.busy}>
          Save the mood
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <button
          type="button"
          class="danger"
          onClick={() =>
            window.confirm(`Delete the mood ${mood.name}?`) &&
            void a.run(async () => {
              await call('moods', 'deleteMood', { params: { id: mood.id } });
              onDone();
            })
          }
        >
          Delete
        </button>
      </div>
      <Err msg={a.error} />
    </form>
  );
}
