/**
 * Every translated module of the test corpus, translated on the CPU (no device): the compiled
 * kernels × targets, the instruction edge cases × targets, the public captures and the
 * expectation programs. Each is its WGSL or the translator's refusal (by name), so a back end
 * that reads the WGSL (the SPIR-V reader, D016) can be run over all of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCapture, readCapture, writeCapture, type Capture } from '../../src/host/capture/index.ts';
import { loadVectorBridge } from '../../src/interp/vector-bridge.ts';
import { translateCapture } from '../../src/translator/gpu-replay.ts';
import type { Spec } from '../corpus-kernels/common.ts';
import { KERNELS } from '../corpus-kernels/kernels.ts';
import { TARGETS } from '../corpus-kernels/targets.ts';
import { edgeCaseSpecs } from '../edge-cases/index.ts';
import { caseCapture, expectCases } from './expect-cases.ts';

const CODE = join(import.meta.dirname, '..', 'corpus-kernels', 'code');
const PUBLIC = join(import.meta.dirname, '..', '..', 'public', 'captures');

export type CorpusGroup = 'kernel' | 'edge' | 'public' | 'expect';

/** One capture of the corpus: its group, its key in that group's refusal table (`id target`), opened lazily. */
export interface CorpusSource {
  readonly group: CorpusGroup;
  readonly key: string;
  readonly capture: () => Promise<Capture>;
}

export type TranslatedModule = CorpusSource &
  (
    | { readonly kind: 'wgsl'; readonly wgsl: string; readonly instructions: number }
    | { readonly kind: 'refused' | 'invalid'; readonly reason: string }
  );

/** The corpus's capture sources (building a capture takes a moment, so each is built when translated). */
export function corpusSources(): CorpusSource[] {
  const fromSpec = (spec: Spec) => async (): Promise<Capture> => {
    const built = await buildCapture(spec, { readFile: (p: string) => readFileSync(join(CODE, p)) });
    return readCapture(await writeCapture(built.manifest, built.blobs));
  };
  const out: CorpusSource[] = [];
  for (const k of KERNELS)
    for (const t of TARGETS) {
      const spec = k.spec(t);
      if (spec !== undefined) out.push({ group: 'kernel', key: `${k.id} ${t.name}`, capture: fromSpec(spec) });
    }
  for (const { c, t, spec } of edgeCaseSpecs())
    out.push({ group: 'edge', key: `${c.id} ${t.name}`, capture: fromSpec(spec) });
  for (const f of readdirSync(PUBLIC)
    .filter((f) => f.endsWith('.gcncap'))
    .sort())
    out.push({
      group: 'public',
      key: f.slice(0, -'.gcncap'.length),
      capture: () => readCapture(readFileSync(join(PUBLIC, f))),
    });
  for (const name of expectCases()) out.push({ group: 'expect', key: name, capture: () => caseCapture(name) });
  return out;
}

/** One source translated (WebGPU's default limits, as `gcn-webgpu translate` does). */
export async function translateSource(source: CorpusSource): Promise<TranslatedModule> {
  const t = translateCapture(await source.capture(), undefined, { vector: await loadVectorBridge() });
  if ('kind' in t) return { ...source, kind: t.kind, reason: t.reason };
  return {
    ...source,
    kind: 'wgsl',
    wgsl: t.translation.wgsl,
    instructions: t.translation.program.instructions,
  };
}
