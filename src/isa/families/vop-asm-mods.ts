/**
 * The trailing modifiers of VOP3/VOP3P statements (`clamp`, `mul:2`, `div:2`,
 * `op_sel:[…]`, `op_sel_hi:[…]`, `neg_lo:[…]`, `neg_hi:[…]`), read once per statement;
 * each form then checks that it can encode what was written.
 */
import { parseBracketList, parseInteger, parseModifier } from '../asm-operands.ts';
import { fail } from './vop-asm-operands.ts';

/** A bit list as written: the bits and how many entries there were. */
export interface BitList {
  readonly bits: number;
  readonly length: number;
}

export interface VopModifiers {
  readonly clamp: boolean;
  /** Output modifier field value (0 none, 1 mul:2, 2 mul:4, 3 div:2). */
  readonly omod: number;
  readonly opSel?: BitList;
  readonly opSelHi?: BitList;
  readonly negLo?: BitList;
  readonly negHi?: BitList;
  /** True when any modifier at all was written (32-bit forms take none). */
  readonly any: boolean;
}

function bitList(value: string | undefined, name: string): BitList {
  const list = value === undefined ? undefined : parseBracketList(value);
  if (!list)
    fail(value?.trim().startsWith('[') ? 'expected a closing square bracket' : 'expected a left square bracket');
  if (list.length === 0 || list.length > 4) fail(`invalid ${name} value.`);
  let bits = 0;
  list.forEach((t, i) => {
    const v = parseInteger(t);
    if (v !== 0 && v !== 1) fail(`invalid ${name} value.`);
    bits |= v << i;
  });
  return { bits, length: list.length };
}

function omodValue(name: string, value: string | undefined): number {
  const v = value === undefined ? undefined : parseInteger(value);
  if (name === 'mul') {
    if (v === 1) return 0;
    if (v === 2) return 1;
    if (v === 4) return 2;
    fail('invalid mul value.');
  }
  if (v === 1) return 0;
  if (v === 2) return 3;
  fail('invalid div value.');
}

export function parseVopModifiers(texts: readonly string[]): VopModifiers {
  let clamp = false;
  let omod = -1;
  const lists = new Map<string, BitList>();
  for (const t of texts) {
    const m = parseModifier(t);
    if (m.name === 'noclamp' && m.value === undefined) continue;
    if (m.name === 'clamp' && m.value === undefined) {
      if (clamp) fail();
      clamp = true;
    } else if ((m.name === 'mul' || m.name === 'div') && m.value !== undefined) {
      if (omod >= 0) fail();
      omod = omodValue(m.name, m.value);
    } else if (m.name === 'op_sel' || m.name === 'op_sel_hi' || m.name === 'neg_lo' || m.name === 'neg_hi') {
      if (lists.has(m.name)) fail();
      lists.set(m.name, bitList(m.value, m.name));
    } else fail();
  }
  return {
    clamp,
    omod: Math.max(omod, 0),
    opSel: lists.get('op_sel'),
    opSelHi: lists.get('op_sel_hi'),
    negLo: lists.get('neg_lo'),
    negHi: lists.get('neg_hi'),
    any: texts.length > 0,
  };
}
