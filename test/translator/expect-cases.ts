/**
 * The translator's expectation cases (test/translator/expect): each `<name>.s` is a small program
 * in LLVM's assembly whose first line is `//! {spec}` (the rest of a capture spec as JSON:
 * target, thread group, user data, memory), and `<name>.wgsl` is the module the translator makes
 * of it, kept beside it and compared exactly. The runtime every module carries (bindings, guest
 * memory, faults: wgsl/runtime.ts) is kept once, in `runtime.wgsl`; a case's file holds the rest
 * (its memory service too, cut to the paths its program takes),
 * with one line where the runtime goes, so a reviewer sees what each construct becomes.
 * `<name>.spvasm` is the whole module (runtime included: SPIR-V ids run through all of it) read
 * into SPIR-V by the WGSL reader (D016) and disassembled by the spirv-tools package, or a first
 * line `SKIP: reason` where that disassembler cannot take the module (its WebAssembly heap is
 * fixed at 16 MiB).
 * `npx tsx test/translator/expect-cases.ts --write` writes the `.wgsl` and `.spvasm` files again
 * from the translator (review the difference before committing).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCapture, readCapture, writeCapture, type Capture } from '../../src/host/capture/index.ts';
import { rewriteExpected } from '../../src/cli/expected-by-interpreter.ts';
import { loadVectorBridge } from '../../src/interp/vector-bridge.ts';
import { translateCapture } from '../../src/translator/gpu-replay.ts';
import { SpirvToolsError, spirvText } from '../../src/translator/spirv/disassemble.ts';
import { spirvFromWgsl } from '../../src/translator/spirv/wgsl-reader/index.ts';
import { RUNTIME_WGSL } from '../../src/translator/wgsl/runtime.ts';

/** The line a case's file has where the module carries the shared runtime. */
export const RUNTIME_LINE = '// [the shared runtime: runtime.wgsl]';
/** The shared runtime's expectation file's text: the bindings, guest memory and the fault report. */
export const runtimeText = (): string => RUNTIME_WGSL;

/**
 * A module without its shared runtime (exactly once), for a case's file. The memory service stays
 * in the case's file: its `access` holds only the paths the case's program takes (D029).
 */
export function programPart(wgsl: string): string {
  const parts = wgsl.split(RUNTIME_WGSL);
  if (parts.length !== 2) throw new Error(`the module carries the shared runtime ${parts.length - 1} times, not once`);
  return parts.join(RUNTIME_LINE);
}

export const EXPECT_DIR = join(import.meta.dirname, 'expect');

/** The case names (the `.s` files), sorted. */
export function expectCases(): string[] {
  return readdirSync(EXPECT_DIR)
    .filter((f) => f.endsWith('.s'))
    .map((f) => f.slice(0, -2))
    .sort();
}

/** The case's capture, built from its listing and spec line, with the interpreter's result as its expectation. */
export async function caseCapture(name: string): Promise<Capture> {
  const text = readFileSync(join(EXPECT_DIR, `${name}.s`), 'utf8');
  const first = text.split('\n', 1)[0]!;
  if (!first.startsWith('//! ')) throw new Error(`${name}.s: the first line must be '//! {spec}'`);
  const spec = { ...(JSON.parse(first.slice(4)) as Record<string, unknown>), program: { asm: text } };
  const built = await buildCapture(spec, { readFile: () => new Uint8Array(0) });
  const capture = await readCapture(await writeCapture(built.manifest, built.blobs));
  const w = await rewriteExpected(capture, { vector: await loadVectorBridge() });
  if (w.kind !== 'written') throw new Error(`${name}: the interpreter gives no result: ${w.reason}`);
  return readCapture(await writeCapture(w.manifest, w.blobs));
}

const translated = new Map<string, Promise<string>>();

/** The whole module the translator makes of a case (WebGPU's default limits), translated once. */
export function caseModule(name: string): Promise<string> {
  let found = translated.get(name);
  if (found === undefined) {
    found = (async () => {
      const t = translateCapture(await caseCapture(name), undefined, { vector: await loadVectorBridge() });
      if ('kind' in t) throw new Error(`${name}: ${t.kind}: ${t.reason}`);
      return t.translation.wgsl;
    })();
    translated.set(name, found);
  }
  return found;
}

/** The module the translator makes of a case, without the shared runtime. */
export async function caseWgsl(name: string): Promise<string> {
  return programPart(await caseModule(name));
}

/** The case's module as SPIR-V words (the WGSL reader, D016). */
export async function caseSpirv(name: string): Promise<Uint32Array> {
  return spirvFromWgsl(await caseModule(name));
}

/** The first line of a `.spvasm` file that stands for a module the disassembler cannot take. */
export const SKIP_PREFIX = 'SKIP: ';

/** The case's `.spvasm` text: the disassembly, or `SKIP: reason` where the disassembler fails. */
export async function caseSpirvText(name: string): Promise<string> {
  const words = await caseSpirv(name);
  try {
    return await spirvText(words);
  } catch (e) {
    if (!(e instanceof SpirvToolsError)) throw e;
    return `${SKIP_PREFIX}the spirv-tools WebAssembly disassembler (16 MiB heap) cannot take this ${words.byteLength}-byte module: ${e.messages.split('\n')[0]}\n`;
  }
}

// `--write` writes every file; `--write wgsl` or `--write spvasm` only those of one back end.
if (process.argv[1] === import.meta.filename && process.argv.includes('--write')) {
  const only = process.argv[process.argv.indexOf('--write') + 1];
  const wgsl = only !== 'spvasm';
  const spvasm = only !== 'wgsl';
  if (wgsl) {
    writeFileSync(join(EXPECT_DIR, 'runtime.wgsl'), runtimeText());
    console.log('wrote runtime.wgsl');
  }
  for (const name of expectCases()) {
    if (wgsl) writeFileSync(join(EXPECT_DIR, `${name}.wgsl`), await caseWgsl(name));
    if (spvasm) writeFileSync(join(EXPECT_DIR, `${name}.spvasm`), await caseSpirvText(name));
    const written = [wgsl ? `${name}.wgsl` : '', spvasm ? `${name}.spvasm` : ''].filter(Boolean);
    console.log(`wrote ${written.join(' and ')}`);
  }
}
