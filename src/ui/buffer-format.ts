/**
 * Elements of a buffer as text, for the Run view's tables: as hex of the element's width, or
 * typed (unsigned integers in decimal, floats as numbers). Little-endian, as guest memory is.
 * DOM free, so it is tested in Node.
 */
export type ElementType = 'u8' | 'u32' | 'f16' | 'f32' | 'f64';
export type ElementMode = 'hex' | 'typed';

export const ELEMENT_BYTES: Readonly<Record<ElementType, number>> = { u8: 1, u32: 4, f16: 2, f32: 4, f64: 8 };

export function elementCount(bytes: number, type: ElementType): number {
  return Math.floor(bytes / ELEMENT_BYTES[type]);
}

function f16Value(h: number): number {
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  const mag = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1 + m / 1024) * 2 ** (e - 15);
  return h & 0x8000 ? -mag : mag;
}

/** A float as text: -0 spelled out; an f32 as the shortest decimal that reads back as the same f32. */
function floatText(v: number, f32 = false): string {
  if (Object.is(v, -0)) return '-0';
  if (f32 && Number.isFinite(v))
    for (let p = 1; p <= 9; p++) {
      const t = v.toPrecision(p);
      if (Math.fround(Number(t)) === v) return String(Number(t));
    }
  return String(v);
}

/** Element `index` of `bytes` as text. */
export function elementText(bytes: Uint8Array, index: number, type: ElementType, mode: ElementMode): string {
  const size = ELEMENT_BYTES[type];
  const at = index * size;
  if (at + size > bytes.length) return '';
  const dv = new DataView(bytes.buffer, bytes.byteOffset + at, size);
  if (mode === 'hex') {
    if (size === 8) return `0x${dv.getBigUint64(0, true).toString(16).padStart(16, '0')}`;
    const v = size === 4 ? dv.getUint32(0, true) : size === 2 ? dv.getUint16(0, true) : dv.getUint8(0);
    return `0x${v.toString(16).padStart(size * 2, '0')}`;
  }
  switch (type) {
    case 'u8':
      return String(dv.getUint8(0));
    case 'u32':
      return String(dv.getUint32(0, true));
    case 'f16':
      return floatText(f16Value(dv.getUint16(0, true)));
    case 'f32':
      return floatText(dv.getFloat32(0, true), true);
    case 'f64':
      return floatText(dv.getFloat64(0, true));
  }
}
