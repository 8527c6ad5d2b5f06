/**
 * The people of the home as the web app holds them: who this browser is (`useMe`) and the family
 * (`usePeople`), both live on the users channel. A sign-in that may not see the family (a
 * guest, a wall tablet's session) gets an empty one; a token that is no one's has a `me` whose
 * presence is null.
 */
import { useEffect } from 'preact/hooks';
import type { UserView } from '../managers/users/contract.js';
import { call } from './client.js';
import { type Loaded, useLiveCollection, useLoad } from './ui.js';

export type { UserView } from '../managers/users/contract.js';

/** Every mounted `useMe`, told when this browser's person changes here (a new name, presence). */
const meListeners = new Set<(u: UserView) => void>();

/** Tells every `useMe` on the page that this browser's person is now `u` (the answer of a change it made). */
export function meChanged(u: UserView): void {
  for (const l of meListeners) l(u);
}

export function useMe(): Loaded<UserView> {
  const me = useLoad(() => call('users', 'getUserMe'));
  useEffect(() => {
    const l = (u: UserView) => me.set(() => u);
    meListeners.add(l);
    return () => void meListeners.delete(l);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return me;
}

export function usePeople(): Loaded<Record<string, UserView>> {
  const people = useLoad(() => call('users', 'getUsers').catch(() => ({}) as Record<string, UserView>));
  useLiveCollection('users', 'user', people);
  return people;
}

/** The first letters of a name, for a person's round badge. */
export const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase())
    .join('');

/**
 * A photo made small for a person's picture: drawn into a 192 px square (cropped to its middle)
 * and encoded as JPEG, well under the hub's 48 KiB.
 */
export async function smallPicture(file: File): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  const side = Math.min(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 192;
  canvas.getContext('2d')?.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, 192, 192);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the picture could not be made'))), 'image/jpeg', 0.85));
}
