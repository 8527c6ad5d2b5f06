/**
 * One device as a tile: its name, whether it can be reached, its warning, and a control per
 * capability as its facts call for: a switch for a setable true/false (onoff), a slider for a
 * setable number with a range (dim, target_temperature), a picker for a setable choice, a button
 * for a button, and a readout for what can only be read (a temperature, an alarm as a badge).
 * A control sets the capability through the API; the tile shows the value the hub publishes back.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DeviceView } from '../../managers/devices/views.js';
import { describe } from '../api.js';
import { call } from '../client.js';
import { DeviceImages } from '../device-images.js';
import { readout } from '../readout.js';
import { Err, Switch } from '../ui.js';

type Cap = DeviceView['capabilitiesObj'][string];

function Control({ device, cap, set }: { device: DeviceView; cap: Cap; set: (id: string, v: unknown) => void }): JSX.Element {
  const disabled = !device.available;
  const name = `${cap.title} of ${device.name}`;
  if (cap.setable && !cap.getable) {
    return (
      <button type="button" disabled={disabled} onClick={() => set(cap.id, true)} data-testid={`control-${cap.id}`}>
        {cap.title}
      </button>
    );
  }
  if (cap.setable && cap.type === 'boolean') {
    return (
      <Switch checked={cap.value === true} ariaLabel={name} disabled={disabled} testId={`control-${cap.id}`} onChange={(on) => set(cap.id, on)}>
        {/* onoff's title is "Turned on", which read as the state beside a switch that was off. */}
        <span data-testid={`state-${cap.id}`}>{cap.id === 'onoff' ? (cap.value === true ? 'On' : 'Off') : cap.title}</span>
      </Switch>
    );
  }
  if (cap.setable && cap.type === 'number' && cap.min !== null && cap.max !== null) {
    return (
      <label class="slider">
        <span>
          {cap.title} <output>{readout(cap)}</output>
        </span>
        <input
          type="range"
          aria-label={name}
          min={cap.min}
          max={cap.max}
          step={cap.step ?? (cap.max - cap.min) / 100}
          value={typeof cap.value === 'number' ? cap.value : cap.min}
          disabled={disabled}
          data-testid={`control-${cap.id}`}
          onChange={(e) => set(cap.id, Number((e.target as HTMLInputElement).value))}
        />
      </label>
    );
  }
  if (cap.setable && cap.type === 'enum' && cap.values) {
    return (
      <label class="picker">
        <span>{cap.title}</span>
        <select
          aria-label={name}
          value={String(cap.value ?? '')}
          disabled={disabled}
          data-testid={`control-${cap.id}`}
          onChange={(e) => set(cap.id, (e.target as HTMLSelectElement).value)}
        >
          {cap.value === null ? <option value="">–</option> : null}
          {cap.values.map((v) => (
            <option key={v.id} value={v.id}>
              {v.title}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (cap.id.startsWith('alarm_') && cap.type === 'boolean') {
    return (
      <span class={`badge ${cap.value ? 'bad' : 'idle'}`} data-testid={`readout-${cap.id}`}>
        {cap.title}: {cap.value ? 'alarm' : 'ok'}
      </span>
    );
  }
  return (
    <span class="readout" data-testid={`readout-${cap.id}`}>
      <span class="muted">{cap.title}</span> <b>{readout(cap)}</b>
    </span>
  );
}

export function DeviceTile({ device, menu }: { device: DeviceView; menu: JSX.Element }): JSX.Element {
  const [error, setError] = useState<string | null>(null);
  // What the person just set, shown until the hub answers: a tile redrawn meanwhile (another
  // capability's reading arriving) would otherwise flip the switch back to the old value.
  const [pending, setPending] = useState<Record<string, unknown>>({});
  const settle = (capabilityId: string): void =>
    setPending((p) => {
      const { [capabilityId]: _, ...rest } = p;
      return rest;
    });
  const set = (capabilityId: string, value: unknown): void => {
    setError(null);
    setPending((p) => ({ ...p, [capabilityId]: value }));
    call('devices', 'setCapabilityValue', { params: { deviceId: device.id, capabilityId }, body: { value: value as boolean | number | string } }).then(
      // The hub's event with the new value may come just after its answer: it settles the value
      // (the effect below), and this at the latest.
      () => setTimeout(() => settle(capabilityId), 3000),
      (e: unknown) => {
        setError(describe(e));
        settle(capabilityId);
      },
    );
  };
  useEffect(() => {
    for (const [id, value] of Object.entries(pending)) if (device.capabilitiesObj[id]?.value === value) settle(id);
  }, [device, pending]);
  const caps = device.capabilities
    .map((id) => device.capabilitiesObj[id])
    .filter((c): c is Cap => c !== undefined)
    .map((c) => (c.id in pending ? { ...c, value: pending[c.id] as Cap['value'] } : c));
  return (
    <article class={`tile device${device.available ? '' : ' unavailable'}`} data-testid={`device-${device.name}`} aria-label={device.name}>
      <header>
        <h3>{device.name}</h3>
        {menu}
      </header>
      {device.available ? null : (
        <p class="badge bad" role="status" data-testid="device-unavailable">
          unavailable{device.unavailableMessage ? `: ${device.unavailableMessage}` : ''}
        </p>
      )}
      {device.warningMessage ? (
        <p class="badge warn" data-testid="device-warning">
          {device.warningMessage}
        </p>
      ) : null}
      <DeviceImages device={device} />
      <div class="controls">
        {caps.map((c) => (
          <Control key={c.id} device={device} cap={c} set={set} />
        ))}
      </div>
      <Err msg={error} />
    </article>
  );
}
