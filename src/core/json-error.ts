/**
 * Where in a file JSON.parse gave up, as a person looks for it: line and column. V8 says a
 * character position for some mistakes ("in JSON at position 1234") and none for others
 * ("Unexpected token '}', ... is not valid JSON"), so the place is found by reading the text
 * again with a small scanner that stops where JSON stops being JSON; V8's words say what it
 * expected.
 */

/** Line and column (both from 1) of character `position` of `text`. */
export function lineColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(position, text.length)));
  return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
}

/** The position where `text` stops being JSON, or null when it is JSON. Iterative: no depth limit to hit. */
export function jsonErrorPosition(text: string): number | null {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/;
  const string = (): boolean => {
    if (text[i] !== '"') return false;
    for (i++; i < text.length; i++) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return true;
      }
      if (c < ' ') return false;
      if (c === '\\') {
        const e = text[++i];
        if (e === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5)) : !e || !'"\\/bfnrt'.includes(e)) return false;
        if (e === 'u') i += 4;
      }
    }
    return false;
  };
  // Each open container: what it is, and whether a value was read since its last comma.
  const stack: Array<{ kind: '{' | '['; afterValue: boolean; empty: boolean }> = [];
  const value = (): boolean => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push({ kind: c, afterValue: false, empty: true });
      i++;
      return true;
    }
    if (c === '"') return string();
    const m = literal.exec(text.slice(i, i + 400));
    if (!m) return false;
    i += m[0].length;
    return true;
  };
  if (!value()) return i;
  for (;;) {
    ws();
    const top = stack.at(-1);
    if (!top) return i < text.length ? i : null;
    const c = text[i];
    if (c === (top.kind === '{' ? '}' : ']') && (top.afterValue || top.empty)) {
      stack.pop();
      i++;
      const parent = stack.at(-1);
      if (parent) parent.afterValue = true;
      continue;
    }
    if (top.afterValue) {
      if (c !== ',') return i;
      i++;
      top.afterValue = false;
    }
    ws();
    if (top.kind === '{') {
      if (!string()) return i;
      ws();
      if (text[i] !== ':') return i;
      i++;
    }
    const opened = stack.length;
    if (!value()) return i;
    top.empty = false;
    if (stack.length === opened) top.afterValue = true;
  }
}

/** "line 4, column 3: Expected ',' or '}' after property value" for a JSON.parse error of `text`. */
export function jsonErrorAt(text: string, err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err))
    .replace(/,? (?:in JSON )?at position \d+.*$/, '')
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
  const position = jsonErrorPosition(text);
  if (position === null) return message;
  const { line, column } = lineColumn(text, position);
  return `line ${line}, column ${column}: ${message}`;
}
