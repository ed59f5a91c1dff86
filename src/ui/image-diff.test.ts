/**
 * Expected ranges as pictures (image-diff.ts): the bundled image-store capture's range is found
 * as the image its T# lays out, decoded through the host's texel reader, and a changed texel
 * (and a changed padding byte) are counted where they are.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readCapture } from '../host/capture/container.ts';
import { isUnavailable, parseAddress } from '../host/capture/manifest.ts';
import { imagesInRange } from './image-diff.ts';
import { bufferComparisons } from './session.ts';

async function imageStore() {
  const capture = await readCapture(new Uint8Array(readFileSync('public/captures/gfx1030-image-store.gcncap')));
  const exp = capture.manifest.expected;
  if (isUnavailable(exp)) throw new Error('the capture has no expectation');
  const range = exp.memory[0]!;
  const address = Number(parseAddress(range.address));
  return { capture, address, size: range.size, expected: capture.blob(range.blob!) };
}

describe('images in expected ranges', () => {
  it('finds the T# that lays out the written range, and no image in a range it does not cover', async () => {
    const { capture, address, size } = await imageStore();
    const found = imagesInRange(capture.manifest, address, size);
    expect(found).toHaveLength(1);
    expect(found[0]!.descriptor.width).toBe(32);
    expect(found[0]!.layout.base).toBe(address);
    // A range one byte short of the surface holds no whole image.
    expect(imagesInRange(capture.manifest, address, found[0]!.layout.size - 1)).toHaveLength(0);
  });

  it('shows expected and got as pictures, and counts the differing texels and the padding apart', async () => {
    const { capture, address, expected } = await imageStore();
    const same = bufferComparisons(capture, () => expected.slice())[0]!;
    const image = same.images![0]!;
    expect(image).toMatchObject({ width: 32, height: 32, format: '8_8_8_8_UNORM', differingTexels: 0 });
    // Texel (31, 2): r = 255, g = round(2 * 255 / 31) = 16, b = 0, a = 255; rows are 32 texels in the picture.
    expect([...image.expected!.rgba.subarray((2 * 32 + 31) * 4, (2 * 32 + 32) * 4)]).toEqual([255, 16, 0, 255]);
    expect(image.difference!.rgba.subarray(0, 4)).toEqual(new Uint8Array([0, 0, 0, 255]));

    const got = expected.slice();
    got[5 * 256 + 3 * 4] ^= 1; // texel (3, 5): rows are 256 bytes apart in memory
    got[7 * 256 + 200] = 9; // row 7's padding, past the 32 texels
    const changed = bufferComparisons(capture, (a) => (a === address ? got : null))[0]!;
    const c = changed.images![0]!;
    expect(changed.differing).toHaveLength(2);
    expect(c.differingTexels).toBe(1);
    expect(c.outside).toBe(1);
    expect([...c.difference!.rgba.subarray((5 * 32 + 3) * 4, (5 * 32 + 4) * 4)]).toEqual([255, 0, 255, 255]);
    expect(c.got!.rgba[(5 * 32 + 3) * 4]).toBe(c.expected!.rgba[(5 * 32 + 3) * 4] ^ 1);
  });
});
