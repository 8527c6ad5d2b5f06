/** Languages the hub speaks (BCP-47 primary subtags), with their names in that language. */
export const LANGUAGES = {
  en: 'English',
  nl: 'Nederlands',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  es: 'Español',
  sv: 'Svenska',
  no: 'Norsk',
  da: 'Dansk',
  pl: 'Polski',
  ru: 'Русский',
  ko: '한국어',
} as const;

export type Language = keyof typeof LANGUAGES;
export const LANGUAGE_CODES = Object.keys(LANGUAGES) as Language[];
export const isLanguage = (code: string): code is Language => Object.hasOwn(LANGUAGES, code);
