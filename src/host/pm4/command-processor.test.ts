import { describe, expect, it } from 'vitest';
import { Gen } from '../../isa/gen.ts';
import { pm4, Pm4Error, processComputeStream, type GuestReader } from './command-processor.ts';
import { shRegisterOffset } from './registers.ts';

const noMemory: GuestReader = () => undefined;

function stream(...parts: number[][]): Uint32Array {
  return Uint32Array.from(parts.flat());
}

function expectPm4Error(f: () => unknown, code: string, text: RegExp): void {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(Pm4Error);
    expect((e as Pm4Error).code).toBe(code);
    expect((e as Pm4Error).message).toMatch(text);
    return;
  }
  throw new Error('expected a Pm4Error');
}

describe('command processor', () => {
  const program = [
    ...pm4.setShReg(shRegisterOffset('COMPUTE_PGM_LO'), [0x12345678 >>> 0, 0x0]),
    ...pm4.setShReg(shRegisterOffset('COMPUTE_PGM_RSRC1'), [0x002c0041, 0x00000090]),
    ...pm4.setShReg(shRegisterOffset('COMPUTE_NUM_THREAD_X'), [64, 2, 1]),
    ...pm4.setShReg(shRegisterOffset('COMPUTE_USER_DATA_0'), [0xdead, 0xbeef, 7]),
  ];

  it('runs a direct dispatch on the gfx7 map and keeps raw registers by offset', () => {
    const d = processComputeStream(Gen.GFX7, stream(program, pm4.nop(2), pm4.dispatchDirect(4, 3, 1)), noMemory);
    expect(d.programAddress).toBe(0x12345678 * 256);
    expect(d.rsrc1).toBe(0x002c0041);
    expect(d.rsrc2).toBe(0x90);
    expect(d.numThreads).toEqual([64, 2, 1]);
    expect(d.grid).toEqual([4, 3, 1]);
    expect(d.userData.slice(0, 4)).toEqual([0xdead, 0xbeef, 7, 0]);
    expect(d.shRegisters.get(0x207)).toBe(64);
    expect(d.gridSource).toEqual({ kind: 'direct' });
  });

  it('accepts COMPUTE_PGM_RSRC3 on gfx10 and refuses it on gfx7', () => {
    const rsrc3 = pm4.setShReg(0x228, [0x5]);
    expect(processComputeStream(Gen.GFX10, stream(program, rsrc3, pm4.dispatchDirect(1, 1, 1)), noMemory).rsrc3).toBe(
      5,
    );
    expectPm4Error(
      () => processComputeStream(Gen.GFX7, stream(program, rsrc3, pm4.dispatchDirect(1, 1, 1)), noMemory),
      'not-a-compute-register',
      /0x228/,
    );
  });

  it('reads an indirect grid from guest memory and says where it came from', () => {
    const args = new Uint8Array(new Uint32Array([8, 2, 1]).buffer);
    const reader: GuestReader = (address, size) =>
      address === 0x1000_0000_0000 - 0x100 && size === 12 ? args : undefined;
    const d = processComputeStream(
      Gen.GFX10_3,
      stream(program, pm4.dispatchIndirect(0x1000_0000_0000 - 0x100)),
      reader,
    );
    expect(d.grid).toEqual([8, 2, 1]);
    expect(d.gridSource).toEqual({ kind: 'indirect', address: 0x1000_0000_0000 - 0x100 });
  });

  it('refuses an indirect grid that is not in the capture instead of reading zeros', () => {
    expectPm4Error(
      () => processComputeStream(Gen.GFX10_3, stream(program, pm4.dispatchIndirect(0x4000)), noMemory),
      'indirect-unreadable',
      /0x4000/,
    );
  });

  it('needs a SET_BASE for the offset form of DISPATCH_INDIRECT', () => {
    const offsetForm = [pm4.header(0x16, 2), 0x10, 1];
    expectPm4Error(
      () => processComputeStream(Gen.GFX7, stream(program, offsetForm), noMemory),
      'indirect-without-base',
      /SET_BASE/,
    );
    const args = new Uint8Array(new Uint32Array([2, 2, 2]).buffer);
    const setBase = [pm4.header(0x11, 3), 1, 0x2000, 0];
    const d = processComputeStream(Gen.GFX7, stream(program, setBase, offsetForm), (a) =>
      a === 0x2010 ? args : undefined,
    );
    expect(d.grid).toEqual([2, 2, 2]);
  });

  it('names a packet it does not execute', () => {
    const draw = [pm4.header(0x2d, 2), 3, 0];
    expectPm4Error(
      () => processComputeStream(Gen.GFX7, stream(draw, pm4.dispatchDirect(1, 1, 1)), noMemory),
      'unsupported-packet',
      /DRAW_INDEX_AUTO/,
    );
    const unknown = [pm4.header(0xee, 1), 0];
    expectPm4Error(
      () => processComputeStream(Gen.GFX7, stream(unknown), noMemory),
      'unsupported-packet',
      /UNKNOWN_0xee/,
    );
  });

  it('skips type-2 filler and refuses type-0 packets', () => {
    expect(
      processComputeStream(Gen.GFX7, stream([0x80000000], program, pm4.dispatchDirect(1, 1, 1)), noMemory).grid,
    ).toEqual([1, 1, 1]);
    expectPm4Error(() => processComputeStream(Gen.GFX7, stream([0x00001234, 0]), noMemory), 'type0-packet', /type-0/);
  });

  it('refuses truncated packets, a stream without a dispatch and a second dispatch', () => {
    expectPm4Error(
      () => processComputeStream(Gen.GFX7, stream(pm4.dispatchDirect(1, 1, 1).slice(0, 3)), noMemory),
      'truncated',
      /DISPATCH_DIRECT/,
    );
    expectPm4Error(() => processComputeStream(Gen.GFX7, stream(program), noMemory), 'no-dispatch', /no DISPATCH/);
    expectPm4Error(
      () =>
        processComputeStream(
          Gen.GFX7,
          stream(program, pm4.dispatchDirect(1, 1, 1), pm4.dispatchDirect(1, 1, 1)),
          noMemory,
        ),
      'several-dispatches',
      /more than one/,
    );
  });
});
