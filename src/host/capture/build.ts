/**
 * `capture build`: a capture from a hand-written spec (JSON or YAML, docs/capture-spec.md).
 * Programs are assembled with src/isa/asm.ts, descriptors encoded field by field with
 * src/host/descriptors, and every register value the dispatch needs is written out raw.
 */
import { parse as parseYaml } from 'yaml';
import { CaptureError } from './errors.ts';
import { BlobSet } from './container.ts';
import { hexBytes, imageBytes, typedBytes, type ImageSpec } from './data.ts';
import {
  FORMAT_NAME,
  FORMAT_VERSION,
  ORIGIN_KINDS,
  SH_OFFSETS,
  hexAddress,
  shKey,
  type Access,
  type BlobHash,
  type Compare,
  type ComputeRegisters,
  type DescriptorNote,
  type Expected,
  type ExpectedRange,
  type ExpectedRegisters,
  type ExpectedSource,
  type Manifest,
  type MemoryRange,
  type Origin,
  type OriginKind,
  type ProgramInvocation,
  type Unavailable,
} from './manifest.ts';
import { assembleProgram } from '../../isa/asm.ts';
import { AsmError } from '../../isa/errors.ts';
import { Gen, PROCESSORS, targetFor, type Target } from '../../isa/gen.ts';
import {
  DST_SEL,
  DescriptorError,
  encodeBufferDescriptor,
  encodeImageDescriptor,
  encodeSamplerDescriptor,
} from '../descriptors/index.ts';
import { defineLayout, encodeFields, f } from '../descriptors/bits.ts';

export const RECORDER = 'gcn-webgpu capture build';

export interface BuildOptions {
  /** Reads a file a spec names (`file:`), relative to the spec; required when the spec names files. */
  readonly readFile?: (path: string) => Uint8Array;
  /** Record `expected: {compute: interpreter}` as requested-but-unavailable instead of refusing it. */
  readonly allowUnavailable?: boolean;
  /**
   * The caller runs the interpreter itself on what is built (src/cli/expected-by-interpreter.ts;
   * the host does not import it): `expected: {compute: interpreter}` is built to the marker
   * `{unavailable, requested: 'interpreter'}` instead of being refused.
   */
  readonly interpreterFollows?: boolean;
}

export interface BuiltCapture {
  readonly manifest: Manifest;
  readonly blobs: ReadonlyMap<BlobHash, Uint8Array>;
  /** Where the spec asked `expected: {compute: interpreter}`: the compare it gave (default exact). */
  readonly interpreterCompare?: Compare;
}

/** COMPUTE_PGM_RSRC1 (gfx7-gfx11; fp16_ovfl is gfx9+, wgp_mode, mem_ordered and fwd_progress gfx10+). */
export const RSRC1 = defineLayout('COMPUTE_PGM_RSRC1', 1, [
  f('vgprs', 0, 0, 6),
  f('sgprs', 0, 6, 4),
  f('priority', 0, 10, 2),
  f('float_mode', 0, 12, 8),
  f('priv', 0, 20, 1),
  f('dx10_clamp', 0, 21, 1),
  f('debug_mode', 0, 22, 1),
  f('ieee_mode', 0, 23, 1),
  f('bulky', 0, 24, 1),
  f('cdbg_user', 0, 25, 1),
  f('fp16_ovfl', 0, 26, 1),
  f('wgp_mode', 0, 29, 1),
  f('mem_ordered', 0, 30, 1),
  f('fwd_progress', 0, 31, 1),
]);

/** COMPUTE_PGM_RSRC2. */
export const RSRC2 = defineLayout('COMPUTE_PGM_RSRC2', 1, [
  f('scratch_en', 0, 0, 1),
  f('user_sgpr', 0, 1, 5),
  f('trap_present', 0, 6, 1),
  f('tgid_x_en', 0, 7, 1),
  f('tgid_y_en', 0, 8, 1),
  f('tgid_z_en', 0, 9, 1),
  f('tg_size_en', 0, 10, 1),
  f('tidig_comp_cnt', 0, 11, 2),
  f('excp_en_msb', 0, 13, 2),
  f('lds_size', 0, 15, 9),
  f('excp_en', 0, 24, 7),
]);

// ---------------------------------------------------------------------------------------------
// Reading the spec: every wrong shape is `invalid-spec` naming its path.

type Json = unknown;
type Obj = Record<string, Json>;

const bad = (path: string, why: string): CaptureError => new CaptureError('invalid-spec', `${path}: ${why}`);

function isObj(v: Json): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function obj(v: Json, path: string, keys: readonly string[]): Obj {
  if (!isObj(v)) throw bad(path, 'must be a mapping');
  for (const k of Object.keys(v))
    if (!keys.includes(k)) throw bad(path, `unknown key '${k}' (known: ${keys.join(', ')})`);
  return v;
}
function int(v: Json, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v.trim()) ? Number(BigInt(v.trim())) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max)
    throw bad(path, `${JSON.stringify(v)} is not an integer in [${min}, ${max}]`);
  return n;
}
function str(v: Json, path: string): string {
  if (typeof v !== 'string') throw bad(path, 'must be a string');
  return v;
}
function list(v: Json, path: string): Json[] {
  if (!Array.isArray(v)) throw bad(path, 'must be a list');
  return v;
}
function triple(v: Json, path: string, min: number): [number, number, number] {
  const l = list(v, path);
  if (l.length < 1 || l.length > 3) throw bad(path, 'must be [x], [x, y] or [x, y, z]');
  const t = [1, 1, 1].map((d, i) => (i < l.length ? int(l[i], `${path}[${i}]`, min, 0xffffffff) : d));
  return t as [number, number, number];
}

/** Parses a spec's text (YAML, of which JSON is a subset). */
export function parseSpec(text: string, name = 'spec'): Json {
  try {
    return parseYaml(text, { uniqueKeys: true, merge: true }) as Json;
  } catch (e) {
    throw new CaptureError('invalid-spec', `${name}: not YAML or JSON (${(e as Error).message})`);
  }
}

// ---------------------------------------------------------------------------------------------

interface Region {
  readonly name: string | undefined;
  readonly address: number;
  readonly bytes: Uint8Array;
  readonly accessGiven: Access | undefined;
  readonly originGiven: Origin | undefined;
  readonly descriptorTable: boolean;
  readonly image: boolean;
}

interface Ctx {
  readonly target: Target;
  readonly opts: BuildOptions;
  readonly regions: Map<string, { address: number; size: number | undefined }>;
  readonly notes: DescriptorNote[];
  /** Region name -> what referred to it (for origins). */
  readonly refs: Map<string, { kind: OriginKind; detail: string }[]>;
}

const TOP_KEYS = [
  'target',
  'wave64',
  'program',
  'registers',
  'sh_registers',
  'user_data',
  'grid',
  'thread_group',
  'memory',
  'expected',
  'provenance',
  'invocation',
] as const;

/** The keys that describe a whole dispatch, which a program invocation (`invocation`) has none of. */
const DISPATCH_KEYS = ['registers', 'sh_registers', 'user_data', 'grid', 'thread_group'] as const;

/** Builds a capture's manifest and blobs from a parsed spec. */
export async function buildCapture(spec: Json, opts: BuildOptions = {}): Promise<BuiltCapture> {
  const s = obj(spec, 'spec', TOP_KEYS);
  const mcpu = str(s.target, 'target');
  if (PROCESSORS[mcpu] === undefined)
    throw bad('target', `'${mcpu}' is not a known processor (${Object.keys(PROCESSORS).join(', ')})`);
  const wave64Given = s.wave64 === undefined ? false : s.wave64;
  if (typeof wave64Given !== 'boolean') throw bad('wave64', 'must be true or false');
  const target = targetFor(mcpu, wave64Given);
  if (target.gen < Gen.GFX10 && s.wave64 === false) throw bad('wave64', `${mcpu} runs wave64 only`);
  const ctx: Ctx = { target, opts, regions: new Map(), notes: [], refs: new Map() };
  const blobs = new BlobSet();

  // Region addresses first: descriptors and pointers may name them.
  const memSpecs = s.memory === undefined ? [] : list(s.memory, 'memory');
  memSpecs.forEach((m, i) => {
    const r = obj(m, `memory[${i}]`, ['name', 'address', 'size', 'access', 'origin', 'data']);
    if (r.name !== undefined) {
      const name = str(r.name, `memory[${i}].name`);
      if (ctx.regions.has(name)) throw bad(`memory[${i}].name`, `'${name}' names two regions`);
      ctx.regions.set(name, {
        address: int(r.address, `memory[${i}].address`, 0, 2 ** 48 - 1),
        size: r.size === undefined ? undefined : int(r.size, `memory[${i}].size`),
      });
    }
  });

  // The program.
  const p = obj(s.program, 'program', ['asm', 'file', 'hex', 'words', 'address']);
  const code = programBytes(p, ctx);
  const codeAddress = p.address === undefined ? 0x10000000 : int(p.address, 'program.address', 0, 2 ** 48 - 1);
  if (codeAddress % 256 !== 0)
    throw bad('program.address', 'must be a multiple of 256 (COMPUTE_PGM_LO holds address >> 8)');

  // A program run from given registers (`invocation`) instead of a dispatch.
  const invocation = s.invocation === undefined ? undefined : programInvocation(s.invocation, ctx, codeAddress, code);
  if (invocation)
    for (const k of DISPATCH_KEYS)
      if (s[k] !== undefined) throw bad(k, 'describes a dispatch; a program invocation gives its registers itself');

  // User data.
  const userData = userDataWords(s.user_data, ctx);

  // Registers.
  const grid = triple(s.grid ?? [1], 'grid', 1);
  const group = triple(s.thread_group ?? [target.wave64 ? 64 : 32], 'thread_group', 1);
  if (group.some((g) => g > 1024) || group[0] * group[1] * group[2] > 1024)
    throw bad('thread_group', 'a thread group holds at most 1024 threads');
  const registers = computeRegisters(s.registers, ctx, codeAddress, userData, group);
  const sh: Record<string, number> = {};
  for (const [name, off] of Object.entries(SH_OFFSETS) as [keyof ComputeRegisters, number][]) {
    const v = registers[name];
    if (v !== undefined) sh[shKey(off)] = v;
  }
  if (s.sh_registers !== undefined) {
    const extra = obj(s.sh_registers, 'sh_registers', Object.keys(s.sh_registers as Obj));
    for (const [k, v] of Object.entries(extra)) {
      const off = int(k, `sh_registers.${k}`, 0, 0xffff);
      if (Object.values(SH_OFFSETS).includes(off))
        throw bad(
          `sh_registers.${k}`,
          'is a named COMPUTE_* register: set it through registers, user_data, grid or thread_group',
        );
      sh[shKey(off)] = int(v, `sh_registers.${k}`, 0, 0xffffffff);
    }
  }
  const shSorted = Object.fromEntries(Object.entries(sh).sort(([a], [b]) => parseInt(a, 16) - parseInt(b, 16)));

  // Memory.
  const regions: Region[] = memSpecs.map((m, i) => region(m as Obj, i, ctx));
  const expected = await expectedResult(s.expected, ctx, blobs, invocation !== undefined);
  const computeAsked = isObj(s.expected) && s.expected.compute !== undefined;
  const written = !('unavailable' in expected) ? expected.memory : [];

  const memory: MemoryRange[] = [
    {
      address: hexAddress(codeAddress),
      size: code.length,
      blob: await blobs.add(code),
      access: 'read-only',
      read_bytes: [[0, code.length]],
      origin: {
        kind: 'code',
        detail: invocation ? 'the program (invocation.entry)' : 'the program (COMPUTE_PGM_LO/HI)',
      },
    },
  ];
  for (const r of regions) {
    const lo = r.address;
    const hi = r.address + r.bytes.length;
    const isWritten = written.some((e) => Number(BigInt(e.address)) < hi && Number(BigInt(e.address)) + e.size > lo);
    memory.push({
      address: hexAddress(r.address),
      size: r.bytes.length,
      blob: await blobs.add(r.bytes),
      access: r.accessGiven ?? (isWritten ? 'written' : 'read-only'),
      read_bytes: r.bytes.length ? [[0, r.bytes.length]] : [],
      origin: r.originGiven ?? inferOrigin(r, ctx),
    });
  }
  memory.sort((a, b) => Number(BigInt(a.address) - BigInt(b.address)));

  const prov = s.provenance === undefined ? {} : obj(s.provenance, 'provenance', ['recorder', 'notes']);
  const manifest: Manifest = {
    format: FORMAT_NAME,
    version: { ...FORMAT_VERSION },
    target: { mcpu, wave64: target.wave64 },
    dispatch: invocation ?? { kind: 'registers', sh_registers: shSorted, registers, grid },
    memory,
    ...(ctx.notes.length ? { descriptors: ctx.notes } : {}),
    expected,
    provenance: {
      recorder: prov.recorder === undefined ? RECORDER : str(prov.recorder, 'provenance.recorder'),
      notes: prov.notes === undefined ? '' : str(prov.notes, 'provenance.notes'),
    },
    redacted: false,
  };
  return {
    manifest,
    blobs: blobs.blobs,
    ...(computeAsked ? { interpreterCompare: compareOf((s.expected as Obj).compare, 'expected.compare') } : {}),
  };
}

function readFileFor(ctx: Ctx, path: string, at: string): Uint8Array {
  if (!ctx.opts.readFile) throw bad(at, `names the file '${path}', and no file reader was given`);
  try {
    return ctx.opts.readFile(path);
  } catch (e) {
    throw bad(at, `cannot read '${path}' (${(e as Error).message})`);
  }
}

function programBytes(p: Obj, ctx: Ctx): Uint8Array {
  const forms = ['asm', 'file', 'hex', 'words'].filter((k) => p[k] !== undefined);
  if (forms.length !== 1) throw bad('program', 'give exactly one of asm, file, hex, words');
  let bytes: Uint8Array;
  if (p.asm !== undefined) {
    try {
      const words = assembleProgram(ctx.target, str(p.asm, 'program.asm')).words;
      bytes = new Uint8Array(words.buffer, words.byteOffset, words.byteLength).slice();
    } catch (e) {
      if (e instanceof AsmError) throw bad('program.asm', e.message);
      throw e;
    }
  } else if (p.file !== undefined) bytes = readFileFor(ctx, str(p.file, 'program.file'), 'program.file');
  else if (p.hex !== undefined) bytes = hexBytes(str(p.hex, 'program.hex'), 'program.hex');
  else bytes = typedBytes('u32', list(p.words, 'program.words'), 'program.words');
  if (bytes.length === 0 || bytes.length % 4 !== 0)
    throw bad('program', `${bytes.length} bytes is not a whole number of dwords`);
  return bytes;
}

/** An address a spec gives: a number, "0x…", a region's name, or {region, offset}. */
function addressOf(v: Json, path: string, ctx: Ctx, referrer?: { kind: OriginKind; detail: string }): number {
  let name: string | undefined;
  let offset = 0;
  if (typeof v === 'string' && !/^0x/i.test(v)) name = v;
  else if (isObj(v)) {
    const o = obj(v, path, ['region', 'offset']);
    name = str(o.region, `${path}.region`);
    offset = o.offset === undefined ? 0 : int(o.offset, `${path}.offset`);
  } else return int(v, path, 0, 2 ** 48 - 1);
  const r = ctx.regions.get(name);
  if (!r) throw bad(path, `no memory region is named '${name}'`);
  if (referrer) ctx.refs.set(name, [...(ctx.refs.get(name) ?? []), referrer]);
  return r.address + offset;
}

const DESC_KINDS = ['buffer', 'image', 'sampler'] as const;
type DescKind = (typeof DESC_KINDS)[number];

/** `{buffer|image|sampler: {fields…, address?}}` -> words. */
function descriptorWords(
  v: Obj,
  path: string,
  ctx: Ctx,
  where: string,
): { kind: DescKind; words: number[]; name?: string } {
  const kinds = DESC_KINDS.filter((k) => v[k] !== undefined);
  if (kinds.length !== 1) throw bad(path, 'a descriptor is one of {buffer: …}, {image: …}, {sampler: …}');
  const kind = kinds[0];
  const p = `${path}.${kind}`;
  const given = obj(v[kind], p, Object.keys(v[kind] as Obj));
  const fields: Record<string, number> = {};
  const name = given.name === undefined ? undefined : str(given.name, `${p}.name`);
  for (const [k, x] of Object.entries(given)) {
    if (k === 'name') continue;
    else if (k === 'address') {
      if (kind === 'sampler') throw bad(`${p}.address`, 'an S# has no address');
      const label = `${kind === 'buffer' ? 'V#' : 'T#'}${name !== undefined ? ` '${name}'` : ''} ${where}`;
      const a = addressOf(x, `${p}.address`, ctx, {
        kind: kind === 'buffer' ? 'buffer-backing' : 'image-backing',
        detail: `the backing of the ${label}`,
      });
      if (kind === 'buffer') {
        fields.base_address = a % 2 ** 32;
        fields.base_address_hi = Math.floor(a / 2 ** 32);
      } else {
        if (a % 256 !== 0) throw bad(`${p}.address`, 'a T# base address is a multiple of 256');
        const va = a / 256;
        fields.base_address = va % 2 ** 32;
        fields.base_address_hi = Math.floor(va / 2 ** 32);
      }
    } else if (/^dst_sel_[xyzw]$/.test(k) && typeof x === 'string') {
      const sel = (DST_SEL as Record<string, number>)[x];
      if (sel === undefined) throw bad(`${p}.${k}`, `'${x}' is not a DST_SEL (0, 1, x, y, z, w)`);
      fields[k] = sel;
    } else fields[k] = int(x, `${p}.${k}`, 0, 0xffffffff);
  }
  const gen = ctx.target.gen;
  try {
    const words =
      kind === 'buffer'
        ? encodeBufferDescriptor(gen, fields)
        : kind === 'image'
          ? encodeImageDescriptor(gen, fields)
          : encodeSamplerDescriptor(gen, fields);
    return { kind, words: [...words], ...(name !== undefined ? { name } : {}) };
  } catch (e) {
    if (e instanceof DescriptorError) throw bad(p, e.message);
    throw e;
  }
}

/** Where a list of register words goes: user data (COMPUTE_USER_DATA_*), or a program invocation's initial SGPRs. */
interface WordsPlace {
  readonly key: string;
  readonly max: number;
  /** The registers words `at`..`at + 1` are, in prose. */
  readonly label: (at: number) => string;
  readonly noteAt: (at: number) => DescriptorNote['at'];
}

const USER_DATA: WordsPlace = {
  key: 'user_data',
  max: 16,
  label: (at) => `COMPUTE_USER_DATA_${at}..${at + 1} (s${at}:s${at + 1})`,
  noteAt: (at) => ({ user_data: at }),
};

function userDataWords(v: Json, ctx: Ctx, place: WordsPlace = USER_DATA): number[] {
  if (v === undefined) return [];
  const out: number[] = [];
  list(v, place.key).forEach((item, i) => {
    const path = `${place.key}[${i}]`;
    const at = out.length;
    if (typeof item === 'number' || typeof item === 'string') out.push(int(item, path, 0, 0xffffffff));
    else if (isObj(item) && item.pointer !== undefined) {
      obj(item, path, ['pointer']);
      const a = addressOf(item.pointer, `${path}.pointer`, ctx, {
        kind: 'user-data-pointer',
        detail: `the pointer in ${place.label(at)}`,
      });
      out.push(a % 2 ** 32, Math.floor(a / 2 ** 32));
    } else if (isObj(item) && item.words !== undefined) {
      obj(item, path, ['words']);
      list(item.words, `${path}.words`).forEach((w, j) => out.push(int(w, `${path}.words[${j}]`, 0, 0xffffffff)));
    } else if (isObj(item)) {
      const d = descriptorWords(item, path, ctx, `in ${place.label(at).split('..')[0]}`);
      ctx.notes.push({ kind: d.kind, at: place.noteAt(at), words: d.words, ...(d.name ? { name: d.name } : {}) });
      out.push(...d.words);
    } else throw bad(path, 'a word, {pointer: …}, {words: […]} or a descriptor');
    if (out.length > place.max) throw bad(path, `${place.key} holds ${place.max} words; this makes ${out.length}`);
  });
  return out;
}

/** The most SGPRs a wave addresses (s0..s105 on gfx8+, s0..s103 on gfx7; the schema's bound). */
const MAX_INITIAL_SGPRS = 106;

/** EXEC: a number or "0x…" (64 bits do not fit a JSON number), no bits past the wave's lanes. */
function execMask(v: Json, path: string, lanes: number): bigint {
  const x = typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v.trim()) ? BigInt(v.trim()) : BigInt(int(v, path));
  if (x >= 2n ** BigInt(lanes)) throw bad(path, `has bits past the wave's ${lanes} lanes`);
  return x;
}

/** One VGPR's lanes: a list of words, or `{type: u32 | i32 | f32, values}`; exactly `lanes` of them. */
function laneWords(v: Json, path: string, lanes: number): number[] {
  let words: number[];
  if (Array.isArray(v)) words = v.map((x, i) => int(x, `${path}[${i}]`, 0, 0xffffffff));
  else {
    const t = obj(v, path, ['type', 'values']);
    const type = str(t.type, `${path}.type`);
    if (type !== 'u32' && type !== 'i32' && type !== 'f32') throw bad(`${path}.type`, "must be 'u32', 'i32' or 'f32'");
    const b = typedBytes(type, list(t.values, `${path}.values`), `${path}.values`);
    words = Array.from(new Uint32Array(b.buffer, b.byteOffset, b.length / 4));
  }
  if (words.length !== lanes) throw bad(path, `gives ${words.length} lanes; the wave has ${lanes}`);
  return words;
}

/**
 * `invocation: {entry?, end?, exec?, sgprs?, vgprs?}`: one wave of the program from these
 * registers (the capture's `program` dispatch). `entry` and `end` are byte offsets into the
 * program (llvm-objdump's addresses); `end` is where the function returns.
 */
function programInvocation(v: Json, ctx: Ctx, codeAddress: number, code: Uint8Array): ProgramInvocation {
  const o = obj(v, 'invocation', ['entry', 'end', 'exec', 'sgprs', 'vgprs']);
  const lanes = ctx.target.wave64 ? 64 : 32;
  const offset = (x: Json, path: string): number => {
    const n = int(x, path, 0, code.length);
    if (n % 4 !== 0) throw bad(path, 'must be a whole number of dwords into the program');
    return n;
  };
  const entry = o.entry === undefined ? 0 : offset(o.entry, 'invocation.entry');
  if (entry >= code.length) throw bad('invocation.entry', `is past the program's ${code.length} bytes`);
  const end = o.end === undefined ? undefined : offset(o.end, 'invocation.end');
  if (end === entry) throw bad('invocation.end', 'is the entry: the program would run nothing');
  const exec = o.exec === undefined ? 2n ** BigInt(lanes) - 1n : execMask(o.exec, 'invocation.exec', lanes);
  const sgprs = userDataWords(o.sgprs, ctx, {
    key: 'invocation.sgprs',
    max: MAX_INITIAL_SGPRS,
    label: (at) => `s${at}..${at + 1} (the program's initial SGPRs)`,
    noteAt: (at) => ({ sgpr: at }),
  });
  const vgprs = (o.vgprs === undefined ? [] : list(o.vgprs, 'invocation.vgprs')).map((x, i) =>
    laneWords(x, `invocation.vgprs[${i}]`, lanes),
  );
  return {
    kind: 'program',
    entry: hexAddress(codeAddress + entry),
    ...(end !== undefined ? { end: hexAddress(codeAddress + end) } : {}),
    initial: { exec: hexAddress(exec), sgprs, vgprs },
  };
}

/** `expected.registers`: `{sgprs?: {N: word}, vgprs?: {N: lanes}, exec?}`, a program invocation's final registers. */
function expectedRegisters(v: Json, ctx: Ctx): ExpectedRegisters {
  const r = obj(v, 'expected.registers', ['sgprs', 'vgprs', 'exec']);
  const lanes = ctx.target.wave64 ? 64 : 32;
  const index = (k: string, path: string, max: number): string =>
    String(int(/^\d+$/.test(k) ? Number(k) : k, path, 0, max));
  const out: { sgprs?: Record<string, number>; vgprs?: Record<string, number[]>; exec?: string } = {};
  if (r.sgprs !== undefined) {
    const m = obj(r.sgprs, 'expected.registers.sgprs', Object.keys(r.sgprs as Obj));
    out.sgprs = {};
    for (const [k, x] of Object.entries(m)) {
      const p = `expected.registers.sgprs.${k}`;
      out.sgprs[index(k, p, MAX_INITIAL_SGPRS - 1)] = int(x, p, 0, 0xffffffff);
    }
  }
  if (r.vgprs !== undefined) {
    const m = obj(r.vgprs, 'expected.registers.vgprs', Object.keys(r.vgprs as Obj));
    out.vgprs = {};
    for (const [k, x] of Object.entries(m)) {
      const p = `expected.registers.vgprs.${k}`;
      out.vgprs[index(k, p, 255)] = laneWords(x, p, lanes);
    }
  }
  if (r.exec !== undefined) out.exec = hexAddress(execMask(r.exec, 'expected.registers.exec', lanes));
  return out;
}

function computeRegisters(
  v: Json,
  ctx: Ctx,
  codeAddress: number,
  userData: readonly number[],
  group: readonly [number, number, number],
): ComputeRegisters {
  const r = v === undefined ? {} : obj(v, 'registers', ['vgprs', 'sgprs', 'rsrc1', 'rsrc2', 'rsrc3']);
  const { gen, wave64 } = ctx.target;
  const vgprs = r.vgprs === undefined ? 32 : int(r.vgprs, 'registers.vgprs', 1, 256);
  const sgprs = r.sgprs === undefined ? 32 : int(r.sgprs, 'registers.sgprs', 1, 112);
  const vgprGranule = gen >= Gen.GFX10 && !wave64 ? 8 : 4;
  const rsrc1Fields: Record<string, number> = {
    vgprs: Math.ceil(vgprs / vgprGranule) - 1,
    sgprs: gen >= Gen.GFX10 ? 0 : Math.ceil(sgprs / 8) - 1,
    float_mode: 0xc0,
    dx10_clamp: 1,
    ieee_mode: 1,
    ...(gen >= Gen.GFX10 ? { mem_ordered: 1 } : {}),
  };
  const rsrc2Fields: Record<string, number> = {
    user_sgpr: userData.length,
    tidig_comp_cnt: group[2] > 1 ? 2 : group[1] > 1 ? 1 : 0,
  };
  const fields = (x: Json, path: string, into: Record<string, number>): number | undefined => {
    if (x === undefined) return undefined;
    if (!isObj(x)) return int(x, path, 0, 0xffffffff);
    for (const [k, y] of Object.entries(x)) into[k] = int(y, `${path}.${k}`, 0, 0xffffffff);
    return undefined;
  };
  const enc = (
    layout: typeof RSRC1 | typeof RSRC2,
    raw: number | undefined,
    into: Record<string, number>,
    path: string,
  ): number => {
    if (raw !== undefined) return raw;
    try {
      return encodeFields(layout, into)[0];
    } catch (e) {
      if (e instanceof DescriptorError) throw bad(path, e.message);
      throw e;
    }
  };
  const rsrc1 = enc(RSRC1, fields(r.rsrc1, 'registers.rsrc1', rsrc1Fields), rsrc1Fields, 'registers.rsrc1');
  const rsrc2 = enc(RSRC2, fields(r.rsrc2, 'registers.rsrc2', rsrc2Fields), rsrc2Fields, 'registers.rsrc2');
  if (r.rsrc3 !== undefined && gen < Gen.GFX10)
    throw bad('registers.rsrc3', `${ctx.target.cpu} has no COMPUTE_PGM_RSRC3`);
  const rsrc3 =
    gen >= Gen.GFX10 ? (r.rsrc3 === undefined ? 0 : int(r.rsrc3, 'registers.rsrc3', 0, 0xffffffff)) : undefined;
  const ud = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`COMPUTE_USER_DATA_${i}`, userData[i] ?? 0]));
  return {
    COMPUTE_PGM_LO: Math.floor(codeAddress / 256) % 2 ** 32,
    COMPUTE_PGM_HI: Math.floor(codeAddress / 2 ** 40),
    COMPUTE_PGM_RSRC1: rsrc1,
    COMPUTE_PGM_RSRC2: rsrc2,
    ...(rsrc3 !== undefined ? { COMPUTE_PGM_RSRC3: rsrc3 } : {}),
    COMPUTE_NUM_THREAD_X: group[0],
    COMPUTE_NUM_THREAD_Y: group[1],
    COMPUTE_NUM_THREAD_Z: group[2],
    ...ud,
  } as unknown as ComputeRegisters & Record<string, number>;
}

/** A region's or expected range's bytes: one data form, or a list of them concatenated. */
function dataBytes(
  v: Json,
  path: string,
  ctx: Ctx,
  base: number,
  table: { descriptors: boolean; image: boolean },
): Uint8Array {
  if (Array.isArray(v)) {
    const parts: Uint8Array[] = [];
    let off = 0;
    v.forEach((x, i) => {
      const b = dataBytes(x, `${path}[${i}]`, ctx, base + off, table);
      parts.push(b);
      off += b.length;
    });
    const out = new Uint8Array(off);
    let at = 0;
    for (const b of parts) out.set(b, (at += b.length) - b.length);
    return out;
  }
  const d = obj(v, path, ['hex', 'file', 'type', 'values', 'image', 'descriptors', 'zeros', 'fill', 'size']);
  if (d.hex !== undefined) return hexBytes(str(d.hex, `${path}.hex`), `${path}.hex`);
  if (d.file !== undefined) return readFileFor(ctx, str(d.file, `${path}.file`), `${path}.file`).slice();
  if (d.type !== undefined)
    return typedBytes(str(d.type, `${path}.type`), list(d.values, `${path}.values`), `${path}.values`);
  if (d.zeros !== undefined) return new Uint8Array(int(d.zeros, `${path}.zeros`, 0, 2 ** 28));
  if (d.fill !== undefined)
    return new Uint8Array(int(d.size, `${path}.size`, 0, 2 ** 28)).fill(int(d.fill, `${path}.fill`, 0, 255));
  if (d.image !== undefined) {
    const im = obj(d.image, `${path}.image`, [
      'format',
      'width',
      'height',
      'mips',
      'layers',
      'pattern',
      'cell',
      'value',
      'row_align',
    ]);
    table.image = true;
    const spec: ImageSpec = {
      format: str(im.format, `${path}.image.format`) as ImageSpec['format'],
      width: int(im.width, `${path}.image.width`),
      height: im.height === undefined ? 1 : int(im.height, `${path}.image.height`),
      mips: im.mips === undefined ? 1 : int(im.mips, `${path}.image.mips`),
      layers: im.layers === undefined ? 1 : int(im.layers, `${path}.image.layers`),
      pattern: (im.pattern === undefined
        ? 'gradient'
        : str(im.pattern, `${path}.image.pattern`)) as ImageSpec['pattern'],
      ...(im.cell !== undefined ? { cell: int(im.cell, `${path}.image.cell`, 1) } : {}),
      ...(im.value !== undefined
        ? {
            value: list(im.value, `${path}.image.value`).map((x, i) => {
              if (typeof x !== 'number') throw bad(`${path}.image.value[${i}]`, 'must be a number');
              return x;
            }),
          }
        : {}),
      ...(im.row_align !== undefined ? { row_align: int(im.row_align, `${path}.image.row_align`, 1, 4096) } : {}),
    };
    return imageBytes(spec, `${path}.image`);
  }
  if (d.descriptors !== undefined) {
    table.descriptors = true;
    const words: number[] = [];
    list(d.descriptors, `${path}.descriptors`).forEach((x, i) => {
      const p = `${path}.descriptors[${i}]`;
      const at = base + words.length * 4;
      if (isObj(x) && x.zeros !== undefined) {
        obj(x, p, ['zeros']);
        const n = int(x.zeros, `${p}.zeros`, 0, 2 ** 20);
        if (n % 4) throw bad(`${p}.zeros`, 'a table gap is whole dwords');
        words.push(...new Array<number>(n / 4).fill(0));
        return;
      }
      const desc = descriptorWords(obj(x, p, DESC_KINDS), p, ctx, `at ${hexAddress(at)}`);
      ctx.notes.push({
        kind: desc.kind,
        at: { address: hexAddress(at) },
        words: desc.words,
        ...(desc.name ? { name: desc.name } : {}),
      });
      words.push(...desc.words);
    });
    return typedBytes('u32', words, `${path}.descriptors`);
  }
  throw bad(path, 'give one of hex, file, type+values, image, descriptors, zeros, fill+size');
}

function originOf(v: Json, path: string): Origin {
  const o = obj(v, path, ['kind', 'detail']);
  const kind = str(o.kind, `${path}.kind`);
  if (!(ORIGIN_KINDS as readonly string[]).includes(kind))
    throw bad(`${path}.kind`, `must be one of ${ORIGIN_KINDS.join(', ')}`);
  return { kind: kind as OriginKind, detail: o.detail === undefined ? '' : str(o.detail, `${path}.detail`) };
}

function region(r: Obj, i: number, ctx: Ctx): Region {
  const path = `memory[${i}]`;
  const address = int(r.address, `${path}.address`, 0, 2 ** 48 - 1);
  const flags = { descriptors: false, image: false };
  let bytes = dataBytes(r.data, `${path}.data`, ctx, address, flags);
  if (r.size !== undefined) {
    const size = int(r.size, `${path}.size`, 0, 2 ** 28);
    if (size < bytes.length) throw bad(`${path}.size`, `${size} is less than its data's ${bytes.length} bytes`);
    const padded = new Uint8Array(size);
    padded.set(bytes);
    bytes = padded;
  }
  let access: Access | undefined;
  if (r.access !== undefined) {
    const a = str(r.access, `${path}.access`);
    if (a !== 'read-only' && a !== 'written') throw bad(`${path}.access`, "must be 'read-only' or 'written'");
    access = a;
  }
  return {
    name: r.name as string | undefined,
    address,
    bytes,
    accessGiven: access,
    originGiven: r.origin === undefined ? undefined : originOf(r.origin, `${path}.origin`),
    descriptorTable: flags.descriptors,
    image: flags.image,
  };
}

function inferOrigin(r: Region, ctx: Ctx): Origin {
  const refs = r.name === undefined ? [] : (ctx.refs.get(r.name) ?? []);
  const detail = refs.map((x) => x.detail).join('; ');
  if (r.descriptorTable) return { kind: 'descriptor-table', detail: detail || 'a table of descriptors' };
  const pick = (k: OriginKind) => refs.find((x) => x.kind === k);
  const first = pick('buffer-backing') ?? pick('image-backing') ?? pick('user-data-pointer');
  if (first) return { kind: first.kind, detail };
  if (r.image) return { kind: 'image-backing', detail: 'a generated image' };
  return { kind: 'other', detail: '' };
}

function compareOf(v: Json, path: string): Compare {
  if (v === undefined) return { kind: 'exact' };
  const c = obj(v, path, ['kind', 'element', 'ulps']);
  if (c.kind === 'exact') {
    obj(v, path, ['kind']);
    return { kind: 'exact' };
  }
  if (c.kind !== 'ulp') throw bad(`${path}.kind`, "must be 'exact' or 'ulp'");
  const el = str(c.element, `${path}.element`);
  if (el !== 'f16' && el !== 'f32' && el !== 'f64') throw bad(`${path}.element`, "must be 'f16', 'f32' or 'f64'");
  return { kind: 'ulp', element: el, ulps: int(c.ulps, `${path}.ulps`, 0, 2 ** 31) };
}

function sourceOf(v: Json, path: string): ExpectedSource {
  const o = obj(v, path, ['kind', 'tool', 'revision', 'detail']);
  if (o.kind === 'hardware') {
    obj(v, path, ['kind', 'detail']);
    return { kind: 'hardware', ...(o.detail !== undefined ? { detail: str(o.detail, `${path}.detail`) } : {}) };
  }
  if (o.kind === 'tool') {
    obj(v, path, ['kind', 'tool', 'revision']);
    return { kind: 'tool', tool: str(o.tool, `${path}.tool`), revision: str(o.revision, `${path}.revision`) };
  }
  throw bad(`${path}.kind`, "must be 'hardware' or 'tool'");
}

async function expectedResult(v: Json, ctx: Ctx, blobs: BlobSet, invocation: boolean): Promise<Expected | Unavailable> {
  if (v === undefined) return { unavailable: 'the spec gives no expected result' };
  const e = obj(v, 'expected', ['source', 'memory', 'registers', 'compute', 'compare', 'unavailable']);
  if (e.unavailable !== undefined) {
    obj(v, 'expected', ['unavailable']);
    return { unavailable: str(e.unavailable, 'expected.unavailable') };
  }
  if (e.compute !== undefined) {
    obj(v, 'expected', ['compute', 'compare']);
    if (e.compute !== 'interpreter') throw bad('expected.compute', "the one tool that can compute is 'interpreter'");
    compareOf(e.compare, 'expected.compare');
    if (ctx.opts.interpreterFollows) return { unavailable: 'not computed yet', requested: 'interpreter' };
    if (!ctx.opts.allowUnavailable)
      throw new CaptureError(
        'interpreter-not-available',
        'interpreter not available: expected: {compute: interpreter} needs the reference interpreter, which buildCapture does not run (the host does not import it): `gcn-webgpu capture build` runs it, or pass allowUnavailable to record the result as unavailable',
      );
    return { unavailable: 'interpreter not available', requested: 'interpreter' };
  }
  if (e.compare !== undefined)
    throw bad('expected.compare', 'goes with compute: interpreter (or in each memory range)');
  if (e.source === undefined)
    throw bad(
      'expected.source',
      'an expected result says where it came from: {kind: hardware} or {kind: tool, tool, revision}',
    );
  const source = sourceOf(e.source, 'expected.source');
  const memory: ExpectedRange[] = [];
  for (const [i, x] of (e.memory === undefined ? [] : list(e.memory, 'expected.memory')).entries()) {
    const path = `expected.memory[${i}]`;
    const r = obj(x, path, ['address', 'data', 'compare']);
    const address = addressOf(r.address, `${path}.address`, ctx);
    const bytes = dataBytes(r.data, `${path}.data`, ctx, address, { descriptors: false, image: false });
    memory.push({
      address: hexAddress(address),
      size: bytes.length,
      blob: await blobs.add(bytes),
      compare: compareOf(r.compare, `${path}.compare`),
    });
  }
  memory.sort((a, b) => Number(BigInt(a.address) - BigInt(b.address)));
  if (e.registers !== undefined && !invocation)
    throw bad('expected.registers', 'final registers are compared for a program invocation (`invocation`) only');
  const registers = e.registers === undefined ? undefined : expectedRegisters(e.registers, ctx);
  return { source, memory, ...(registers ? { registers } : {}) };
}
