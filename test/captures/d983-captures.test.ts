/**
 * The bundled D983 captures (e2e/fixtures/d983-captures.ts): each committed file is what its
 * builder makes, byte for byte (the interpreter's result, checked there against the result the
 * builder states lane by lane); each replays and matches on the interpreter; the named
 * instructions sit at D983's offsets; and the tracer finds every selection: one slot for
 * material-alpha, seven for light-shadows, every one reading the table at +0x10 of the root
 * table, the shadow compares' samplers the constants the program builds. In light-shadows a
 * quarter of the lanes compare a cube map too (the cube rule of D022), and the interpreter's
 * result is the one the builder states for them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapture } from '../../src/host/capture/index.ts';
import { replayCapture } from '../../src/interp/replay.ts';
import { loadVectorBridge } from '../../src/interp/vector-bridge.ts';
import { traceCommand } from '../../src/cli/trace-command.ts';
import {
  buildD983Capture,
  CAPTURE_DIR,
  checkStated,
  D983_CAPTURES,
  LANES,
  lightShadowsSpec,
  StatedResultMismatch,
  materialAlphaSpec,
} from '../../e2e/fixtures/d983-captures.ts';

const file = (name: string): string => join(CAPTURE_DIR, `${name}.gcncap`);

interface TracedJson {
  readonly accesses: readonly {
    readonly at: string;
    readonly instruction: string;
    readonly classification: string;
    readonly slot?: number;
  }[];
  readonly slots: readonly {
    readonly id: number;
    readonly table: string;
    readonly sampler: string;
    readonly shape: string;
    readonly accesses: readonly string[];
  }[];
}

async function traced(name: string): Promise<TracedJson> {
  let out = '';
  let err = '';
  const rc = await traceCommand([file(name), '--json'], {
    stdout: (s) => void (out += s),
    stderr: (s) => void (err += s),
    stdin: () => '',
  });
  expect(err).toBe('');
  expect(rc).toBe(0);
  return JSON.parse(out) as TracedJson;
}

const at = (t: TracedJson, offset: number): string | undefined =>
  t.accesses.find((a) => a.at === `0x${offset.toString(16)}`)?.instruction;

describe('the D983 captures', () => {
  for (const c of D983_CAPTURES) {
    it(`${c.name}: the committed capture is what the builder makes, byte for byte`, async () => {
      const bytes = await buildD983Capture(c.program, { wave64: c.wave64 });
      expect(Buffer.compare(Buffer.from(bytes), readFileSync(file(c.name)))).toBe(0);
    }, 120_000);

    it(`${c.name}: replays and matches on the interpreter, ${c.wave64 ? 'wave64' : 'wave32'}, on gfx1013`, async () => {
      const capture = await readCapture(readFileSync(file(c.name)));
      expect(capture.manifest.target).toMatchObject({ mcpu: 'gfx1013' });
      expect(capture.manifest.target.wave64 ?? false).toBe(c.wave64);
      const outcome = replayCapture(capture, { vector: await loadVectorBridge() });
      expect(outcome.kind, JSON.stringify(outcome).slice(0, 400)).toBe('match');
    }, 120_000);
  }

  it('material-alpha: one selecting slot, the load and the sample at 0x163c and 0x1648', async () => {
    for (const name of ['material-alpha', 'material-alpha-w64']) {
      const t = await traced(name);
      expect(at(t, 0x163c)).toBe('s_buffer_load_dwordx8 s[8:15], s[40:43], vcc_lo');
      expect(at(t, 0x1648)).toMatch(
        /^image_sample_lz v4, v\[2:3\], s\[8:15\], s\[44:47\] dmask:0x8 dim:SQ_RSRC_IMG_2D/,
      );
      expect(t.slots).toHaveLength(1);
      expect(t.slots[0]!.accesses).toEqual(['0x1648']);
      // The table: the V# loaded from +0x10 of the table user data 0 and 1 name; the offset the material << 5.
      expect(t.slots[0]!.table).toMatch(/^V#\[load@0x0\[0\], .*\] \+ 0x0 \+ 32 \* \(vload@0x\w+\[0\]\)$/);
      expect(t.accesses.filter((a) => a.classification === 'untraced')).toEqual([]);
    }
  }, 60_000);

  it('light-shadows: seven selecting slots through s[24:27], the shadow samplers the constants built before the loop', async () => {
    for (const name of ['light-shadows', 'light-shadows-w64']) {
      const t = await traced(name);
      expect(t.slots).toHaveLength(7);
      expect(at(t, 0x28a0)).toBe('s_buffer_load_dwordx8 s[32:39], s[24:27], s7');
      expect(at(t, 0x2948)).toBe('s_buffer_load_dwordx8 s[32:39], s[24:27], s7');
      expect(at(t, 0x291c)).toMatch(/^image_sample_c_lz .* s\[48:51\] .*dim:SQ_RSRC_IMG_CUBE/);
      expect(at(t, 0x299c)).toMatch(/^image_sample_c_lz .* s\[44:47\] .*dim:SQ_RSRC_IMG_2D/);
      // Every slot reads the table whose V# the load at 0x8 (s_load_dwordx4 s[24:27], s[0:1], 0x10) fetched.
      for (const s of t.slots)
        expect(s.table).toMatch(/^V#\[load@0x8\[0\], load@0x8\[1\], load@0x8\[2\], load@0x8\[3\]\]/);
      const cube = t.slots.find((s) => s.accesses.includes('0x291c'))!;
      const flat = t.slots.find((s) => s.accesses.includes('0x299c'))!;
      expect(cube.shape).toBe('cube');
      expect(flat.shape).toBe('flat');
      // Compare function 3 (bits 14:12), bilinear (word 2 bits 23:20), max LOD 15.
      expect(flat.sampler).toBe('constant 0x3092; constant 0xf00000; constant 0x500000; constant 0x80000000');
      expect(cube.sampler).toBe('constant 0x3000; constant 0xf00000; constant 0x500000; constant 0x0');
      expect(t.accesses.filter((a) => a.classification === 'untraced')).toEqual([]);
    }
  }, 60_000);

  it('states a result for every lane, and a wrong statement is refused', async () => {
    const m = materialAlphaSpec();
    expect(m.expected).toHaveLength(LANES);
    const capture = await readCapture(readFileSync(file('material-alpha')));
    checkStated(capture, m.expected, m.output);
    const wrong = m.expected.slice();
    wrong[77] = wrong[77]! + 1 / 255;
    expect(() => checkStated(capture, wrong, m.output)).toThrow(StatedResultMismatch);
    // Every lane's answer in the bundled light-shadows is stated, its cube lights' too.
    expect(lightShadowsSpec().expected.every((v) => !Number.isNaN(v))).toBe(true);
  });

  it('light-shadows: flat and cube shadow maps compared by function 3, filtered, match on the interpreter', async () => {
    for (const c of D983_CAPTURES.filter((x) => x.program === 'light-shadows')) {
      const s = lightShadowsSpec({ wave64: c.wave64 });
      const flatOnly = lightShadowsSpec({ wave64: c.wave64, cubeLights: false });
      // A quarter of the lanes select a cube at the second light (nine selections: six places, flat, cube, flat).
      const cubeLanes = s.selections.flatMap((sel, lane) => (sel.length === 9 ? [lane] : []));
      expect(cubeLanes).toEqual(Array.from({ length: LANES / 4 }, (_, i) => 4 * i));
      // The cube compare decides some of them (the flat map alone would light them) and no other lane.
      const decided = Array.from({ length: LANES }, (_, lane) => lane).filter(
        (lane) => s.expected[lane * 8 + 7] !== flatOnly.expected[lane * 8 + 7],
      );
      expect(decided.length).toBeGreaterThan(0);
      expect(decided.every((lane) => cubeLanes.includes(lane))).toBe(true);
      // The committed capture's expectation (the interpreter's result) is the stated one, cube lanes included.
      const capture = await readCapture(readFileSync(file(c.name)));
      checkStated(capture, s.expected, s.output);
      expect(() => checkStated(capture, flatOnly.expected, flatOnly.output)).toThrow(StatedResultMismatch);
    }
  }, 60_000);
});
