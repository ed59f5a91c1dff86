/**
 * D983's tests on Dawn for Node (SwiftShader here), by the names the seed gives them, each in
 * wave32 and wave64: images a dispatch selects from a table at run time, found in the module by
 * their descriptors through the directory and read from the texel store (D017). Every case
 * checks the capture's expectation (the interpreter's) against the texels the kernel states
 * (d983-kernels.ts), then the GPU against the capture. This file runs the portable form (the
 * texel store); d983-resource-table.gpu.test.ts runs the same tests in the resource-table form (D026).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCapture } from '../../src/host/capture/index.ts';
import type { Capture } from '../../src/host/capture/index.ts';
import { decodeSamplerDescriptor } from '../../src/host/descriptors/index.ts';
import { findInDirectory, STORE_HEADER, STORE_HEADER_WORDS } from '../../src/host/directory/index.ts';
import { getNodeGpu, type NodeGpu } from '../../src/host/gpu-node.ts';
import { Gen } from '../../src/isa/gen.ts';
import { GuestMemory } from '../../src/interp/memory.ts';
import { loadVectorBridge, type VectorBridge } from '../../src/interp/vector-bridge.ts';
import {
  readEscapes,
  replayTranslated,
  runTranslation,
  SelectedImageEscapeError,
  translateCapture,
} from '../../src/translator/gpu-replay.ts';
import type { Translation } from '../../src/translator/translate.ts';
import {
  COMPARE,
  comparesByEveryFunction,
  everyImageATableNames,
  FORM_A_WORDS,
  FORM_B_WORDS,
  samplerBuiltFromConstants,
  selectedImages,
  SIX_IMAGE,
  type D983Case,
} from './d983-kernels.ts';
import { rebuiltSelected } from './d983-variants.ts';
import { d983Capture, D983_LANES, expectedOut, imageWords, SIDE, texelValue } from './d983-spec.ts';
import { CAPTURE_DIR, checkStated, lightShadowsSpec } from '../../e2e/fixtures/d983-captures.ts';

let gpu: NodeGpu;
let vector: VectorBridge | undefined;
beforeAll(async () => {
  gpu = await getNodeGpu();
  vector = await loadVectorBridge();
});
afterAll(() => gpu?.device.destroy());

const WAVES = [false, true] as const;
const waveName = (w64: boolean): string => (w64 ? 'wave64' : 'wave32');
const f32 = (v: number): number => Math.fround(v);

/** The capture, after checking that its expectation is every lane's stated result (the test can fail). */
async function stated(c: D983Case): Promise<Capture> {
  const capture = await d983Capture(c.kernel);
  const out = expectedOut(capture, c.kernel.outWords);
  for (let g = 0; g < D983_LANES; g++)
    expect(Array.from(out.subarray(g * c.kernel.outWords, (g + 1) * c.kernel.outWords)), `lane ${g}`).toEqual(
      c.expected(g).map(f32),
    );
  return capture;
}

function translated(capture: Capture): { translation: Translation; layout: Parameters<typeof runTranslation>[2] } {
  const t = translateCapture(capture, gpu.device, { vector, selectedImageForm: 'texel-store' });
  if ('kind' in t) throw new Error(`not translated: ${t.reason}`);
  return t;
}

async function matches(capture: Capture, t = translated(capture)): Promise<void> {
  const o = await replayTranslated(capture, gpu.device, t);
  if (o.kind !== 'match') throw new Error(JSON.stringify(o).slice(0, 1500));
  expect(o.kind).toBe('match');
}

describe('D983 on the GPU (Dawn for Node)', () => {
  for (const w64 of WAVES) {
    it(`selected_images ${waveName(w64)}`, { timeout: 300_000 }, async () => {
      const c = selectedImages(w64);
      const capture = await stated(c);
      const t = translated(capture);
      const sel = t.translation.selected!;
      // One table, its four images bound; the load and the sample are two slots (no sampler, the point S#).
      expect(sel.tables).toHaveLength(1);
      expect(sel.report.map((r) => r.imagesBound)).toEqual([4, 4]);
      await matches(capture, t);

      // The places reordered: each lane still reads its own image, found by its words.
      const memory = GuestMemory.fromCapture(capture);
      const reordered = { ...t.translation, selected: rebuiltSelected(sel, memory, { order: [2, 0, 3, 1] }) };
      await matches(capture, { ...t, translation: reordered });

      // Record 2 missing from the directory: its lanes (g & 3 == 2, 16 of them, at both accesses) escape.
      const missing = { ...t.translation, selected: rebuiltSelected(sel, memory, { omit: 2 }) };
      const run = await runTranslation(gpu.device, missing, t.layout);
      const escapes = readEscapes(run.escapes!);
      expect(escapes.count).toBe(2 * (D983_LANES / 4));
      for (const e of escapes.first) {
        expect(e.words).toEqual(Array.from(imageWords(2)));
        const g = e.group[0] * (w64 ? 64 : 32) + e.invocation;
        expect(g & 3).toBe(2);
      }
      const o = await replayTranslated(capture, gpu.device, { ...t, translation: missing });
      expect(o.kind).toBe('refused');
      if (o.kind !== 'refused') return;
      expect(o.error).toBeInstanceOf(SelectedImageEscapeError);
      expect(o.reason).toMatch(/^32 lane accesses selected an image its slot's directory does not hold/);
    });

    it(
      `every_image_a_table_names_is_bound_and_found_by_its_descriptor ${waveName(w64)}`,
      { timeout: 300_000 },
      async () => {
        const c = everyImageATableNames(w64);
        const capture = await stated(c);
        const t = translated(capture);
        const sel = t.translation.selected!;
        const [report] = sel.report;
        expect(report).toMatchObject({ recordsRead: 6, imagesBound: 4, emptyRecords: 1 });
        expect(Object.values(report!.leftOut).every((n) => n === 0)).toBe(true);
        const table = sel.tables[0]!;
        const packed = sel.directory.subarray(table.directoryBase);
        // Each record's words name, in the directory, the place whose texels are that record's image.
        const places = SIX_IMAGE.map((image, r) => {
          const words = image === undefined ? new Array<number>(8).fill(0) : Array.from(imageWords(image));
          expect(Array.from(table.table.recordWords.subarray(r * 8, r * 8 + 8))).toEqual(words);
          const hit = findInDirectory(packed, words, false);
          expect(hit.found, `record ${r}`).toBe(image !== undefined);
          if (image === undefined) return undefined;
          const h = hit.place * STORE_HEADER_WORDS;
          const store = sel.store.words;
          expect([store[h + STORE_HEADER.width], store[h + STORE_HEADER.height]]).toEqual([SIDE, SIDE]);
          const at = store[h + STORE_HEADER.offset]!;
          const texels = new Float32Array(store.slice(at, at + 4 * SIDE * SIDE).buffer);
          for (let y = 0; y < SIDE; y++)
            for (let x = 0; x < SIDE; x++) expect(texels[4 * (y * SIDE + x)]).toBe(f32(texelValue(image, x, y)));
          // Not found in the other shape.
          expect(findInDirectory(packed, words, true).found).toBe(false);
          return hit.place;
        });
        // The repeat shares record 1's place; four distinct places.
        expect(places[5]).toBe(places[1]);
        expect(new Set(places.filter((p) => p !== undefined)).size).toBe(4);
        await matches(capture, t);
      },
    );

    it(
      `each_lane_compares_the_image_it_selected_by_every_function ${waveName(w64)}`,
      { timeout: 300_000 },
      async () => {
        const c = comparesByEveryFunction(w64);
        const capture = await stated(c);
        // The stated results are not trivial: every function but never/always differs across lanes.
        for (let f = 1; f < 7; f++)
          expect(new Set(Array.from({ length: D983_LANES }, (_, g) => c.expected(g)[f])).size).toBeGreaterThan(1);
        const t = translated(capture);
        const sel = t.translation.selected!;
        // Sixteen slots, one a sampler; the host reads each slot's function and filter from its traced words.
        expect(sel.slots).toHaveLength(16);
        sel.slots.forEach((s, k) => {
          expect(s.sampler?.traced).toBe(true);
          const d = decodeSamplerDescriptor(Gen.GFX10_3, s.sampler!.words);
          expect(d.depth_compare).toBe(
            ['never', 'less', 'equal', 'less-equal', 'greater', 'not-equal', 'greater-equal', 'always'][k % 8],
          );
          expect(d.mag_filter).toBe(k < 8 ? 'point' : 'bilinear');
          expect(d.min_filter).toBe(k < 8 ? 'point' : 'bilinear');
        });
        expect(COMPARE).toHaveLength(8);
        await matches(capture, t);
      },
    );

    it(`a_sampler_built_from_constants_is_traced ${waveName(w64)}`, { timeout: 300_000 }, async () => {
      const c = samplerBuiltFromConstants(w64);
      const capture = await stated(c);
      const t = translated(capture);
      const sel = t.translation.selected!;
      // Both forms trace to their words: function 3 (less-equal), filtered.
      expect(sel.slots.map((s) => s.sampler)).toEqual([
        { words: FORM_A_WORDS, traced: true },
        { words: FORM_B_WORDS, traced: true },
      ]);
      for (const s of sel.slots) {
        const d = decodeSamplerDescriptor(Gen.GFX10_3, s.sampler!.words);
        expect([d.depth_compare, d.mag_filter, d.min_filter]).toEqual(['less-equal', 'bilinear', 'bilinear']);
      }
      await matches(capture, t);
    });
  }

  // The public capture (e2e/fixtures/d983-captures.ts): what its translation binds for the cube compare.
  // Its module takes ~45 s to compile on SwiftShader, so its GPU match (cube lanes included) is the one
  // src/translator/gpu-replay.gpu.test.ts's every-public-capture test runs, not a second one here.
  it(
    'flat and cube shadow maps compared by function 3: light-shadows binds its eight cubes, six faces each, to the cube slot',
    { timeout: 300_000 },
    async () => {
      const capture = await readCapture(readFileSync(join(CAPTURE_DIR, 'light-shadows.gcncap')));
      const s = lightShadowsSpec();
      checkStated(capture, s.expected, s.output);
      const t = translated(capture);
      const sel = t.translation.selected!;
      // The cube compare's slot binds the table's eight cubes; the store holds each cube's six faces.
      const cube = sel.slots.find((x) => x.shape === 'cube')!;
      expect(cube.accesses).toEqual([0x291c]);
      const cubes = sel.tables[cube.table]!.table.images.filter((im) => im.shape === 'cube');
      expect(cubes).toHaveLength(8);
      for (const im of cubes) {
        const h = (sel.tables[cube.table]!.firstPlace + im.place) * STORE_HEADER_WORDS;
        expect([sel.store.words[h + STORE_HEADER.levels], sel.store.words[h + STORE_HEADER.layers]]).toEqual([1, 6]);
      }
    },
  );
});
