/**
 * A form that sends one chosen file: a file input, a button enabled once a file is chosen, the
 * sentence of a refusal and of success. What the web app's uploads share (a backup archive, an
 * app folder's archive); each says what it does with the file (`send`).
 */
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { Icon } from './icons.js';
import { Err, Ok, useAction } from './ui.js';

export function FileForm(p: {
  /** The input's label. */
  label: string;
  accept: string;
  /** The sentence when the button is pressed with no file chosen. */
  missing: string;
  /** The button's words while the file is sent and checked. */
  busy: string;
  testIds: { file: string; send: string; done: string };
  /** Sends the file; a sentence it answers is shown as done. */
  send: (file: File) => Promise<string | undefined>;
  /** Shown as done instead, when the outcome is told elsewhere (null: nothing). */
  done?: string | null;
}): JSX.Element {
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const a = useAction();
  return (
    <form
      class="inline wrap"
      onSubmit={a.submit(async () => {
        const file = input.current?.files?.[0];
        if (!file) throw new Error(p.missing);
        const said = await p.send(file);
        if (input.current) input.current.value = '';
        setName('');
        return said;
      })}
    >
      <label class="inline">
        <span>{p.label}</span>
        <input
          ref={input}
          type="file"
          accept={p.accept}
          data-testid={p.testIds.file}
          onChange={(e) => setName((e.target as HTMLInputElement).files?.[0]?.name ?? '')}
        />
      </label>
      <button type="submit" disabled={a.busy || !name} data-testid={p.testIds.send}>
        <Icon name="upload" /> {a.busy ? p.busy : 'Upload'}
      </button>
      <Err msg={a.error} />
      <Ok msg={p.done === undefined ? a.done : p.done} testId={p.testIds.done} />
    </form>
  );
}
