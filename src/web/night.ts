/**
 * A wall tablet's night: the hours its owner chose when making its sign-in link, carried in its
 * address (`#/wall?night=22:00-07:00`, so each tablet keeps its own and nothing is stored on the
 * hub), and whether a moment falls in them. Free of the browser's globals, so tests read it as the
 * page does.
 */

/** Minutes after midnight of the night's start and end; the night may run past midnight. */
export interface Night {
  readonly from: number;
  readonly until: number;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const minutes = (t: string): number | null => {
  const m = HHMM.exec(t);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};

/** The night of a wall's address (`...?night=22:00-07:00`), or null when it has none (never dims). */
export function nightOf(hash: string): Night | null {
  const given = /[?&]night=([^&]*)/.exec(hash)?.[1];
  const [a, b] = (given ? decodeURIComponent(given) : '').split('-');
  const from = a === undefined ? null : minutes(a);
  const until = b === undefined ? null : minutes(b);
  return from === null || until === null || from === until ? null : { from, until };
}

/** Whether the local time `at` falls in the night. */
export function isNight(night: Night | null, at: Date): boolean {
  if (!night) return false;
  const now = at.getHours() * 60 + at.getMinutes();
  return night.from < night.until ? now >= night.from && now < night.until : now >= night.from || now < night.until;
}
