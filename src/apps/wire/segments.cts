/**
 * Names that cannot become one segment of a URL path: `.` and `..` (also percent-encoded, and
 * with a backslash, which URL parsers read as `/`) are removed or climbed by every URL parser,
 * so a name that is one addresses another resource once it is in a path. `encodeURIComponent`
 * keeps dots: a settings key `..` built into `/app/<id>/setting/..` was `DELETE /app/<id>/`
 * (issue 22, finding 10). Checked wherever a name becomes a path or a path is checked, after
 * decoding, never before. CommonJS and free of imports: the SDK, the hub and the web app share it.
 */

/** True for a name that, put into a path as one segment, would not stay one. */
export function isDotName(name: string): boolean {
  return name === '.' || name === '..';
}

/** True when a path (query and fragment ignored) has a dot segment, plain or percent-encoded, or a backslash. */
export function hasDotSegment(path: string): boolean {
  const end = path.search(/[?#]/);
  const pathname = end === -1 ? path : path.slice(0, end);
  if (pathname.includes('\\')) return true;
  return pathname.split('/').some((segment) => isDotName(segment.replace(/%2e/gi, '.')));
}
