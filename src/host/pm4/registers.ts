/**
 * The compute SH registers a dispatch sets, as dword offsets from the SH register base
 * (0x2C00), for the gfx7 and gfx10 register maps. The compute block is the same on both
 * apart from the registers gfx10 added (RSRC3, the user accumulators, the shader checksum).
 */
import { Gen } from '../../isa/gen.ts';

export const SH_REG_BASE = 0x2c00;

interface ShRegister {
  readonly name: string;
  readonly offset: number;
  /** First generation that has it. */
  readonly since: Gen;
}

const COMPUTE_REGISTERS: readonly ShRegister[] = [
  { name: 'COMPUTE_DISPATCH_INITIATOR', offset: 0x200, since: Gen.GFX7 },
  { name: 'COMPUTE_DIM_X', offset: 0x201, since: Gen.GFX7 },
  { name: 'COMPUTE_DIM_Y', offset: 0x202, since: Gen.GFX7 },
  { name: 'COMPUTE_DIM_Z', offset: 0x203, since: Gen.GFX7 },
  { name: 'COMPUTE_START_X', offset: 0x204, since: Gen.GFX7 },
  { name: 'COMPUTE_START_Y', offset: 0x205, since: Gen.GFX7 },
  { name: 'COMPUTE_START_Z', offset: 0x206, since: Gen.GFX7 },
  { name: 'COMPUTE_NUM_THREAD_X', offset: 0x207, since: Gen.GFX7 },
  { name: 'COMPUTE_NUM_THREAD_Y', offset: 0x208, since: Gen.GFX7 },
  { name: 'COMPUTE_NUM_THREAD_Z', offset: 0x209, since: Gen.GFX7 },
  { name: 'COMPUTE_PIPELINESTAT_ENABLE', offset: 0x20a, since: Gen.GFX7 },
  { name: 'COMPUTE_PERFCOUNT_ENABLE', offset: 0x20b, since: Gen.GFX7 },
  { name: 'COMPUTE_PGM_LO', offset: 0x20c, since: Gen.GFX7 },
  { name: 'COMPUTE_PGM_HI', offset: 0x20d, since: Gen.GFX7 },
  { name: 'COMPUTE_TBA_LO', offset: 0x20e, since: Gen.GFX7 },
  { name: 'COMPUTE_TBA_HI', offset: 0x20f, since: Gen.GFX7 },
  { name: 'COMPUTE_TMA_LO', offset: 0x210, since: Gen.GFX7 },
  { name: 'COMPUTE_TMA_HI', offset: 0x211, since: Gen.GFX7 },
  { name: 'COMPUTE_PGM_RSRC1', offset: 0x212, since: Gen.GFX7 },
  { name: 'COMPUTE_PGM_RSRC2', offset: 0x213, since: Gen.GFX7 },
  { name: 'COMPUTE_VMID', offset: 0x214, since: Gen.GFX7 },
  { name: 'COMPUTE_RESOURCE_LIMITS', offset: 0x215, since: Gen.GFX7 },
  { name: 'COMPUTE_STATIC_THREAD_MGMT_SE0', offset: 0x216, since: Gen.GFX7 },
  { name: 'COMPUTE_STATIC_THREAD_MGMT_SE1', offset: 0x217, since: Gen.GFX7 },
  { name: 'COMPUTE_TMPRING_SIZE', offset: 0x218, since: Gen.GFX7 },
  { name: 'COMPUTE_STATIC_THREAD_MGMT_SE2', offset: 0x219, since: Gen.GFX7 },
  { name: 'COMPUTE_STATIC_THREAD_MGMT_SE3', offset: 0x21a, since: Gen.GFX7 },
  { name: 'COMPUTE_RESTART_X', offset: 0x21b, since: Gen.GFX7 },
  { name: 'COMPUTE_RESTART_Y', offset: 0x21c, since: Gen.GFX7 },
  { name: 'COMPUTE_RESTART_Z', offset: 0x21d, since: Gen.GFX7 },
  { name: 'COMPUTE_THREAD_TRACE_ENABLE', offset: 0x21e, since: Gen.GFX7 },
  { name: 'COMPUTE_MISC_RESERVED', offset: 0x21f, since: Gen.GFX7 },
  { name: 'COMPUTE_DISPATCH_ID', offset: 0x220, since: Gen.GFX8 },
  { name: 'COMPUTE_THREADGROUP_ID', offset: 0x221, since: Gen.GFX8 },
  { name: 'COMPUTE_RELAUNCH', offset: 0x222, since: Gen.GFX8 },
  { name: 'COMPUTE_WAVE_RESTORE_ADDR_LO', offset: 0x223, since: Gen.GFX8 },
  { name: 'COMPUTE_USER_ACCUM_0', offset: 0x224, since: Gen.GFX10 },
  { name: 'COMPUTE_USER_ACCUM_1', offset: 0x225, since: Gen.GFX10 },
  { name: 'COMPUTE_USER_ACCUM_2', offset: 0x226, since: Gen.GFX10 },
  { name: 'COMPUTE_USER_ACCUM_3', offset: 0x227, since: Gen.GFX10 },
  { name: 'COMPUTE_PGM_RSRC3', offset: 0x228, since: Gen.GFX10 },
  { name: 'COMPUTE_DDID_INDEX', offset: 0x229, since: Gen.GFX10 },
  { name: 'COMPUTE_SHADER_CHKSUM', offset: 0x22a, since: Gen.GFX10 },
  ...Array.from({ length: 16 }, (_, i) => ({ name: `COMPUTE_USER_DATA_${i}`, offset: 0x240 + i, since: Gen.GFX7 })),
];

const byOffset = new Map(COMPUTE_REGISTERS.map((r) => [r.offset, r]));
const byName = new Map(COMPUTE_REGISTERS.map((r) => [r.name, r]));

/** The register's name at this SH offset in this generation, or undefined when it is not a compute register there. */
export function shRegisterName(gen: Gen, offset: number): string | undefined {
  const r = byOffset.get(offset);
  return r && gen >= r.since ? r.name : undefined;
}

/** The SH offset of a named compute register. */
export function shRegisterOffset(name: string): number {
  const r = byName.get(name);
  if (!r) throw new Error(`unknown compute register ${name}`);
  return r.offset;
}

export const USER_DATA_0 = 0x240;
