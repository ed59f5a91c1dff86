/**
 * The trace as text (one block per access: each descriptor's classification, then each
 * register's provenance and chain) and as JSON (addresses in hex, the CFG as blocks and loops).
 */
import { hexAddress } from './ids.ts';
import type { Classification } from './classify.ts';
import { provenanceText } from './provenance.ts';
import type { AccessTrace, TraceResult, WordTrace } from './trace.ts';
import type { WaterfallShape } from './waterfall.ts';

export function shapeText(s: WaterfallShape): string {
  const who = s.compiler ? `${s.compiler}'s ` : '';
  const keys = s.keys.map(
    (k) =>
      `${k.vgprs.join(':')} (read at ${k.readAt.map(hexAddress).join(', ')}, ${k.compare} at ${hexAddress(k.compareAt)})`,
  );
  return (
    `${who}waterfall over the ${s.kind === 'index' ? "lane's index" : 'descriptor words'}, wave${s.waveSize}, ` +
    `loop at ${hexAddress(s.loop.header)} (depth ${s.loop.depth}, back from ${s.loop.backEdges.map(hexAddress).join(', ')}); ` +
    `key ${keys.join('; ')}; EXEC narrowed by ${s.narrowing.map((n) => `${n.form} at ${hexAddress(n.at)}`).join(', ')}; ` +
    `lanes removed by ${s.exit.form} at ${hexAddress(s.exit.at)}`
  );
}

export function classificationText(c: Classification): string {
  switch (c.kind) {
    case 'bound':
      return 'bound (known at dispatch)';
    case 'selected': {
      const s = c.selection;
      return (
        `selected per lane from table ${s.table.text} at offset ${s.offset} ` +
        `(record = 0x${s.record.start.toString(16)} + ${s.record.stride} * ${s.record.signed ? 'sext' : ''}(${s.record.index})); ${shapeText(s.shape)}`
      );
    }
    case 'untraced':
      return `untraced (${c.reason}) at ${hexAddress(c.at)}: ${c.detail}${c.shape ? `; ${shapeText(c.shape)}` : ''}`;
  }
}

function wordLines(w: WordTrace, indent: string, chain: boolean): string[] {
  const out = [`${indent}${w.register} = ${provenanceText(w.provenance)}`];
  if (chain)
    for (const s of w.chain)
      out.push(`${indent}    ${s.at === undefined ? 'entry ' : hexAddress(s.at).padEnd(6)} ${s.text}`);
  return out;
}

export function accessText(a: AccessTrace, chain = true): string {
  const lines = [
    `${hexAddress(a.at)}  ${a.instruction}`,
    `  ${a.kind} access: ${a.classification}${a.slot === undefined ? '' : `, texture slot ${a.slot}`}`,
  ];
  for (const d of a.descriptors) {
    lines.push(`  ${d.kind} ${d.registers}: ${classificationText(d.classification)}`);
    for (const w of d.words) lines.push(...wordLines(w, '    ', chain));
  }
  if (a.soffset) {
    lines.push('  soffset:');
    lines.push(...wordLines(a.soffset, '    ', chain));
  }
  return lines.join('\n');
}

export function traceText(r: TraceResult, chain = true): string {
  const out: string[] = [];
  for (const a of r.assumptions) out.push(`; assumed: ${a}`);
  out.push(
    `; ${r.cfg.blocks.length} blocks, ${r.cfg.loops.length} loops, ${r.accesses.length} accesses, ${r.slots.length} texture slots`,
  );
  for (const x of r.refusals) out.push(`; not followed at ${hexAddress(x.at)}: ${x.reason}`);
  for (const a of r.accesses) out.push('', accessText(a, chain));
  if (r.slots.length > 0) {
    out.push('', 'texture slots:');
    for (const s of r.slots)
      out.push(
        `  slot ${s.id}: table ${s.table}, sampler ${s.sampler}, ${s.shape}; accesses ${s.accesses.map(hexAddress).join(', ')}`,
      );
  }
  return out.join('\n') + '\n';
}

/** The trace as plain JSON data (addresses as hex strings). */
export function traceJson(r: TraceResult): unknown {
  const cfg = {
    entry: r.cfg.entry,
    blocks: r.cfg.blocks.map((b) => ({
      id: b.id,
      start: hexAddress(b.start),
      end: hexAddress(b.end),
      exit: b.exit,
      successors: b.successors,
      predecessors: b.predecessors,
      immediate_dominator: r.cfg.immediateDominator[b.id] ?? null,
    })),
    loops: r.cfg.loops.map((l) => ({
      header: l.header,
      latches: l.latches,
      blocks: [...l.blocks].sort((a, b) => a - b),
      depth: l.depth,
      parent: l.parent ?? null,
    })),
  };
  const addr = (k: string, v: unknown): unknown =>
    typeof v === 'number' && /^(at|header|compareAt|target)$/.test(k) ? hexAddress(v) : v;
  const body = JSON.parse(
    JSON.stringify(
      {
        target: { mcpu: r.target.cpu, wave64: r.target.wave64 },
        entry: hexAddress(r.entry),
        ...(r.end === undefined ? {} : { end: hexAddress(r.end) }),
        assumptions: r.assumptions,
        refusals: r.refusals,
        accesses: r.accesses,
        slots: r.slots,
      },
      (k, v) => {
        // Expressions are for the stages in this process; their text is beside them.
        if (k.endsWith('Expr')) return undefined;
        if (Array.isArray(v) && /^(readAt|backEdges|accesses)$/.test(k) && v.every((x) => typeof x === 'number'))
          return v.map((x: number) => hexAddress(x));
        return addr(k, v);
      },
    ),
  ) as Record<string, unknown>;
  return { ...body, cfg };
}
