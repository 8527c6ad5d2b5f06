/**
 * Homey's devices picker for a placed widget: the devices its app widget may be given (its
 * `devices` key: its own app's or any, one or several, filtered by class and capabilities), the
 * same filter the hub checks on save (home/device-choice.ts). One device: a list box; several:
 * a check box each, in the order they were ticked (each chosen one can be moved earlier or
 * later), which the widget's page gets from Homey.getDeviceIds(). A chosen device that was
 * deleted since is shown so it can be unticked.
 */
import type { JSX } from 'preact';
import { choiceProblem, type DeviceChoice } from '../../home/device-choice.js';
import { appOf, type DeviceView } from '../live-devices.js';

export function DevicePicker({
  choice,
  ownerAppId,
  devices,
  value,
  onChange,
}: {
  choice: DeviceChoice;
  ownerAppId: string;
  devices: Record<string, DeviceView>;
  value: readonly string[];
  onChange: (ids: string[]) => void;
}): JSX.Element {
  const fitting = Object.values(devices)
    .filter((d) => choiceProblem(choice, ownerAppId, { ...d, appId: appOf(d) }) === null)
    .sort((a, b) => a.name.localeCompare(b.name));
  const gone = value.filter((id) => !devices[id]);
  if (choice.singular) {
    return (
      <label class="inline small">
        Device
        <select
          value={value[0] ?? ''}
          data-testid="widget-device"
          onChange={(e) => onChange((e.target as HTMLSelectElement).value || null ? [(e.target as HTMLSelectElement).value] : [])}
        >
          <option value="">{fitting.length ? 'Choose a device' : 'No device fits this widget'}</option>
          {fitting.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
          {gone.map((id) => (
            <option key={id} value={id}>
              (deleted device)
            </option>
          ))}
        </select>
      </label>
    );
  }
  const toggle = (id: string, on: boolean): void => onChange(on ? [...value.filter((v) => v !== id), id] : value.filter((v) => v !== id));
  /** Moves the chosen device at `at` one place earlier (-1) or later (+1) in the widget's order. */
  const move = (at: number, by: -1 | 1): void => {
    const next = [...value];
    [next[at], next[at + by]] = [next[at + by]!, next[at]!];
    onChange(next);
  };
  return (
    <fieldset class="device-picker" data-testid="widget-devices">
      <legend>Devices</legend>
      {fitting.length === 0 && gone.length === 0 ? <p class="muted">No device fits this widget.</p> : null}
      {[...fitting.map((d) => ({ id: d.id, name: d.name })), ...gone.map((id) => ({ id, name: '(deleted device)' }))].map((d) => {
        const at = value.indexOf(d.id);
        return (
          <label key={d.id} class="inline small">
            <input type="checkbox" checked={at >= 0} onChange={(e) => toggle(d.id, (e.target as HTMLInputElement).checked)} />
            {d.name}
            {at >= 0 ? (
              <>
                <span class="muted"> #{at + 1}</span>
                <button type="button" class="small" aria-label={`Move ${d.name} earlier`} disabled={at === 0} onClick={() => move(at, -1)}>
                  ↑
                </button>
                <button type="button" class="small" aria-label={`Move ${d.name} later`} disabled={at === value.length - 1} onClick={() => move(at, 1)}>
                  ↓
                </button>
              </>
            ) : null}
          </label>
        );
      })}
    </fieldset>
  );
}
