/**
 * An image sent with a chat message (a DocVQA page): its media type and its bytes in base64. Only
 * providers that declare `images` send it; the others refuse the request. Logs and caches never keep the
 * bytes, only `imageDigest`.
 */
import { sha256Hex } from './hash.js';

export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export interface ChatImage {
  mediaType: ImageMediaType;
  /** The image file's bytes, base64. */
  data: string;
}

/** What identifies an image in a log or a key: its type and the hash of its bytes. */
export const imageDigest = (image: ChatImage): string => `${image.mediaType};sha256:${sha256Hex(image.data)}`;

/** The media type of an image file by its first bytes (the file name may lie), or null. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | null {
  const starts = (...sig: number[]): boolean => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45) return 'image/webp';
  return null;
}

/**
 * Messages as keys and logs show them: each image as its digest instead of its bytes. A message
 * without images is returned as it is, so its key stays what it always was.
 */
export function withImageDigests<M extends { images?: ChatImage[] }>(
  messages: readonly M[],
): Array<Omit<M, 'images'> & { images?: string[] }> {
  return messages.map((m) => {
    if (m.images === undefined || m.images.length === 0) {
      const { images: _none, ...rest } = m;
      return rest;
    }
    return { ...m, images: m.images.map(imageDigest) };
  });
}
