/** The hub's version, from package.json (one directory above both src/ and dist/). */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
export const VERSION: string = pkg.version;

/**
 * The Homey version whose SDK and Web API hearth follows: an app's `this.homey.version`, and
 * `X-Homey-Version` for Homey's clients. Widgets came with 12.3.0.
 */
export const HOMEY_VERSION = '12.3.0';
