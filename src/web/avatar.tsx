/**
 * A person's round badge: their picture when they have one (fetched with the token: an <img>
 * cannot send it), else their initials.
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { imageBlob } from './api.js';
import { initials } from './people.js';

export function Avatar({ name, avatar, class: cls = '' }: { name: string; avatar: string | null; class?: string }): JSX.Element {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!avatar) return setUrl(null);
    let live = true;
    let made: string | null = null;
    imageBlob(avatar).then(
      (u) => {
        made = u;
        if (live) setUrl(u);
        else URL.revokeObjectURL(u);
      },
      () => undefined,
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [avatar]);
  return (
    <span class={`avatar ${cls}`} aria-hidden="true">
      {url ? <img src={url} alt="" /> : initials(name)}
    </span>
  );
}
