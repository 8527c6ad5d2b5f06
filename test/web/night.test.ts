/** A wall tablet's night hours, from its address (src/web/night.ts): over midnight or within a day; none when unreadable. */
import { expect, it } from 'vitest';
import { isNight, nightOf } from '../../src/web/night.js';

const at = (hh: number, mm = 0): Date => new Date(2026, 10, 28, hh, mm);

it('dims from its start until its end, over midnight or within a day', () => {
  const late = nightOf('#/wall?night=22:00-07:00');
  expect(late).toEqual({ from: 22 * 60, until: 7 * 60 });
  expect([at(21, 59), at(22), at(3), at(6, 59), at(7), at(12)].map((d) => isNight(late, d))).toEqual([false, true, true, true, false, false]);
  const nap = nightOf('#/wall?night=13:30-15:00');
  expect([at(13, 29), at(13, 30), at(14, 59), at(15)].map((d) => isNight(nap, d))).toEqual([false, true, true, false]);
});

it('never dims a wall whose address names no night, or one it cannot read', () => {
  for (const hash of ['#/wall', '#/wall?night=', '#/wall?night=25:00-07:00', '#/wall?night=22:00', '#/wall?night=07:00-07:00', '#/wall?night=7:00-8:00'])
    expect(nightOf(hash), hash).toBeNull();
  expect(isNight(null, at(3))).toBe(false);
});
