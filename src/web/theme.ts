/**
 * The web app's light/dark theme, which its app pages follow: the web app follows the system's
 * colour scheme (styles.css), so the theme is that media query, and it changes live.
 */
import type { Theme } from './page-protocol.js';

const dark = (): MediaQueryList => window.matchMedia('(prefers-color-scheme: dark)');

export const currentTheme = (): Theme => (dark().matches ? 'dark' : 'light');

/** Calls `f` with the new theme whenever it changes; returns the function that stops it. */
export function watchTheme(f: (theme: Theme) => void): () => void {
  const query = dark();
  const changed = (): void => f(query.matches ? 'dark' : 'light');
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
}
