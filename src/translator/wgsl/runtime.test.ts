import { describe, expect, it } from 'vitest';
import { FAULT } from './runtime.ts';

describe('module fault codes', () => {
  it('are distinct, so the host names the fault the module recorded', () => {
    const codes = Object.values(FAULT);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).not.toContain(0);
  });
});
