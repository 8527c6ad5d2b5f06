/**
 * Where a JSON text goes wrong, found by hearth's own scanner: the same place V8 names wherever V8
 * names one, and a place where V8 names none; valid JSON has none.
 */
import { describe, expect, it } from 'vitest';
import { jsonErrorAt, jsonErrorPosition } from '../../src/core/json-error.js';
import { nearest } from '../../src/core/nearest.js';

const BROKEN = [
  '{\n  "a": 1\n  "b": 2\n}',
  '{"a":',
  '{"a":[1,2,]}',
  '{"a":1}}',
  '',
  '{"a" 1}',
  '{"a":"\u0001"}',
  '{"a":1,}',
  '{,}',
  '[,1]',
  '{"a":tru}',
  '"\\x"',
  '[1 2]',
  '{"a":{"b":[}]}',
];
const VALID = ['{}', '[]', ' 5 ', '"s\\u00e9\\n"', '[1,{"x":{"y":[true,null,-1.5e3,"\\"q"]}}]', '{"a":{"b":{"c":[[[]]]}}}'];

describe('where JSON goes wrong', () => {
  it('is the position V8 names, for every mistake V8 names one for', () => {
    let named = 0;
    for (const text of BROKEN) {
      let message = '';
      try {
        JSON.parse(text);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, text).not.toBe('');
      const v8 = /at position (\d+)/.exec(message);
      const ours = jsonErrorPosition(text);
      expect(ours, text).not.toBeNull();
      if (v8) {
        named++;
        expect(ours, text).toBe(Number(v8[1]));
      }
    }
    expect(named).toBeGreaterThan(5);
    for (const text of VALID) expect(jsonErrorPosition(text), text).toBeNull();
  });

  it('is said by line and column with V8 words, without its position or snippet', () => {
    const text = '{\n  "a": [1,\n    2,]\n}';
    let err: unknown;
    try {
      JSON.parse(text);
    } catch (e) {
      err = e;
    }
    expect(jsonErrorAt(text, err)).toBe("line 3, column 7: Unexpected token ']'");
  });

  it('names the nearest known word for a typo, and none for a word that is not near any', () => {
    expect(nearest('permisions', ['permissions', 'platforms'])).toBe('permissions');
    expect(nearest('--prot', ['--port', '--host'])).toBe('--port');
    expect(nearest('drviers', ['drivers', 'widgets'])).toBe('drivers');
    expect(nearest('somethingElse', ['permissions', 'drivers'])).toBeNull();
  });
});
