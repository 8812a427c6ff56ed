/** The two hex digits of every byte, so ids and hashes are built without Number#toString(16). */
const hexOfByte: readonly string[] = Array.from({ length: 256 }, (_, byte) =>
  byte.toString(16).padStart(2, '0'),
);

/** The 8 lower-case hex digits of an unsigned 32-bit integer. */
export function hexOfUint32(value: number): string {
  return (
    (hexOfByte[(value >>> 24) & 0xff] as string) +
    (hexOfByte[(value >>> 16) & 0xff] as string) +
    (hexOfByte[(value >>> 8) & 0xff] as string) +
    (hexOfByte[value & 0xff] as string)
  );
}
