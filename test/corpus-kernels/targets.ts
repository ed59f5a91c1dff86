/** The corpus's five targets. */
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
