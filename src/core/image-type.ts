/**
 * An image's type by its first bytes (JPEG, PNG, GIF or WebP), whatever its name or the type it
 * was sent with says: what the hub serves as an image it has checked itself.
 */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export function imageType(b: Uint8Array): ImageType | null {
  const at = (from: number, to: number): string => Buffer.from(b.subarray(from, to)).toString('latin1');
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (Buffer.from(b.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (at(0, 4) === 'GIF8') return 'image/gif';
  if (at(0, 4) === 'RIFF' && at(8, 12) === 'WEBP') return 'image/webp';
  return null;
}
