/**
 * The WGSL module of a translated dispatch (D011). One invocation per lane; the workgroup is the
 * capture's thread group, its size the group's waves times the wave size (lane =
 * local_invocation_index % wave size, wave = / wave size). Each invocation holds its VGPRs and a
 * private copy of its wave's SGPRs, SCC, VCC, EXEC and M0 as function variables, starting as
 * src/interp/dispatch.ts lays a wave out (the same `waveLayout`, `startExec`, `tgSizeWord` and
 * `threadIdVgprs`). The program runs in supersteps, every barrier in the group's uniform control
 * flow:
 *
 *   loop {
 *     phase A: a live wave not at s_barrier runs its blocks (`loop { switch pc }`) to a sync point,
 *              and its lane 0 writes the wave's state (`wstate`)
 *     storageBarrier, then every invocation loads the wave states with workgroupUniformLoad
 *     (the resource-table form of selected images serves its pending lanes here, in the group's
 *     uniform control flow: image-ops.ts `uniformService`, D026)
 *     phase B: the sync point is finished from the wave's exchange; waves at s_barrier go on when
 *              every live wave of the group is there
 *     leave when no wave is live (the states are uniform, so the loop's exit is)
 *   }
 *
 * The exchange is workgroup memory: a word per lane (`xword`, two halves by the superstep's
 * parity) and, per wave, MASK_EXCHANGE_WORDS lane-mask words built with atomicOr (`xmask`, three parts by the
 * superstep modulo 3). Phase B of one superstep and phase A of the next have no barrier between
 * them: A writes the other half of `xword`, and the `xmask` part B clears is the one the
 * superstep after next publishes into (its last reader, the previous superstep's B, finished
 * before this superstep's barrier). Three control barriers a superstep (storageBarrier and
 * workgroupUniformLoad's two), where a barrier after phase B made four. A wave past the step
 * limit stops and reports it; the superstep count is capped too, so a runaway program ends with
 * a fault, never a hang.
 */
import {
  startExec,
  threadIdVgprs,
  tgSizeWord,
  type DispatchSetup,
  type ProgramSetup,
  type Setup,
  type StartSgpr,
  type ThreadIdArith,
  type WaveLayout,
} from '../../interp/dispatch.ts';
import { SRC_EXEC_LO } from '../../isa/operands.ts';
import { SCC, sgprName, vgprName } from '../lane-state.ts';
import { HALTED_PC, MASK_EXCHANGE_WORDS, MEMORY_SERVICE, QUEUED_REQUESTS, type TranslatedProgram } from '../program.ts';
import type { RegisterReadBack } from '../translate.ts';
import { wgslWord } from './expressions.ts';
import { FAULT, RUNTIME_WGSL, serviceWgsl, STATUS } from './runtime.ts';
import { runOrder, type RunItem } from './structure.ts';
import { IMAGE_SERVICE } from '../image-ops.ts';

export interface ModuleShape {
  readonly setup: Setup;
  readonly layout: WaveLayout;
  /** LDS bytes of a group. */
  readonly ldsBytes: number;
  /** Instructions a wave may run before it stops with a step-limit fault. */
  readonly maxSteps: number;
  /** A program capture's registers out, written after the status words; null: none. */
  readonly readBack: RegisterReadBack | null;
  /** The image instructions' bindings and service (image-ops.ts `ImagePlan`, D015); absent or empty: none. */
  readonly images?: {
    declarations(): string;
    locals(): string;
    serviceCase(): string;
    /** The service's statements, ending in `pc = iret` (null when the module reads no image). */
    serviceBody(): readonly string[] | null;
    /** Directives before every declaration, builtins of the entry point, and a service in the superstep's uniform control flow (D026). */
    directives?(): string;
    builtins?(): string;
    uniformService?(): string;
  };
}

/** Thread-id arithmetic as WGSL text over u32 expressions. */
const WGSL_ARITH: ThreadIdArith<string> = {
  word: (n) => wgslWord(n),
  div: (a, n) => (n === 1 ? a : `(${a} / ${n}u)`),
  rem: (a, n) => (n === 1 ? '0u' : `(${a} % ${n}u)`),
  shl: (a, n) => `(${a} << ${n}u)`,
  or: (a, b) => `(${a} | ${b})`,
};

const table = (values: readonly number[]): string => `array<u32, ${values.length}>(${values.map(wgslWord).join(', ')})`;

/** A per-wave value: a constant when every wave has the same, else an element of a table by wave. */
function perWave(values: readonly number[]): string {
  return values.every((v) => v === values[0]) ? wgslWord(values[0]!) : `${table(values)}[wave]`;
}

function startSgprText(s: StartSgpr, layout: WaveLayout): string {
  switch (s.kind) {
    case 'user':
      return wgslWord(s.value);
    case 'group-id':
      return `group.${'xyz'[s.axis]}`;
    case 'tg-size':
      return perWave(Array.from({ length: layout.waves }, (_, id) => tgSizeWord(layout, id)));
    case 'scratch-offset':
      return '0u';
  }
}

/** A dispatch's start registers as WGSL text by name (src/interp/dispatch.ts `groupWaves`). */
function dispatchStart(setup: DispatchSetup, layout: WaveLayout): Map<string, string> {
  const start = new Map<string, string>();
  for (const s of layout.sgprs) start.set(sgprName(s.code), startSgprText(s, layout));
  const execs = Array.from({ length: layout.waves }, (_, id) => startExec(layout, id));
  start.set(sgprName(SRC_EXEC_LO), perWave(execs.map((e) => e[0])));
  start.set(sgprName(SRC_EXEC_LO + 1), perWave(execs.map((e) => e[1])));
  threadIdVgprs(WGSL_ARITH, setup, layout, 'lid').forEach((text, i) =>
    start.set(vgprName(i), `select(0u, ${text}, lid < ${layout.threads}u)`),
  );
  return start;
}

/** A program capture's start registers as WGSL text by name: its SGPRs, EXEC, and each VGPR as a table by lane (`runSetup`). */
function programStart(setup: ProgramSetup, lanes: number): Map<string, string> {
  const start = new Map<string, string>();
  setup.sgprs.forEach((v, code) => start.set(sgprName(code), wgslWord(v >>> 0)));
  start.set(sgprName(SRC_EXEC_LO), wgslWord(Number(setup.exec & 0xffffffffn)));
  start.set(sgprName(SRC_EXEC_LO + 1), wgslWord(lanes === 64 ? Number((setup.exec >> 32n) & 0xffffffffn) : 0));
  setup.vgprs.forEach((words, v) => {
    const byLane = Array.from({ length: lanes }, (_, l) => (words[l] ?? 0) >>> 0);
    start.set(vgprName(v), byLane.every((x) => x === byLane[0]) ? wgslWord(byLane[0]!) : `${table(byLane)}[lane]`);
  });
  return start;
}

/** The declarations of the register variables the program uses (and those read back), with their start values. */
function registers(program: TranslatedProgram, shape: ModuleShape): string[] {
  const { layout, setup } = shape;
  const start = setup.kind === 'program' ? programStart(setup, layout.lanes) : dispatchStart(setup, layout);
  const names = new Set(program.used);
  for (const code of shape.readBack?.sgprs ?? []) names.add(sgprName(code));
  for (const v of shape.readBack?.vgprs ?? []) names.add(vgprName(v));
  const order = (name: string): number => (name === SCC ? -1 : (name[0] === 's' ? 0 : 1000) + Number(name.slice(1)));
  return [...names]
    .sort((x, y) => order(x) - order(y))
    .map((name) => (name === SCC ? 'var scc: bool = false;' : `var ${name}: u32 = ${start.get(name) ?? '0u'};`));
}

/**
 * A program capture's registers out, after the loop (every lane of its one wave is here): its SGPRs
 * from lane 0, then each VGPR's word of every lane, from `STATUS.words` on.
 */
function readBackWgsl(readBack: RegisterReadBack, lanes: number): string {
  const lines = ["// The program capture's final registers, after the status words.", 'if (lane == 0u) {'];
  readBack.sgprs.forEach((code, i) => lines.push(`  atomicStore(&status[${STATUS.words + i}u], ${sgprName(code)});`));
  lines.push('}');
  const vFrom = STATUS.words + readBack.sgprs.length;
  readBack.vgprs.forEach((v, i) => lines.push(`atomicStore(&status[${vFrom + i * lanes}u + lane], ${vgprName(v)});`));
  return lines.join('\n  ');
}

/** The module's WGSL. */
export function moduleWgsl(program: TranslatedProgram, shape: ModuleShape): string {
  const { layout } = shape;
  const waves = layout.waves;
  const lanes = layout.lanes;
  const size = waves * lanes;
  const cap = shape.maxSteps + waves + 2;
  const order = runOrder(program.entry, (id) => program.blocks[id]!.successors);
  const phaseA = order ? orderedPhaseA(program, order, shape) : dispatcherPhaseA(program, shape);
  const finishes = program.blocks
    .filter((b) => b.finish !== null)
    .map((b) => [`          case ${b.id + 1}u: {`, ...b.finish!.map((l) => `  ${l}`), '          }'].join('\n'));
  const ldsWords = Math.ceil(shape.ldsBytes / 4);
  const directives = shape.images?.directives?.() ?? '';
  const builtins = shape.images?.builtins?.() ?? '';
  const uniformService = shape.images?.uniformService?.() ?? '';
  return `${directives ? `${directives}\n` : ''}// gcn-webgpu translation (D011): ${waves} wave${waves === 1 ? '' : 's'} of ${lanes} lanes a group
${RUNTIME_WGSL}
${serviceWgsl(program.atomics, ldsWords, program.memoryPaths)}
${shape.images?.declarations() ? `${shape.images.declarations()}\n` : ''}var<workgroup> xword: array<u32, ${2 * size}>;
var<workgroup> xmask: array<atomic<u32>, ${waves * 3 * MASK_EXCHANGE_WORDS}>;
var<workgroup> wstate: array<u32, ${waves}>;

@compute @workgroup_size(${size})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wg: vec3<u32>${builtins ? `, ${builtins}` : ''}) {
  let lane = lid % ${lanes}u;
  let wave = lid / ${lanes}u;
  let group = params.group.xyz + wg;
  ${registers(program, shape).join('\n  ')}
  var pc: u32 = ${program.entry}u;
  var sync: u32 = 0u;
  var live = true;
  var at_barrier = false;
  var steps: u32 = 0u;
  var superstep: u32 = 0u;
  var mq: array<vec4<u32>, ${QUEUED_REQUESTS}>;
  var mqc: array<u32, ${QUEUED_REQUESTS}>;
  var mres: array<u32, ${QUEUED_REQUESTS}>;
  var mcount: u32 = 0u;
  var xaddr: u32 = 0u;
  var mret: u32 = 0u;${shape.images?.locals() ? `\n  ${shape.images.locals()}` : ''}
  var pf_code: u32 = 0u;
  var pf_word: u32 = 0u;
  var pf_detail: u32 = 0u;
  loop {
    let part = superstep % 3u;
    let xm = (part * ${waves}u + wave) * ${MASK_EXCHANGE_WORDS}u;
    let xw = (superstep & 1u) * ${size}u + wave * ${lanes}u;
    if (live && !at_barrier) {
      pc = pc & ${wgslWord(~HALTED_PC >>> 0)};
${phaseA}
    }
    if (lane == 0u) {
      wstate[wave] = select(0u, select(1u, 2u, at_barrier), live);
    }
    storageBarrier();
    let states = workgroupUniformLoad(&wstate);${uniformService ? `\n    ${uniformService}` : ''}
    var live_waves = 0u;
    var waiting = 0u;
    for (var w = 0u; w < ${waves}u; w++) {
      let st = states[w];
      live_waves = live_waves + select(0u, 1u, st != 0u);
      waiting = waiting + select(0u, 1u, st == 2u);
    }
    if (live) {
      if (at_barrier) {
        if (waiting == live_waves) {
          at_barrier = false;
        }
      } else {
        switch sync {
${finishes.join('\n')}
          default: {}
        }
        sync = 0u;
      }
    }
    if (lane == 0u) {
      for (var k = 0u; k < ${MASK_EXCHANGE_WORDS}u; k++) {
        atomicStore(&xmask[(((superstep + 2u) % 3u) * ${waves}u + wave) * ${MASK_EXCHANGE_WORDS}u + k], 0u);
      }
    }
    superstep = superstep + 1u;
    if (live_waves == 0u) {
      break;
    }
    if (superstep >= ${cap}u) {
      if (lid == 0u) {
        fault(${FAULT.superstepLimit}u, superstep, 0u, 0u, false, 0u);
      }
      break;
    }
  }
  if (lane == 0u) {
    let before = atomicAdd(&status[${STATUS.stepsLo}], steps);
    if (before + steps < before) {
      atomicAdd(&status[${STATUS.stepsHi}], 1u);
    }
  }${shape.readBack ? `\n  ${readBackWgsl(shape.readBack, lanes)}` : ''}
}
`;
}

/** The memory service's statements: the queued requests, a pending fault, then `pc = mret`. */
const MEMORY_SERVICE_BODY: readonly string[] = [
  'for (var i = 0u; i < mcount; i++) {',
  '  let q = mq[i];',
  '  mres[i] = access(q.x, q.y, q.z, q.w, mqc[i]);',
  '}',
  'if (pf_code != 0u) {',
  '  fault(pf_code, pf_word, 0u, 0u, false, pf_detail);',
  '  pf_code = 0u;',
  '}',
  'pc = mret;',
];

const indented = (lines: readonly string[], by: string): string[] => lines.map((l) => `${by}${l}`);

/** A wave past the step limit stops with a fault (the check at each pass and each loop iteration). */
const stepLimit = (shape: ModuleShape, then: readonly string[]): string[] => [
  `if (steps > ${shape.maxSteps}u) {`,
  `  fault(${FAULT.stepLimit}u, steps, 0u, 0u, false, pc);`,
  '  live = false;',
  ...indented(then, '  '),
  '}',
];

/** Phase A as a dispatcher, `loop { switch pc { ... } }`: for a block graph that is not reducible. */
function dispatcherPhaseA(program: TranslatedProgram, shape: ModuleShape): string {
  const cases = program.blocks.map((b) => [
    `case ${b.id}u: { // 0x${b.address.toString(16)}`,
    `  steps = steps + ${b.steps}u;`,
    ...b.code.map((l) => l.replace(/^ {10}/, '  ')),
    '}',
  ]);
  const image = shape.images?.serviceBody();
  const body = [
    ...stepLimit(shape, ['break;']),
    'var halt = false;',
    'switch pc {',
    ...cases.flatMap((c) => indented(c, '  ')),
    `  case ${MEMORY_SERVICE}u: {`,
    ...indented(MEMORY_SERVICE_BODY, '    '),
    '  }',
    ...(image ? [`  case ${IMAGE_SERVICE}u: {`, ...indented(image, '    '), '  }'] : []),
    '  default: {',
    '    live = false;',
    '    halt = true;',
    '  }',
    '}',
    'if (halt) {',
    '  break;',
    '}',
  ];
  return ['      loop {', ...indented(body, '        '), '      }'].join('\n');
}

/**
 * Phase A in run order (structure.ts, D028): each block guarded by `pc == N` alone in reverse
 * postorder (a halted wave's pc carries HALTED_PC, so no later block takes it: guards
 * `!halt && pc == N`, a branch each in SPIR-V, grew SwiftShader's compile of a module with many of
 * them past gigabytes), each
 * natural loop a WGSL loop of its own blocks, and the memory and image services once, after the
 * whole order (a block that asks for one goes on in the next pass: a copy of the service after
 * each such block measured slower to compile and to run on SwiftShader, whose atomics are a branch
 * a lane). A pass that runs no block ends the wave, as the dispatcher's default case does.
 */
function orderedPhaseA(program: TranslatedProgram, order: readonly RunItem[], shape: ModuleShape): string {
  const render = (items: readonly RunItem[]): string[] =>
    items.flatMap((item): string[] => {
      if (item.kind === 'block') {
        const b = program.blocks[item.id]!;
        return [
          `if (pc == ${b.id}u) { // 0x${b.address.toString(16)}`,
          '  ran = true;',
          `  steps = steps + ${b.steps}u;`,
          ...b.code.map((l) => l.replace(/^ {10}/, '  ')),
          '}',
        ];
      }
      const members = [...item.members].sort((x, y) => x - y).map((id) => `(pc == ${id}u)`);
      return [
        `loop { // the loop at block ${item.header}`,
        ...indented(stepLimit(shape, ['halt = true;', `pc = pc | ${wgslWord(HALTED_PC)};`]), '  '),
        '  if (halt) {',
        '    break;',
        '  }',
        ...indented(render(item.body), '  '),
        `  if (halt || !(${members.join(' || ')})) {`,
        '    break;',
        '  }',
        '}',
      ];
    });
  const image = shape.images?.serviceBody();
  const body = [
    ...stepLimit(shape, ['break;']),
    'var halt = false;',
    'var ran = false;',
    ...render(order),
    `if (pc == ${MEMORY_SERVICE}u) {`,
    '  ran = true;',
    ...indented(MEMORY_SERVICE_BODY, '  '),
    '}',
    ...(image ? [`if (pc == ${IMAGE_SERVICE}u) {`, '  ran = true;', ...indented(image, '  '), '}'] : []),
    'if (!halt & !ran) {',
    '  live = false;',
    '  halt = true;',
    '}',
    'if (halt) {',
    '  break;',
    '}',
  ];
  return ['      loop {', ...indented(body, '        '), '      }'].join('\n');
}
