/** A card's title as a person reads it and as the flow editor cuts it into words and blanks. */
import { describe, expect, test } from 'vitest';
import { readTitle, titleParts } from '../../../src/managers/flow/title.js';

describe('a card title', () => {
  test('a condition reads as written, or turned round', () => {
    expect(readTitle('It !{{is|is not}} raining')).toBe('It is raining');
    expect(readTitle('It !{{is|is not}} raining', true)).toBe('It is not raining');
  });

  test("Homey's formatted title is cut into words, blanks and the two readings", () => {
    expect(titleParts('Dim [[device]] to [[dim]]')).toEqual([{ text: 'Dim ' }, { arg: 'device' }, { text: ' to ' }, { arg: 'dim' }]);
    expect(titleParts('[[who]] !{{is|is not}} home')).toEqual([{ arg: 'who' }, { text: ' ' }, { turn: ['is', 'is not'] }, { text: ' home' }]);
    expect(titleParts('Turn on')).toEqual([{ text: 'Turn on' }]);
    // What is not a blank stays words: a lone bracket, an empty blank.
    expect(titleParts('Set [x] to [[ level ]]')).toEqual([{ text: 'Set [x] to ' }, { arg: 'level' }]);
    expect(titleParts('[[]] stays')).toEqual([{ text: '[[]] stays' }]);
    expect(titleParts('')).toEqual([]);
  });
});
