/**
 * Alarms (`#/alarms`): each wake-up alarm with its time, its days in words, an on/off switch and
 * when it goes off next; a new one by its name, time and days (none: once); delete with a tap.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { AlarmView, Repetition } from '../../managers/alarms/contract.js';
import { DAYS } from '../../managers/alarms/days.js';
import { call } from '../client.js';
import { Icon } from '../icons.js';
import { ActionButton, Card, Err, formatTime, Switch, useAction, useLiveCollection, useLoad } from '../ui.js';

const SHORT: Record<(typeof DAYS)[number], string> = {
  monday: 'Mo',
  tuesday: 'Tu',
  wednesday: 'We',
  thursday: 'Th',
  friday: 'Fr',
  saturday: 'Sa',
  sunday: 'Su',
};
const NONE: Repetition = { monday: false, tuesday: false, wednesday: false, thursday: false, friday: false, saturday: false, sunday: false };

/** The days in words: "every day", "weekdays", "once", or the days named. */
export function daysInWords(r: Repetition): string {
  const on = DAYS.filter((d) => r[d]);
  if (on.length === 0) return 'once';
  if (on.length === 7) return 'every day';
  if (on.length === 5 && !r.saturday && !r.sunday) return 'weekdays';
  if (on.length === 2 && r.saturday && r.sunday) return 'weekends';
  return on.map((d) => SHORT[d]).join(' ');
}

function Days({ value, onChange }: { value: Repetition; onChange: (r: Repetition) => void }): JSX.Element {
  return (
    <fieldset class="days" data-testid="alarm-days">
      <legend>Days (none: once)</legend>
      {DAYS.map((d) => (
        <label key={d} class="check">
          <input type="checkbox" checked={value[d]} onChange={(e) => onChange({ ...value, [d]: (e.target as HTMLInputElement).checked })} />
          <span>{SHORT[d]}</span>
        </label>
      ))}
    </fieldset>
  );
}

function Alarm({ alarm }: { alarm: AlarmView }): JSX.Element {
  const a = useAction();
  return (
    <li class="inline wrap" data-testid={`alarm-${alarm.name}`}>
      <Icon name="clock" /> <b class="alarm-time">{alarm.time}</b> {alarm.name} <span class="muted">{daysInWords(alarm.repetition)}</span>
      <Switch
        checked={alarm.enabled}
        ariaLabel={`${alarm.name} on`}
        onChange={(on) => void a.run(() => call('alarms', 'updateAlarm', { params: { id: alarm.id }, body: { enabled: on } }))}
      >
        On
      </Switch>
      <span class="muted small">{alarm.nextOccurrence ? `next: ${formatTime(alarm.nextOccurrence)}` : 'off'}</span>
      <ActionButton label="Delete" kind="danger" ariaLabel={`Delete ${alarm.name}`} onRun={() => call('alarms', 'deleteAlarm', { params: { id: alarm.id } })} />
      <Err msg={a.error} />
    </li>
  );
}

export function AlarmsPage(): JSX.Element {
  const alarms = useLoad(() => call('alarms', 'getAlarms'));
  useLiveCollection('alarms', 'alarm', alarms);
  const [name, setName] = useState('Wake up');
  const [time, setTime] = useState('07:00');
  const [days, setDays] = useState<Repetition>({ ...NONE, monday: true, tuesday: true, wednesday: true, thursday: true, friday: true });
  const a = useAction();
  const list = Object.values(alarms.data ?? {}).sort((x, y) => x.time.localeCompare(y.time));
  return (
    <div data-testid="alarms">
      <h1>Alarms</h1>
      <Err msg={alarms.error} />
      <Card title="Wake-up alarms">
        {list.length === 0 && alarms.data ? <p class="muted">No alarms yet. An alarm runs the flows on "An alarm goes off".</p> : null}
        <ul class="plain alarm-list">
          {list.map((x) => (
            <Alarm key={x.id} alarm={x} />
          ))}
        </ul>
      </Card>
      <Card title="New alarm">
        <form class="inline wrap" onSubmit={a.submit(() => call('alarms', 'createAlarm', { body: { name, time, repetition: days } }))}>
          <label class="inline">
            Name <input value={name} required maxLength={60} data-testid="alarm-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          <label class="inline">
            Time <input type="time" value={time} required data-testid="alarm-time" onInput={(e) => setTime((e.target as HTMLInputElement).value)} />
          </label>
          <Days value={days} onChange={setDays} />
          <button type="submit" class="primary" disabled={a.busy} data-testid="add-alarm">
            <Icon name="plus" /> Add
          </button>
        </form>
        <Err msg={a.error} />
      </Card>
    </div>
  );
}
