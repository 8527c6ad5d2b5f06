/**
 * Puts a tag at the top of an HTML page an app wrote, in time linear in the page's length.
 * App HTML is untrusted and served without a token: a backtracking pattern such as
 * `/<head(\s[^>]*)?>/` took 12 s on 234 KiB of `<head ` (each start position scans to the end),
 * blocking the hub for everyone. Here each `<` is looked at once and the closing `>` is searched
 * for at most once per tag name, so the work is O(length) whatever the page holds.
 */

const SPACE = new Set([' ', '\t', '\n', '\r', '\f']);

/**
 * The index just past the first start tag `<name>` / `<name ...>` (ASCII case-insensitive), or -1.
 * With `anyFollower`, the name may be followed by anything before `>` (`<!doctype html>`).
 *
 * @example endOfStartTag('<html><HEAD lang="en"><title>', 'head') // 22
 */
export function endOfStartTag(html: string, name: string, anyFollower = false): number {
  const lower = name.toLowerCase();
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) {
    if (html.slice(i + 1, i + 1 + lower.length).toLowerCase() !== lower) continue;
    const after = i + 1 + lower.length;
    const next = html[after];
    if (next === '>') return after + 1;
    if (next === undefined || !(anyFollower || SPACE.has(next))) continue;
    // The first `>` after this tag closes it. If there is none, no later tag can close either.
    const close = html.indexOf('>', after);
    return close === -1 ? -1 : close + 1;
  }
  return -1;
}

/** `html` with `tag` right after `<head>`, else after `<!doctype ...>`, else first. */
export function injectFirst(html: string, tag: string): string {
  let at = endOfStartTag(html, 'head');
  if (at === -1) at = endOfStartTag(html, '!doctype', true);
  if (at === -1) return tag + html;
  return html.slice(0, at) + tag + html.slice(at);
}
