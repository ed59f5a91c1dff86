/** The corpus's five targets and the kernels this harness wraps. */
export interface Target {
  /** The corpus file prefix. */
  readonly name: 'gfx704' | 'gfx803' | 'gfx900' | 'gfx1030w32' | 'gfx1030w64';
  readonly mcpu: 'gfx704' | 'gfx803' | 'gfx900' | 'gfx1030';
  readonly wave64: boolean;
  readonly waveSize: 32 | 64;
}

export const TARGETS: readonly Target[] = [
  { name: 'gfx704', mcpu: 'gfx704', wave64: true, waveSize: 64 },
  { name: 'gfx803', mcpu: 'gfx803', wave64: true, waveSize: 64 },
  { name: 'gfx900', mcpu: 'gfx900', wave64: true, waveSize: 64 },
  { name: 'gfx1030w32', mcpu: 'gfx1030', wave64: false, waveSize: 32 },
  { name: 'gfx1030w64', mcpu: 'gfx1030', wave64: true, waveSize: 64 },
];

export const RADV_KERNELS = ['atomic_add_uniform', 'divergent_if_loop', 'lds_prefix_sum', 'divergent_loops'] as const;
export const LLVM_KERNELS = [
  'divergent_if_else',
  'loop_break',
  'atomic_add_uniform',
  'atomic_add_divergent_dpp',
  'atomic_add_divergent_iterative',
  'wave_reduce_umax',
] as const;
