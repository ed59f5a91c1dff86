/**
 * D983's tests by the names the seed gives them, each in wave32 and wave64, in the resource-table
 * form of selected images (D026): the texels read by `getResource<texture_2d_array<u32>>(place)`
 * in the superstep's uniform control flow, one pending lane at a time, its request shuffled to the
 * subgroup. d983.gpu.test.ts runs them in the portable form. Each case runs in a process of its
 * own (d983-form-run.ts): on SwiftShader a second, different resource-table module in one process
 * crashes it (D026, Known limits). The device has the resource table's feature and subgroups.
 */
import { describe, expect, it } from 'vitest';
import type { FormRunResult } from './d983-form-run.ts';
import { formRun } from './d983-form-runs.ts';
import { D983_LANES, imageWords } from './d983-spec.ts';

function runCase(kernel: string, wave: string, variants = false): FormRunResult {
  const r = formRun(['resource-table', 'case', kernel, wave, ...(variants ? ['variants'] : [])]);
  // The capture's expectation is every lane's stated result, and the module reads through the table only.
  expect(r.unstated).toEqual([]);
  expect(r.reads).toEqual({ table: true, store: false });
  expect(r.kind, r.reason).toBe('match');
  return r;
}

describe('D983 on the GPU (Dawn for Node), resource-table', () => {
  for (const wave of ['wave32', 'wave64']) {
    it(`selected_images ${wave}`, { timeout: 600_000 }, () => {
      const r = runCase('selectedImages', wave, true);
      expect(r.reordered).toBe('match');
      // Record 2 left out: its 16 lanes escape at each of the two accesses, once per lane.
      expect(r.missing!.count).toBe(2 * (D983_LANES / 4));
      expect(r.missing!.bySlot).toEqual([D983_LANES / 4, D983_LANES / 4]);
      for (const e of r.missing!.first) {
        expect(e.words).toEqual(Array.from(imageWords(2)));
        expect((e.group[0]! * (wave === 'wave64' ? 64 : 32) + e.invocation) & 3).toBe(2);
      }
      expect(r.missing!.kind).toBe('refused');
      expect(r.missing!.reason).toMatch(/^32 lane accesses selected an image its slot's directory does not hold/);
    });

    it(`every_image_a_table_names_is_bound_and_found_by_its_descriptor ${wave}`, { timeout: 600_000 }, () => {
      runCase('everyImageATableNames', wave);
    });

    it(`each_lane_compares_the_image_it_selected_by_every_function ${wave}`, { timeout: 600_000 }, () => {
      runCase('comparesByEveryFunction', wave);
    });

    it(`a_sampler_built_from_constants_is_traced ${wave}`, { timeout: 600_000 }, () => {
      runCase('samplerBuiltFromConstants', wave);
    });
  }

  it(
    'reads each lane’s own image where the lanes of one subgroup select different ones, bit for bit the texel store’s, and counts an escape once per lane',
    { timeout: 600_000 },
    () => {
      // Lane g selects record g & 3: neighbouring lanes, which share a subgroup of any size above one, differ.
      const records = Array.from({ length: D983_LANES }, (_, g) => g & 3);
      for (let g = 0; g < D983_LANES; g += 4) expect(new Set(records.slice(g, g + 4)).size).toBe(4);
      const table = runCase('selectedImages', 'wave32', true);
      const store = formRun(['texel-store', 'case', 'selectedImages', 'wave32']);
      expect(store.reads).toEqual({ table: false, store: true });
      expect(store.kind).toBe('match');
      expect(table.memory).toBe(store.memory);
      // Every invocation of a subgroup runs each pending lane's request; the escape is the owner's alone:
      // 16 a slot, each recorded lane once.
      expect(table.missing!.bySlot).toEqual([16, 16]);
      const owners = table.missing!.first.map((e) => `${e.group.join(',')}:${e.invocation}:${e.address}`);
      expect(new Set(owners).size).toBe(owners.length);
    },
  );
});
