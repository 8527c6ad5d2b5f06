/**
 * `this.homey.i18n` and `this.homey.__`: the hub's language and units, and the app's strings
 * (locales/<language>.json) in that language with English as the fallback. Synchronous: the hub
 * sends them at start and again when the language changes.
 */
import type { HomeyContext } from '../context.cjs';
import { Manager } from '../simple-class.cjs';

type Strings = Record<string, unknown>;

function lookup(strings: Strings, key: string): string | undefined {
  let node: unknown = strings;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Strings)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export class ManagerI18n extends Manager {
  static ID = 'i18n';
  private language: string;
  private units: 'metric' | 'imperial';
  private strings: Strings;
  private english: Strings;

  constructor(ctx: HomeyContext) {
    super();
    ({ language: this.language, units: this.units, strings: this.strings, english: this.english } = ctx.state);
  }

  /**
   * A string from locales/<language>.json by its dotted key (English when the language lacks it,
   * the key itself when neither has it), or the hub's language out of `{en: ..., nl: ...}`;
   * `__name__` in the text is replaced by `tags.name`.
   */
  __(key: string | object, tags?: object): string {
    let text: string;
    if (typeof key === 'object' && key !== null) {
      const texts = key as Record<string, unknown>;
      const found = texts[this.language] ?? texts.en ?? Object.values(texts)[0];
      text = typeof found === 'string' ? found : '';
    } else {
      const k = String(key);
      text = lookup(this.strings, k) ?? lookup(this.english, k) ?? k;
    }
    for (const [name, value] of Object.entries(tags ?? {})) text = text.split(`__${name}__`).join(String(value));
    return text;
  }

  getLanguage(): string {
    return this.language;
  }

  getUnits(): string {
    return this.units;
  }

  getStrings(): unknown {
    return this.strings;
  }

  /** The hub's language or units changed. */
  changed(update: { language: string; units: 'metric' | 'imperial'; strings: Strings; english: Strings }): void {
    ({ language: this.language, units: this.units, strings: this.strings, english: this.english } = update);
  }
}
