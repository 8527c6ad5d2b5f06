/**
 * Moods on the home screen: each a button that puts its room the way the family saved it (a
 * tap), saying which devices did not follow; on a room's page, its moods and "Save as a mood"
 * (how the room is now, under a name) and each mood's Change (mood-editor.tsx). A sign-in that may
 * not see moods shows none.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { MoodView } from '../managers/moods/contract.js';
import { describe } from './api.js';
import { call } from './client.js';
import { Icon } from './icons.js';
import { useLiveDevices } from './live-devices.js';
import { MoodEditor } from './mood-editor.js';
import { Err, useAction, useLiveCollection, useLoad } from './ui.js';

function MoodButton({ mood, room }: { mood: MoodView; room?: string | undefined }): JSX.Element {
  const [said, setSaid] = useState<string | null>(null);
  const a = useAction();
  return (
    <span class="mood">
      <button
        type="button"
        class="home-tile mood-tile"
        data-testid={`mood-${mood.name}`}
        disabled={a.busy}
        onClick={() =>
          void a.run(async () => {
            setSaid(null);
            const r = await call('moods', 'setMood', { params: { id: mood.id } });
            if (r.failed.length > 0) setSaid(`${r.failed.map((f) => f.name).join(', ')} did not follow`);
          })
        }
      >
        <Icon name="moon" size={24} />
        <span class="name">{mood.name}</span>
        {room ? <span class="muted small">{room}</span> : null}
      </button>
      {said ? (
        <span class="error small" role="alert" data-testid="mood-failed">
          {said}
        </span>
      ) : null}
      <Err msg={a.error} />
    </span>
  );
}

/** The editor with the home's devices, loaded (and kept live) only while it is open. */
function OpenEditor({ mood, onDone }: { mood: MoodView; onDone: () => void }): JSX.Element {
  const devices = useLiveDevices(true);
  return <MoodEditor mood={mood} devices={devices.data ?? {}} onDone={onDone} />;
}

/** A room's moods may be changed there. */
function EditMood({ mood }: { mood: MoodView }): JSX.Element {
  const [open, setOpen] = useState(false);
  if (open) return <OpenEditor mood={mood} onDone={() => setOpen(false)} />;
  return (
    <button type="button" class="small" data-testid={`edit-mood-${mood.name}`} aria-label={`Change the mood ${mood.name}`} onClick={() => setOpen(true)}>
      Change
    </button>
  );
}

/** The moods of the home (or of `zone` only, each with its Change), live. */
export function Moods({ zone, zones }: { zone?: string; zones?: Readonly<Record<string, { name: string }>> | undefined }): JSX.Element | null {
  const moods = useLoad(() => call('moods', 'getMoods').catch(() => ({}) as Record<string, MoodView>));
  useLiveCollection('moods', 'mood', moods);
  const list = Object.values(moods.data ?? {})
    .filter((m) => zone === undefined || m.zone === zone)
    .sort((a, b) => a.name.localeCompare(b.name));
  if (list.length === 0) return null;
  return (
    <section class="moods" aria-labelledby="home-moods" data-testid="moods">
      <h2 id="home-moods">Moods</h2>
      <div class="home-tiles">
        {list.map((m) => (
          <MoodButton key={m.id} mood={m} room={zone === undefined ? zones?.[m.zone]?.name : undefined} />
        ))}
      </div>
      {zone === undefined ? null : (
        <div class="inline wrap mood-changes">
          {list.map((m) => (
            <EditMood key={m.id} mood={m} />
          ))}
        </div>
      )}
    </section>
  );
}

/** "Save as a mood": how the room is now, under a name. */
export function SaveMood({ zone }: { zone: string }): JSX.Element {
  const [name, setName] = useState('');
  const [open, setOpen] = useState(false);
  const a = useAction();
  if (!open)
    return (
      <p>
        <button type="button" data-testid="save-mood" onClick={() => setOpen(true)}>
          Save as a mood
        </button>
      </p>
    );
  return (
    <form
      class="inline wrap"
      onSubmit={a.submit(async () => {
        await call('moods', 'createMood', { body: { name, zone } }).catch((e: unknown) => {
          throw new Error(describe(e));
        });
        setName('');
        setOpen(false);
      })}
    >
      <label class="inline">
        The mood's name <input value={name} required maxLength={60} data-testid="mood-name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit" class="primary" disabled={a.busy}>
        Save how the room is now
      </button>
      <Err msg={a.error} />
    </form>
  );
}
