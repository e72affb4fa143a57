// Image files: what format the bytes are, and single pages of a multi-page TIFF.
export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'tiff' | 'gif' | 'bmp' | 'jp2' | 'pnm';

export function sniffImage(bytes: Uint8Array): ImageFormat | undefined {
  const b = (i: number): number => bytes[i] ?? -1;
  if (b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47) return 'png';
  if (b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff) return 'jpeg';
  if (b(0) === 0x52 && b(1) === 0x49 && b(2) === 0x46 && b(3) === 0x46 && b(8) === 0x57 && b(9) === 0x45 && b(10) === 0x42 && b(11) === 0x50) return 'webp';
  if ((b(0) === 0x49 && b(1) === 0x49 && b(2) === 0x2a && b(3) === 0) || (b(0) === 0x4d && b(1) === 0x4d && b(2) === 0 && b(3) === 0x2a)) return 'tiff';
  if ((b(0) === 0x49 && b(1) === 0x49 && b(2) === 0x2b) || (b(0) === 0x4d && b(1) === 0x4d && b(3) === 0x2b)) return 'tiff';
  if (b(0) === 0x47 && b(1) === 0x49 && b(2) === 0x46) return 'gif';
  if (b(0) === 0x42 && b(1) === 0x4d) return 'bmp';
  if (b(4) === 0x6a && b(5) === 0x50 && b(6) === 0x20 && b(7) === 0x20) return 'jp2';
  if (b(0) === 0x50 && b(1) >= 0x31 && b(1) <= 0x36) return 'pnm';
  return undefined;
}

interface TiffLayout {
  little: boolean;
  big: boolean;
  /** Offsets of each page's image file directory. */
  ifds: number[];
}

function tiffLayout(bytes: Uint8Array): TiffLayout {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = bytes[0] === 0x49;
  const big = view.getUint16(2, little) === 43;
  const ifds: number[] = [];
  let offset = big ? Number(view.getBigUint64(8, little)) : view.getUint32(4, little);
  const seen = new Set<number>();
  while (offset > 0 && offset < bytes.length && !seen.has(offset) && ifds.length < 10_000) {
    seen.add(offset);
    ifds.push(offset);
    if (big) {
      const count = Number(view.getBigUint64(offset, little));
      const next = offset + 8 + count * 20;
      offset = next + 8 <= bytes.length ? Number(view.getBigUint64(next, little)) : 0;
    } else {
      const count = view.getUint16(offset, little);
      const next = offset + 2 + count * 12;
      offset = next + 4 <= bytes.length ? view.getUint32(next, little) : 0;
    }
  }
  return { little, big, ifds };
}

export function tiffPageCount(bytes: Uint8Array): number {
  return tiffLayout(bytes).ifds.length;
}

/**
 * Page `index` (0-based) as a TIFF of its own. All offsets in a TIFF are absolute, so the file
 * stays valid when the header points at that page's directory and the directory ends the chain.
 */
export function tiffPage(bytes: Uint8Array, index: number): Uint8Array {
  const { little, big, ifds } = tiffLayout(bytes);
  const ifd = ifds[index];
  if (ifd === undefined) throw new RangeError(`TIFF has no page ${index + 1}`);
  const copy = new Uint8Array(bytes);
  const view = new DataView(copy.buffer);
  if (big) {
    view.setBigUint64(8, BigInt(ifd), little);
    const count = Number(view.getBigUint64(ifd, little));
    view.setBigUint64(ifd + 8 + count * 20, 0n, little);
  } else {
    view.setUint32(4, ifd, little);
    const count = view.getUint16(ifd, little);
    view.setUint32(ifd + 2 + count * 12, 0, little);
  }
  return copy;
}
