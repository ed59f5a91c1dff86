/**
 * Where a traced value comes from, in the terms every later stage reads: a constant, a user-data
 * word, a load at a fixed place (its base and offset themselves described), a load at a place the
 * program selects per lane, one lane's value of a VGPR, an expression of those, or a named unknown.
 * And, for a value the host cannot know at dispatch, what stands in the way (`obstaclesOf`): the
 * lane reads a waterfall may account for, the loads those select, and every other reason.
 */
import type { Expr } from '../semantics/expr.ts';
import { vgprName } from '../isa/operands.ts';
import { hexAddress, type CodeAddress } from './ids.ts';
import { constantOf, exprText, type Leaves, type Origin, type ValueFacts } from './values.ts';

export type Provenance =
  | { readonly kind: 'constant'; readonly value: number }
  | { readonly kind: 'user-data'; readonly index: number; readonly value?: number }
  | { readonly kind: 'code-address'; readonly at: CodeAddress; readonly half: 0 | 1 }
  /** A scalar load: at a fixed place (`fixed`: base and offset known at dispatch), or at one the program selects. */
  | {
      readonly kind: 'load';
      readonly fixed: boolean;
      readonly at: CodeAddress;
      readonly instruction: string;
      readonly dword: number;
      readonly through: 'address' | 'descriptor';
      readonly base: readonly Provenance[];
      readonly offset: Provenance;
      /** The offset as an expression (`v1 << 6`, lane reads named by their VGPR). */
      readonly offsetText: string;
    }
  /** One lane's value of a VGPR that differs per lane (v_readfirstlane, v_readlane). */
  | {
      readonly kind: 'lane-value';
      readonly at: CodeAddress;
      readonly instruction: string;
      readonly vgpr: string;
      readonly lane: 'first-active' | 'selected';
      /** The VGPR's per-lane value. */
      readonly laneValue: string;
    }
  | {
      readonly kind: 'computed';
      readonly expression: string;
      readonly knownAtDispatch: boolean;
      readonly from: readonly Provenance[];
    }
  | { readonly kind: 'unknown'; readonly origin: Origin['kind']; readonly at?: CodeAddress; readonly reason: string };

/** Why a value is not known at dispatch, by name. */
export type UntracedReason =
  | 'join'
  | 'loop-carried'
  | 'per-group'
  | 'unset'
  | 'lane-mask'
  | 'not-modelled'
  | 'per-lane'
  | 'computed-address'
  | 'lane-value-outside-waterfall'
  | 'unrecognised-waterfall'
  | 'table-untraced'
  | 'mixed-selection';

export interface Obstacle {
  readonly reason: UntracedReason;
  readonly at: CodeAddress | undefined;
  readonly detail: string;
}

type OriginOf<K extends Origin['kind']> = Extract<Origin, { kind: K }>;

export interface LanePick {
  readonly leaf: Expr;
  readonly origin: OriginOf<'lane-pick'>;
}

export interface SelectedLoad {
  readonly leaf: Expr;
  readonly origin: OriginOf<'scalar-load'>;
  /** The lane reads its address depends on. */
  readonly picks: readonly LanePick[];
}

/** What keeps a value from being known at dispatch. */
export interface Obstacles {
  /** Lane reads the value itself depends on. */
  readonly picks: readonly LanePick[];
  /** Scalar loads whose address depends only on lane reads (and what is known at dispatch). */
  readonly selectedLoads: readonly SelectedLoad[];
  /** Everything else, each with its reason. */
  readonly others: readonly Obstacle[];
}

/** Names lane reads by their VGPR, the way a waterfall's key is written. */
export function keyNames(leaves: Leaves): (leaf: Expr, o: Origin) => string {
  return (leaf, o) => (o.kind === 'lane-pick' ? vgprName(o.vgpr, 1) : exprText(leaf, leaves));
}

/** Why an origin is not known at dispatch (for the origins that never are). */
function originObstacle(o: Origin): Obstacle {
  switch (o.kind) {
    case 'join':
      return o.loop
        ? { reason: 'loop-carried', at: o.at, detail: `${o.register} changes around the loop at ${hexAddress(o.at)}` }
        : { reason: 'join', at: o.at, detail: `paths into ${hexAddress(o.at)} give ${o.register} different values` };
    case 'system':
      return o.what === 'initial EXEC'
        ? { reason: 'lane-mask', at: undefined, detail: `${o.register} holds the wave's initial EXEC` }
        : { reason: 'per-group', at: undefined, detail: `${o.register} holds the ${o.what}, which differs per group` };
    case 'unset':
      return { reason: 'unset', at: undefined, detail: `${o.register} is read before anything writes it` };
    case 'lane-mask':
      return {
        reason: 'lane-mask',
        at: o.at,
        detail: `${o.register} is a lane mask (${o.instruction} at ${hexAddress(o.at)})`,
      };
    case 'opaque':
      return { reason: 'not-modelled', at: o.at, detail: `${o.register} at ${hexAddress(o.at)}: ${o.reason}` };
    case 'entry-vgpr':
    case 'lane-id':
    case 'vector-load':
      return { reason: 'per-lane', at: 'at' in o ? o.at : undefined, detail: 'a value that differs per lane' };
    default:
      return { reason: 'not-modelled', at: undefined, detail: `a ${o.kind} value` };
  }
}

/** What keeps `e` from being known at dispatch (all empty when it is known). */
export function obstaclesOf(e: Expr, leaves: Leaves, facts: ValueFacts): Obstacles {
  const picks: LanePick[] = [];
  const selectedLoads: SelectedLoad[] = [];
  const others: Obstacle[] = [];
  if (facts.knownAtDispatch(e)) return { picks, selectedLoads, others };
  for (const { leaf, origin } of leaves.leavesOf(e)) {
    if (facts.knownAtDispatch(leaf)) continue;
    if (origin.kind === 'lane-pick') {
      picks.push({ leaf, origin });
      continue;
    }
    if (origin.kind === 'scalar-load') {
      const inner = [...origin.base.map((b) => b.expr), origin.offset.expr].map((x) => obstaclesOf(x, leaves, facts));
      const innerOthers = inner.flatMap((o) => o.others);
      const innerLoads = inner.flatMap((o) => o.selectedLoads);
      const innerPicks = inner.flatMap((o) => o.picks);
      if (innerOthers.length === 0 && innerLoads.length === 0 && innerPicks.length > 0)
        selectedLoads.push({ leaf, origin, picks: innerPicks });
      else {
        const why = innerOthers[0]?.detail ?? 'its address is itself selected per lane';
        others.push({
          reason: 'computed-address',
          at: origin.at,
          detail: `${origin.instruction} at ${hexAddress(origin.at)} reads an address the host cannot know: ${why}`,
        });
      }
      continue;
    }
    others.push(originObstacle(origin));
  }
  return { picks, selectedLoads, others };
}

/** Describes the value `e`. */
export function describeValue(e: Expr, leaves: Leaves, facts: ValueFacts): Provenance {
  const c = constantOf(e);
  if (c !== undefined) return { kind: 'constant', value: c };
  if (e.op === 'input' || e.op === 'binput') {
    const o = leaves.origin(e);
    if (!o) return { kind: 'unknown', origin: 'opaque', reason: `an unnamed leaf ${e.name ?? ''}` };
    return describeOrigin(o, leaves, facts);
  }
  const from: Provenance[] = [];
  for (const { leaf } of leaves.leavesOf(e)) from.push(describeValue(leaf, leaves, facts));
  return { kind: 'computed', expression: exprText(e, leaves), knownAtDispatch: facts.knownAtDispatch(e), from };
}

function describeOrigin(o: Origin, leaves: Leaves, facts: ValueFacts): Provenance {
  switch (o.kind) {
    case 'user-data':
      return o.value === undefined
        ? { kind: 'user-data', index: o.index }
        : { kind: 'user-data', index: o.index, value: o.value };
    case 'initial':
      return { kind: 'constant', value: o.value };
    case 'code-address':
      return { kind: 'code-address', at: o.at, half: o.half };
    case 'scalar-load': {
      const fixed = o.base.every((b) => facts.knownAtDispatch(b.expr)) && facts.knownAtDispatch(o.offset.expr);
      return {
        kind: 'load',
        fixed,
        at: o.at,
        instruction: o.instruction,
        dword: o.dword,
        through: o.through,
        base: o.base.map((b) => describeValue(b.expr, leaves, facts)),
        offset: describeValue(o.offset.expr, leaves, facts),
        offsetText: exprText(o.offset.expr, leaves, keyNames(leaves)),
      };
    }
    case 'lane-pick':
      return {
        kind: 'lane-value',
        at: o.at,
        instruction: o.instruction,
        vgpr: vgprName(o.vgpr, 1),
        lane: o.lane,
        laneValue: exprText(o.laneValue.expr, leaves),
      };
    default: {
      const ob = originObstacle(o);
      return ob.at === undefined
        ? { kind: 'unknown', origin: o.kind, reason: ob.detail }
        : { kind: 'unknown', origin: o.kind, at: ob.at, reason: ob.detail };
    }
  }
}

/** One line of text for a provenance. */
export function provenanceText(p: Provenance): string {
  switch (p.kind) {
    case 'constant':
      return `constant 0x${p.value.toString(16)}`;
    case 'user-data':
      return `user-data word ${p.index}${p.value === undefined ? '' : ` (0x${p.value.toString(16)})`}`;
    case 'code-address':
      return `the code's address (${p.half === 0 ? 'low' : 'high'} half, s_getpc_b64 before ${hexAddress(p.at)})`;
    case 'load': {
      const base = p.base.map(provenanceShort).join(', ');
      const where = p.through === 'address' ? `[${base}]` : `V#[${base}]`;
      return p.fixed
        ? `fixed load at ${where} + ${p.offsetText}, dword ${p.dword} (${p.instruction} at ${hexAddress(p.at)})`
        : `load at ${where} + ${p.offsetText}, selected at run time, dword ${p.dword} (${p.instruction} at ${hexAddress(p.at)})`;
    }
    case 'lane-value':
      return `${p.vgpr} of ${p.lane === 'first-active' ? 'the first active lane' : 'one lane'} (${p.instruction} at ${hexAddress(p.at)}); per lane ${p.vgpr} = ${p.laneValue}`;
    case 'computed':
      return `${p.expression}${p.knownAtDispatch ? '' : ' (not known at dispatch)'}`;
    case 'unknown':
      return `unknown: ${p.reason}`;
  }
}

/** A short form, for the base words of a load. */
export function provenanceShort(p: Provenance): string {
  switch (p.kind) {
    case 'constant':
      return `0x${p.value.toString(16)}`;
    case 'user-data':
      return `user_data[${p.index}]`;
    case 'load':
      return `load@${hexAddress(p.at)}[${p.dword}]`;
    case 'lane-value':
      return `${p.vgpr}@${hexAddress(p.at)}`;
    case 'computed':
      return p.expression;
    case 'code-address':
      return `pc.${p.half === 0 ? 'lo' : 'hi'}`;
    case 'unknown':
      return '?';
  }
}
