/**
 * The tracer's pipeline and the result every later stage reads (D012):
 *
 * 1. `buildCfg` — blocks, edges, dominators, loops of the code from its entry;
 * 2. `runDataFlow` — every register's traced value before every instruction, to a fixed point;
 * 3. the accesses — every image access (its T#, 8 SGPRs or 4 with R128, and its S#), buffer
 *    access (its V#, and soffset when it is an SGPR) and s_buffer_* (its V#), each register's
 *    provenance and chain, each descriptor classified (`classifyDescriptor`: bound, selected with
 *    its table and waterfall, or untraced with the reason);
 * 4. the texture slots — D983: every selecting image access through one table, one sampler and
 *    one image shape shares a slot.
 */
import { bytesToWords } from '../isa/decoder.ts';
import { Gen, type Target } from '../isa/gen.ts';
import type { Instruction } from '../isa/instruction.ts';
import { nullCode, scalarRegName } from '../isa/operands.ts';
import { buildCfg, cfgRefusals, type ControlFlowGraph } from './cfg.ts';
import { classifyDescriptor, type Classification, type Selection } from './classify.ts';
import { runDataFlow } from './dataflow.ts';
import { assumedEntry, type EntryState } from './entry.ts';
import { codeAddress, slotId, type CodeAddress, type SlotId } from './ids.ts';
import { describeValue, provenanceText, type Provenance } from './provenance.ts';
import { entryMachineState, TraceContext, type MachineState } from './transfer.ts';
import { exprText, provenanceChain, ValueFacts, type Leaves, type ProvenanceStep, type TracedValue } from './values.ts';

export interface WordTrace {
  /** The register (`s8`). */
  readonly register: string;
  /** Its value as an expression of the leaves. */
  readonly expression: string;
  readonly provenance: Provenance;
  /** The steps that made it, sources first. */
  readonly chain: readonly ProvenanceStep[];
}

export interface DescriptorTrace {
  readonly role: 'resource' | 'sampler';
  readonly kind: 'T#' | 'V#' | 'S#';
  /** The register range (`s[8:15]`). */
  readonly registers: string;
  readonly words: readonly WordTrace[];
  readonly classification: Classification;
}

export type AccessKind = 'image' | 'buffer' | 'scalar-buffer';

export interface AccessTrace {
  readonly at: CodeAddress;
  readonly instruction: string;
  readonly kind: AccessKind;
  /** The image's shape for the slot grouping: gfx10+ reads it from the instruction's DIM; gfx7-9 leave it to the T# ('any'). */
  readonly shape?: 'flat' | 'cube' | 'any';
  readonly descriptors: readonly DescriptorTrace[];
  /** A buffer access's SGPR soffset (not a descriptor: a waterfall may make it uniform too). */
  readonly soffset?: WordTrace;
  /** untraced if any descriptor is, else selected if any is, else bound. */
  readonly classification: 'bound' | 'selected' | 'untraced';
  readonly slot?: SlotId;
}

/** D983: the selecting image accesses through one table, one sampler and one shape. */
export interface TextureSlot {
  readonly id: SlotId;
  readonly table: string;
  readonly sampler: string;
  readonly shape: 'flat' | 'cube' | 'any';
  readonly accesses: readonly CodeAddress[];
}

export interface TraceResult {
  readonly target: Target;
  readonly entry: CodeAddress;
  readonly end?: CodeAddress;
  readonly cfg: ControlFlowGraph;
  readonly accesses: readonly AccessTrace[];
  readonly slots: readonly TextureSlot[];
  /** Control flow the tracer could not follow, by address. */
  readonly refusals: readonly { readonly at: CodeAddress; readonly reason: string }[];
  readonly assumptions: readonly string[];
  /** Passes the data flow took to settle. */
  readonly iterations: number;
  /** The registers before each instruction (for the translator and tests). */
  readonly before: ReadonlyMap<CodeAddress, MachineState>;
  /** The origins of the values' leaves (the translator evaluates words known at dispatch). */
  readonly leaves: Leaves;
}

export interface TraceOptions {
  /** Byte offset of the entry in the code (default 0). */
  readonly entry?: number;
  /** Byte offset where the function returns (a program capture's end). */
  readonly end?: number;
  /** What the wave starts with (default: `assumedEntry()`, the first 16 SGPRs user data). */
  readonly entryState?: EntryState;
}

interface DescriptorSite {
  readonly role: 'resource' | 'sampler';
  readonly kind: 'T#' | 'V#' | 'S#';
  readonly first: number;
  readonly dwords: number;
}

/** The descriptors an instruction reads, or undefined when it is not an access. */
function accessSite(
  target: Target,
  inst: Instruction,
): { kind: AccessKind; descriptors: DescriptorSite[]; soffset?: number } | undefined {
  const def = inst.def;
  const f = inst.fields;
  const has = (field: string): boolean => def.operands.some((o) => o.role === 'src' && o.field === field);
  switch (def.family) {
    case 'MIMG': {
      if (!has('srsrc')) return undefined;
      // R128 (gfx7/8, gfx10+) selects a 4-dword T#; gfx9 reuses the bit as A16.
      const dwords = f.r128 && target.gen !== Gen.GFX9 ? 4 : 8;
      const descriptors: DescriptorSite[] = [{ role: 'resource', kind: 'T#', first: f.srsrc * 4, dwords }];
      if (has('ssamp')) descriptors.push({ role: 'sampler', kind: 'S#', first: f.ssamp * 4, dwords: 4 });
      return { kind: 'image', descriptors };
    }
    case 'MUBUF':
    case 'MTBUF': {
      if (!has('srsrc')) return undefined;
      const soffset =
        f.soffset < 128 && !(target.gen >= Gen.GFX8 && f.soffset === nullCode(target.gen)) ? f.soffset : undefined;
      return {
        kind: 'buffer',
        descriptors: [{ role: 'resource', kind: 'V#', first: f.srsrc * 4, dwords: 4 }],
        ...(soffset === undefined ? {} : { soffset }),
      };
    }
    case 'SMEM':
      if (!def.name.startsWith('s_buffer_')) return undefined;
      return { kind: 'scalar-buffer', descriptors: [{ role: 'resource', kind: 'V#', first: f.sbase, dwords: 4 }] };
    default:
      return undefined;
  }
}

/** DIM index 3 is SQ_RSRC_IMG_CUBE (gfx10+). */
const DIM_CUBE = 3;

/** Traces every descriptor of every access in `code` (bytes or dwords) from its entry. */
export function traceProgram(target: Target, code: Uint8Array | Uint32Array, options: TraceOptions = {}): TraceResult {
  const words = code instanceof Uint32Array ? code : bytesToWords(code);
  const entryState = options.entryState ?? assumedEntry();
  const cfg = buildCfg(target, words, {
    ...(options.entry === undefined ? {} : { entry: options.entry }),
    ...(options.end === undefined ? {} : { end: options.end }),
  });
  const ctx = new TraceContext(target, entryState.vgprs, entryState.codeBase);
  const flow = runDataFlow(ctx, cfg, entryMachineState(ctx, entryState.sgprs));
  const leaves = ctx.leaves;
  const facts = new ValueFacts(leaves);
  const input = { cfg, flow, leaves, facts, entryVgpr: (i: number) => ctx.entryVgpr(i) };
  const word = (register: string, v: TracedValue): WordTrace => ({
    register,
    expression: exprText(v.expr, leaves),
    provenance: describeValue(v.expr, leaves, facts),
    chain: provenanceChain(v),
  });
  const regName = (code: number): string => scalarRegName(target.gen, code, 1) ?? `s${code}`;
  const accesses: AccessTrace[] = [];
  for (const block of cfg.blocks)
    for (const inst of block.instructions) {
      const site = accessSite(target, inst);
      if (!site) continue;
      const at = codeAddress(inst.offset);
      const st = flow.before.get(at);
      if (!st) continue;
      const descriptors = site.descriptors.map((d): DescriptorTrace => {
        const names = Array.from({ length: d.dwords }, (_, i) => regName(d.first + i));
        const values = names.map((_, i) => st.sgpr[d.first + i]);
        return {
          role: d.role,
          kind: d.kind,
          registers: scalarRegName(target.gen, d.first, d.dwords) ?? `s[${d.first}:${d.first + d.dwords - 1}]`,
          words: values.map((v, i) => word(names[i], v)),
          classification: classifyDescriptor(input, at, names, values),
        };
      });
      const kinds = descriptors.map((d) => d.classification.kind);
      const classification = kinds.includes('untraced')
        ? 'untraced'
        : kinds.includes('selected')
          ? 'selected'
          : 'bound';
      const shape =
        site.kind === 'image'
          ? target.gen >= Gen.GFX10
            ? inst.fields.dim === DIM_CUBE
              ? 'cube'
              : 'flat'
            : 'any'
          : undefined;
      accesses.push({
        at,
        instruction: ctx.text(inst),
        kind: site.kind,
        ...(shape ? { shape } : {}),
        descriptors,
        ...(site.soffset === undefined ? {} : { soffset: word(regName(site.soffset), st.sgpr[site.soffset]) }),
        classification,
      });
    }
  const { slots, slotOf } = groupSlots(accesses);
  return {
    target,
    entry: codeAddress(options.entry ?? 0),
    ...(options.end === undefined ? {} : { end: codeAddress(options.end) }),
    cfg,
    accesses: accesses.map((a) => (slotOf.has(a.at) ? { ...a, slot: slotOf.get(a.at)! } : a)),
    slots,
    refusals: cfgRefusals(cfg),
    assumptions: entryState.assumptions,
    iterations: flow.iterations,
    before: flow.before,
    leaves,
  };
}

/** A selection's table and record, as the slot grouping compares them (not the offset's spelling, which varies with registers). */
function recordText(s: Selection): string {
  return `${s.table.text} + 0x${s.record.start.toString(16)} + ${s.record.stride} * ${s.record.signed ? 'sext' : ''}(${s.record.index})`;
}

/** The key a sampler contributes to a slot: its words' provenance when bound, its table when selected. */
function samplerKey(a: AccessTrace): string {
  const s = a.descriptors.find((d) => d.role === 'sampler');
  if (!s) return 'none';
  const c = s.classification;
  switch (c.kind) {
    case 'bound':
      return s.words.map((w) => provenanceText(w.provenance)).join('; ');
    case 'selected':
      return `selected from ${recordText(c.selection)}`;
    case 'untraced':
      // A sampler the trace cannot name is compared by its words as the module runs (D995): its own slot.
      return `untraced at 0x${a.at.toString(16)}`;
  }
}

/** Groups the selecting image accesses into texture slots (D983). */
export function groupSlots(accesses: readonly AccessTrace[]): {
  slots: TextureSlot[];
  slotOf: Map<CodeAddress, SlotId>;
} {
  const slots: {
    id: SlotId;
    table: string;
    sampler: string;
    shape: 'flat' | 'cube' | 'any';
    accesses: CodeAddress[];
  }[] = [];
  const slotOf = new Map<CodeAddress, SlotId>();
  for (const a of accesses) {
    if (a.kind !== 'image') continue;
    const r = a.descriptors.find((d) => d.role === 'resource')!.classification;
    if (r.kind !== 'selected') continue;
    const table = recordText(r.selection);
    const sampler = samplerKey(a);
    const shape = a.shape ?? 'any';
    let slot = slots.find((x) => x.table === table && x.sampler === sampler && x.shape === shape);
    if (!slot) {
      slot = { id: slotId(slots.length), table, sampler, shape, accesses: [] };
      slots.push(slot);
    }
    slot.accesses.push(a.at);
    slotOf.set(a.at, slot.id);
  }
  return { slots, slotOf };
}
