/**
 * Test support: the directory's search as the module gets it (built on the expression algebra,
 * lowered, emitted as WGSL), now the translator's own (`src/translator/directory-search.ts`).
 */
export {
  evaluateLoweredLookup,
  lookupWgsl,
  lowerLookup,
  type LoweredLookup,
} from '../../translator/directory-search.ts';
