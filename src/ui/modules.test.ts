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
      'if (pc == 3u) { // 0x100c', // 11: a block in run order (D028)
      '}',
    ].join('\n');
    const { caseLine, bareCaseLine, markerLine } = wgslLandmarks(wgsl, 0x1000);
    expect([...caseLine]).toEqual([
      [0, 1],
      [2, 7],
      [3, 11],
    ]);
    expect([...bareCaseLine]).toEqual([[1, 6]]);
    expect([...markerLine]).toEqual([
      [0, 2],
      [4, 4],
    ]);
  });
});

describe('CaptureSession.modules', () => {
  it('links every instruction of the buffer copy to its own marker, in its block; the SPIR-V text comes apart', async () => {
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
    // The modules status carries no SPIR-V: the app asks for it when its panel is first shown.
    expect(m).not.toHaveProperty('spirv');
    const spirv = await s.spirv();
    expect(spirv.kind).toBe('spirv');
    if (spirv.kind !== 'spirv') return;
    expect(spirv.text).toMatch(/OpEntryPoint GLCompute %main "main"/);
    expect(spirv.bytes % 4).toBe(0);
    // Made once a capture: asked again, the same status comes back.
    expect(await s.spirv()).toBe(spirv);
  });

  it('makes the SPIR-V of a capture whose WGSL was not asked for, translating it first', async () => {
    const s = await bufferCopy();
    const progress: string[] = [];
    const spirv = await s.spirv((line) => progress.push(line));
    expect(spirv.kind).toBe('spirv');
    expect(progress).toEqual([
      'translating the dispatch to WGSL (src/translator)',
      'reading the WGSL into SPIR-V and disassembling it (spirv-tools)',
    ]);
    // The translation is kept: the WGSL the SPIR-V was read from is the one the Modules view shows.
    const m = await s.modules();
    expect(m.kind === 'modules' && m.wgsl).toMatch(/^\/\/ gcn-webgpu translation/);
  });

  it('names a WGSL reader refusal with its line, and what the translator did not make', async () => {
    const refused = await spirvOfWgsl('@compute @workgroup_size(1)\nfn main() {\n  discard;\n}\n');
    expect(refused.kind).toBe('spirv-unsupported-wgsl');
    if (refused.kind !== 'spirv-unsupported-wgsl') return;
    expect(refused.reason).toMatch(/^translator bug: the SPIR-V back end cannot read the translated WGSL at 3:/);
    expect(refused.line).toBe(2);
    const s = await CaptureSession.open(await refusingCapture(), 'refusing.gcncap', await loadVectorBridge());
    const m = await s.modules();
    expect(m).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/s_sendmsg/) });
    const spirv = await s.spirv();
    expect(spirv.kind).toBe('spirv-not-translated');
    expect(spirv.kind === 'spirv-not-translated' && spirv.reason).toMatch(/no SPIR-V: the translator made no WGSL/);
  });
});
