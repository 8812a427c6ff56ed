import { hexOfUint32 } from './hex.js';

/**
 * A fast 53-bit non-cryptographic hash of a string (cyrb53), as 14 hex digits. Used to fingerprint
 * model requests so a replay can tell whether it sent the same request; not for security.
 */
export function hashString(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // (2097151 & h2) · 2³² + (h1 >>> 0) in 14 hex digits: the top 21 bits in 6, the low 32 in 8.
  return hexOfUint32(2097151 & h2).slice(2) + hexOfUint32(h1 >>> 0);
}
