/**
 * llvm/image_getresinfo.ll (amdgpu_cs, amdpal): image_get_resinfo on a 2D T# at a uniform
 * mip (%lvl) and at mip tid & 3, on a 3D T# at mip 0, a cube at mip 1 (.xy) and a 2D array
 * at mip 0 (.zw). Its inreg arguments take 37 SGPRs (four T#s, %lvl, the output V#), more
 * than the 16 user-data registers of a dispatch, so the capture is a `program` run of one
 * wave: s[0:31] the T#s, s32 %lvl, s[33:36] %out, v0 = %tid = the lane.
 *
 * The reference is the source's contract: resinfo at mip m returns (max(W >> m, 1),
 * max(H >> m, 1), depth or layers, L) with L = LAST_LEVEL − BASE_LEVEL + 1, as integers; the
 * T#s have BASE_LEVEL 0 where a size is read (so "W" is the T#'s width) and BASE_ARRAY 0. The
 * 2D z (k2, k6) is "don't care" in the contract and is not compared.
 */
import { rng, storageBuffer, u32, type CorpusKernel, type Json } from './common.ts';
import { programSpec, tsharp, type TSharpSpec } from './image-common.ts';
import type { Target } from './targets.ts';

const OUT = 0x30000000;

interface Shapes {
  readonly t2d: TSharpSpec;
  readonly t3d: TSharpSpec;
  readonly tcube: TSharpSpec;
  readonly tarr: TSharpSpec;
  readonly lvl: number;
}

function shapes(): Shapes {
  const r = rng(0x5e51);
  return {
    // A height of 2 or 3 reaches max(H >> m, 1) = 1 at mips 2 and 3; L = 4 covers every tid & 3.
    t2d: { format: 'rgba8_unorm', width: 9 + (r() % 56), height: 2 + (r() % 2), levels: 4 },
    t3d: {
      format: 'r32_float',
      type: '3d',
      width: 8 + (r() % 8),
      height: 4 + (r() % 4),
      depth: 3 + (r() % 6),
      levels: 3,
    },
    tcube: { format: 'rgba8_unorm', type: 'cube', width: 16, height: 16, levels: 5 },
    // A view of levels 1..3 of 5: L = 3, not the layout's 5.
    tarr: {
      format: 'rg16_float',
      type: '2d_array',
      width: 4,
      height: 4,
      depth: 2 + (r() % 10),
      levels: 5,
      baseLevel: 1,
      lastLevel: 3,
    },
    lvl: 2,
  };
}

const size = (n: number, m: number): number => Math.max(n >> m, 1);
const levelCount = (d: TSharpSpec): number => (d.lastLevel ?? (d.levels ?? 1) - 1) - (d.baseLevel ?? 0) + 1;

/** The 16 output words of one lane (k2 and k6 undefined: not compared). */
export function reference(s: Shapes, tid: number): (number | undefined)[] {
  const m = tid & 3;
  const { t2d, t3d, tcube, tarr } = s;
  return [
    size(t2d.width, s.lvl),
    size(t2d.height, s.lvl),
    undefined,
    levelCount(t2d),
    size(t2d.width, m),
    size(t2d.height, m),
    undefined,
    levelCount(t2d),
    t3d.width,
    t3d.height,
    t3d.depth!,
    levelCount(t3d),
    size(tcube.width, 1),
    size(tcube.height, 1),
    tarr.depth!,
    levelCount(tarr),
  ];
}

/** Expected ranges of one lane: the runs of compared words. */
function laneRanges(base: number, words: readonly (number | undefined)[]): Json[] {
  const out: Json[] = [];
  let run: number[] = [];
  let at = 0;
  words.forEach((w, k) => {
    if (w === undefined) {
      if (run.length) out.push({ address: base + 4 * at, data: u32(run) });
      run = [];
      return;
    }
    if (!run.length) at = k;
    run.push(w);
  });
  if (run.length) out.push({ address: base + 4 * at, data: u32(run) });
  return out;
}

export const kernel: CorpusKernel = {
  id: 'llvm/image_getresinfo',
  spec(t: Target) {
    const s = shapes();
    const bytes = t.waveSize * 64;
    return programSpec(t, 'image_getresinfo', {
      end: undefined, // ends with s_endpgm
      sgprs: [
        tsharp(t, s.t2d),
        tsharp(t, s.t3d),
        tsharp(t, s.tcube),
        tsharp(t, s.tarr),
        s.lvl,
        storageBuffer(t, 'out', bytes),
      ],
      vgprs: [Array.from({ length: t.waveSize }, (_, lane) => lane)],
      memory: [{ name: 'out', address: OUT, data: { fill: 0xcd, size: bytes } }],
      expectedMemory: Array.from({ length: t.waveSize }, (_, tid) =>
        laneRanges(OUT + 64 * tid, reference(s, tid)),
      ).flat(),
    });
  },
};
