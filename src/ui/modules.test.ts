/**
 * The Modules view's data without the worker (session.ts): the line map from the translated
 * WGSL's landmarks (block cases, instruction markers) to the program, and the SPIR-V text of
 * the module, or its refusal by name.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { refusingCapture } from '../../e2e/fixtures/prefix-sum.ts';
import { loadVectorBridge } from '../interp/vector-bridge.ts';
import { instructionMarker } from '../translator/program.ts';
import { markerLines } from './modules-view.ts';
import { CaptureSession, spirvOfWgsl, wgslLandmarks } from './session.ts';

const bufferCopy = async (): Promise<CaptureSession> =>
  CaptureSession.open(
    new Uint8Array(readFileSync('public/captures/gfx1030-buffer-copy.gcncap')),
    'gfx1030-buffer-copy.gcncap',
    await loadVectorBridge(),
  );

describe('wgslLandmarks', () => {
  it('finds cases, finishes and markers (as offsets from the entry), the first of each', () => {
    const wgsl = [
      'switch pc {', // 0
      '  case 0u: { // 0x1000', // 1
      `    ${instructionMarker(0x1000, 's_mov_b32')}`, // 2
      '    s0 = 1u;', // 3
      `    ${instructionMarker(0x1004, 's_barrier')}`, // 4
      '  }', // 5
      '  case 1u: {', // 6: the finish of block 0
      '  case 2u: { // 0x1008', // 7
      `    ${instructionMarker(0x1004, 's_barrier')}`, // 8: not the first
      '    // 0x1008', // 9: a comment with no name is not a marker
      '  }',
    ].join('\n');
    const { caseLine, bareCaseLine, markerLine } = wgslLandmarks(wgsl, 0x1000);
    expect([...caseLine]).toEqual([
      [0, 1],
      [2, 7],
    ]);
    expect([...bareCaseLine]).toEqual([[1, 6]]);
    expect([...markerLine]).toEqual([
      [0, 2],
      [4, 4],
    ]);
  });
});

describe('CaptureSession.modules', () => {
  it('links every instruction of the buffer copy to its own marker, in its block, and gives the SPIR-V text', async () => {
    const s = await bufferCopy();
    const m = await s.modules();
    expect(m.kind).toBe('modules');
    if (m.kind !== 'modules' || !s.program.ok) return;
    const lines = m.wgsl.split('\n');
    const entry = s.program.entry;
    const linked = m.blocks.flatMap((b) =>
      b.instructions.map((offset, i) => ({ offset, line: b.instructionLines[i] })),
    );
    expect(linked.length).toBeGreaterThanOrEqual(7);
    for (const { offset, line } of linked) {
      expect(line).not.toBeNull();
      // The line is that instruction's marker: its address and the name the listing shows.
      const name = s.program.listing.lines.find((l) => l.offset === offset)!.text!.split(' ')[0]!;
      expect(lines[line!]!.trim()).toBe(instructionMarker(entry + offset, name));
    }
    // Each marker line maps back to its instruction.
    const back = markerLines(m.blocks);
    expect(back.size).toBe(linked.length);
    for (const { offset, line } of linked) expect(back.get(line!)?.offset).toBe(offset);
    // A marker lies inside its block: after the block's case.
    for (const b of m.blocks) for (const l of b.instructionLines) expect(l!).toBeGreaterThan(b.line!);
    expect(m.spirv.kind).toBe('spirv');
    if (m.spirv.kind !== 'spirv') return;
    expect(m.spirv.text).toMatch(/OpEntryPoint GLCompute %main "main"/);
    expect(m.spirv.bytes % 4).toBe(0);
  });

  it('names a WGSL reader refusal with its line, and what the translator did not make', async () => {
    const refused = await spirvOfWgsl('@compute @workgroup_size(1)\nfn main() {\n  discard;\n}\n');
    expect(refused.kind).toBe('spirv-unsupported-wgsl');
    if (refused.kind !== 'spirv-unsupported-wgsl') return;
    expect(refused.reason).toMatch(/^translator bug: the SPIR-V back end cannot read the translated WGSL at 3:/);
    expect(refused.line).toBe(2);
    const s = await CaptureSession.open(await refusingCapture(), 'refusing.gcncap', await loadVectorBridge());
    const m = await s.modules();
    expect(m).toMatchObject({ kind: 'refused', spirv: { kind: 'spirv-not-translated' } });
    expect(m.spirv.kind === 'spirv-not-translated' && m.spirv.reason).toMatch(/no SPIR-V: the translator made no WGSL/);
  });
});
