/**
 * One D983 case or public capture replayed on Dawn for Node in one form of selected images
 * (D026), in a process of its own, its results printed as one line of JSON for
 * d983-resource-table.gpu.test.ts. A process runs one module: on SwiftShader a second,
 * different resource-table module in the same process crashes it (SIGSEGV in the driver's
 * compiled code; D026, Known limits), so each case runs alone.
 *
 *   npx tsx test/translator/d983-form-run.ts <form> case <kernel function> <wave32|wave64> [variants]
 *   npx tsx test/translator/d983-form-run.ts <form> capture <path>
 *
 * `variants` (selected_images): its places reordered, then record 2 left out (the escapes last).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readCapture, type Capture } from '../../src/host/capture/index.ts';
import { RESOURCE_TABLE_FEATURE } from '../../src/host/directory/resource-table.ts';
import { getNodeGpu } from '../../src/host/gpu-node.ts';
import { GuestMemory } from '../../src/interp/memory.ts';
import { loadVectorBridge } from '../../src/interp/vector-bridge.ts';
import { readEscapes, replayTranslated, runTranslation, translateCapture } from '../../src/translator/gpu-replay.ts';
import type { SelectedImageForm } from '../../src/translator/image-ops.ts';
import * as kernels from './d983-kernels.ts';
import type { D983Case } from './d983-kernels.ts';
import { rebuiltSelected } from './d983-variants.ts';
import { d983Capture, D983_LANES, expectedOut } from './d983-spec.ts';

/** What a run prints. */
export interface FormRunResult {
  readonly form: SelectedImageForm;
  /** Lanes whose capture expectation differs from the kernel's stated result (a case only). */
  readonly unstated: number[];
  readonly reads: { readonly table: boolean; readonly store: boolean };
  readonly kind: string;
  readonly reason?: string;
  /** SHA-256 of the device's memory after the dispatch. */
  readonly memory: string;
  readonly reordered?: string;
  readonly missing?: {
    readonly count: number;
    readonly bySlot: number[];
    readonly first: { group: readonly number[]; invocation: number; address: number; words: readonly number[] }[];
    readonly kind: string;
    readonly reason?: string;
  };
}

const CASES: Record<string, (w64: boolean) => D983Case> = {
  selectedImages: kernels.selectedImages,
  everyImageATableNames: kernels.everyImageATableNames,
  comparesByEveryFunction: kernels.comparesByEveryFunction,
  samplerBuiltFromConstants: kernels.samplerBuiltFromConstants,
};

async function main(): Promise<void> {
  const [form, what, a, b, variants] = process.argv.slice(2) as [SelectedImageForm, string, string, string?, string?];
  if (form !== 'texel-store' && form !== 'resource-table') throw new Error(`no form ${form}`);
  let capture: Capture;
  const unstated: number[] = [];
  if (what === 'case') {
    const make = CASES[a];
    if (!make) throw new Error(`no case ${a}`);
    const c = make(b === 'wave64');
    capture = await d983Capture(c.kernel);
    const out = expectedOut(capture, c.kernel.outWords);
    for (let g = 0; g < D983_LANES; g++) {
      const got = Array.from(out.subarray(g * c.kernel.outWords, (g + 1) * c.kernel.outWords));
      if (got.some((v, i) => v !== Math.fround(c.expected(g)[i]!))) unstated.push(g);
    }
  } else if (what === 'capture') capture = await readCapture(readFileSync(a));
  else throw new Error(`neither case nor capture: ${what}`);
  const gpu = await getNodeGpu({
    dawnOptions: ['enable-dawn-features=allow_unsafe_apis'],
    requiredFeatures: ['subgroups', RESOURCE_TABLE_FEATURE as GPUFeatureName],
  });
  const t = translateCapture(capture, gpu.device, { vector: await loadVectorBridge(), selectedImageForm: form });
  if ('kind' in t) throw new Error(`not translated: ${t.reason}`);
  const wgsl = t.translation.wgsl;
  const o = await replayTranslated(capture, gpu.device, t);
  const hash =
    o.kind === 'match' || o.kind === 'mismatch'
      ? (await runTranslation(gpu.device, t.translation, t.layout)).memory
      : new Uint8Array();
  const result: { -readonly [K in keyof FormRunResult]: FormRunResult[K] } = {
    form,
    unstated,
    reads: { table: wgsl.includes('getResource<texture_2d_array<u32>>'), store: wgsl.includes('sel_store[t + 1u]') },
    kind: o.kind,
    ...(o.kind === 'refused' || o.kind === 'invalid' ? { reason: o.reason } : {}),
    memory: createHash('sha256').update(hash).digest('hex'),
  };
  if (variants === 'variants') {
    const memory = GuestMemory.fromCapture(capture);
    const sel = t.translation.selected!;
    const reordered = { ...t.translation, selected: rebuiltSelected(sel, memory, { order: [2, 0, 3, 1] }) };
    result.reordered = (await replayTranslated(capture, gpu.device, { ...t, translation: reordered })).kind;
    const missing = { ...t.translation, selected: rebuiltSelected(sel, memory, { omit: 2 }) };
    const escapes = readEscapes((await runTranslation(gpu.device, missing, t.layout)).escapes!);
    const m = await replayTranslated(capture, gpu.device, { ...t, translation: missing });
    result.missing = { ...escapes, kind: m.kind, ...(m.kind === 'refused' ? { reason: m.reason } : {}) };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
  gpu.device.destroy();
}

await main();
