/**
 * `Homey.__` and `data-i18n` for app pages: the app's strings in the hub's language (with the
 * English ones as fallback) come with the page, put in by the hub as `window.__HOMEY_PAGE__`.
 */

export interface PageStrings {
  language: string;
  strings: Record<string, unknown>;
  english: Record<string, unknown>;
}

/** The value at a dotted key (`settings.title`), own properties only. */
function lookup(tree: Record<string, unknown>, key: string): unknown {
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** `text` with every `__name__` replaced by `tags.name`. */
function fill(text: string, tags: unknown): string {
  if (typeof tags !== 'object' || tags === null) return text;
  let out = text;
  for (const [name, value] of Object.entries(tags)) out = out.split(`__${name}__`).join(String(value));
  return out;
}

/**
 * Homey's `__`: a dotted key into the app's strings (English when the hub's language lacks it,
 * the key itself when neither has it), or a text per language (`{en, nl}`); `__tag__` filled in.
 *
 * @example translate(page, 'greeting.casual.morning', { name: 'Ada' }) // 'Morning, Ada!'
 */
export function translate(page: PageStrings, key: unknown, tags?: unknown): string {
  if (typeof key === 'object' && key !== null) {
    const texts = key as Record<string, unknown>;
    const text = [texts[page.language], texts.en, ...Object.values(texts)].find((t) => typeof t === 'string');
    return fill(typeof text === 'string' ? text : '', tags);
  }
  const name = String(key);
  const text = [lookup(page.strings, name), lookup(page.english, name)].find((t) => typeof t === 'string');
  return fill(typeof text === 'string' ? text : name, tags);
}

/** Fills every element that has `data-i18n="key"` with that string (as text, never as HTML). */
export function applyDataI18n(page: PageStrings, root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-i18n]')) {
    el.textContent = translate(page, el.dataset.i18n ?? '');
  }
}
