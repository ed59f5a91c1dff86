/**
 * SPIR-V binaries as text through Khronos SPIRV-Tools' disassembler, in its WebAssembly build
 * (the npm `spirv-tools` package), so the CLI in Node and the UI in the browser show the same
 * text. The WebAssembly module loads once, lazily, on the first call.
 *
 * Loading: the package's Emscripten glue fetches its `.wasm` by a path that Node's `fetch`
 * cannot read, so the bytes are handed to it: read from the package in Node, fetched by URL in
 * a browser (`options.wasmUrl`, or the file beside the package's glue as a bundler serves it).
 * In Node the glue also installs process-wide `unhandledRejection`/`uncaughtException`
 * handlers that abort the WebAssembly runtime on any rejection anywhere in the host program;
 * they are removed again once it has loaded.
 */
import type * as NodeFs from 'node:fs/promises';
import type * as NodeModule from 'node:module';
import type spirvToolsFactory from 'spirv-tools';

/** SPIRV-Tools did not load, or its disassembler or assembler rejected its input; `messages` says why. */
export class SpirvToolsError extends Error {
  override readonly name = 'SpirvToolsError';
  constructor(
    readonly operation: 'load' | 'disassemble' | 'assemble',
    readonly messages: string,
  ) {
    super(`spirv-tools could not ${operation}: ${messages || 'no message'}`);
  }
}

type SpirvToolsFactory = typeof spirvToolsFactory;
type SpirvTools = Awaited<ReturnType<SpirvToolsFactory>>;

/** The Emscripten module settings the glue takes (a subset). */
interface EmscriptenOverrides {
  wasmBinary: Uint8Array | ArrayBuffer;
  print: (text: string) => void;
  printErr: (text: string) => void;
}

export interface SpirvToolsOptions {
  /** Where a browser fetches `spirv-tools.wasm` from (default: the file in the package, as the bundler serves it). */
  readonly wasmUrl?: string | URL;
}

let loading: Promise<SpirvTools> | undefined;
/** What SPIRV-Tools printed during the current (synchronous) call. */
let printed: string[] = [];

const isNode = (): boolean => typeof process !== 'undefined' && typeof process.versions?.node === 'string';

async function wasmBytes(options: SpirvToolsOptions): Promise<Uint8Array | ArrayBuffer> {
  if (options.wasmUrl === undefined && isNode()) {
    // Names held in variables keep bundlers from pulling Node modules into a browser build.
    const moduleName = 'node:module';
    const fsName = 'node:fs/promises';
    const { createRequire } = (await import(/* @vite-ignore */ moduleName)) as typeof NodeModule;
    const { readFile } = (await import(/* @vite-ignore */ fsName)) as typeof NodeFs;
    return readFile(createRequire(import.meta.url).resolve('spirv-tools/dist/web/spirv-tools.wasm'));
  }
  const url =
    options.wasmUrl ?? new URL('../../../node_modules/spirv-tools/dist/web/spirv-tools.wasm', import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new SpirvToolsError('load', `${response.status} ${response.statusText} for ${String(url)}`);
  return response.arrayBuffer();
}

async function load(options: SpirvToolsOptions): Promise<SpirvTools> {
  const factory = (await import('spirv-tools')).default as unknown as (o: EmscriptenOverrides) => Promise<SpirvTools>;
  const wasmBinary = await wasmBytes(options);
  const node = isNode();
  const rejections = new Set(node ? process.listeners('unhandledRejection') : []);
  const exceptions = new Set(node ? process.listeners('uncaughtException') : []);
  const ready = factory({
    wasmBinary,
    print: (text) => printed.push(text),
    printErr: (text) => printed.push(text),
  });
  if (node) {
    for (const l of process.listeners('unhandledRejection'))
      if (!rejections.has(l)) process.removeListener('unhandledRejection', l);
    for (const l of process.listeners('uncaughtException'))
      if (!exceptions.has(l)) process.removeListener('uncaughtException', l);
  }
  return ready;
}

/** The loaded SPIRV-Tools (the first call's options decide where it loads from). */
export function spirvTools(options: SpirvToolsOptions = {}): Promise<SpirvTools> {
  loading ??= load(options).catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}

function capture<T>(run: () => T): { result: T; messages: string } {
  printed = [];
  try {
    const result = run();
    return { result, messages: printed.join('\n') };
  } finally {
    printed = [];
  }
}

export interface SpirvTextOptions extends SpirvToolsOptions {
  /** Names from OpName (`%main`, `%uint`) instead of numbers; default true. */
  readonly friendlyNames?: boolean;
}

/** The module's text, as `spirv-dis` prints it (indented; friendly names unless told otherwise). */
export async function spirvText(words: Uint32Array, options: SpirvTextOptions = {}): Promise<string> {
  const spv = await spirvTools(options);
  const flags =
    spv.SPV_BINARY_TO_TEXT_OPTION_INDENT |
    (options.friendlyNames === false ? 0 : spv.SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES);
  const bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
  const { result, messages } = capture(() => spv.dis(bytes, spv.SPV_ENV_UNIVERSAL_1_5, flags));
  // The binding answers "Error" (and prints why) instead of throwing.
  if (result === 'Error' && messages !== '') throw new SpirvToolsError('disassemble', messages);
  return result;
}

/** Text back to words (numeric ids kept as written), as `spirv-as --preserve-numeric-ids` does. */
export async function spirvAssemble(text: string, options: SpirvToolsOptions = {}): Promise<Uint32Array> {
  const spv = await spirvTools(options);
  const { result, messages } = capture(() =>
    spv.as(text, spv.SPV_ENV_UNIVERSAL_1_5, spv.SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS),
  );
  if (result.byteLength === 0 || result.byteLength % 4 !== 0) throw new SpirvToolsError('assemble', messages);
  // The result is a view of the WebAssembly heap, which the next call reuses: copy it out now.
  const copy = new Uint8Array(result);
  return new Uint32Array(copy.buffer);
}
