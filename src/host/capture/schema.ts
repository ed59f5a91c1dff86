/**
 * A validator for the JSON Schema subset `gcncap.schema.json` uses: type, const, enum,
 * pattern, minimum, maximum, minItems, maxItems, items, properties, required,
 * additionalProperties, propertyNames, oneOf and local `$ref`s (`#/$defs/name`). Anything
 * else in a schema is an error at validation time, so the schema cannot silently say more
 * than is checked.
 */

export interface JsonSchema {
  readonly $schema?: string;
  readonly $id?: string;
  readonly $ref?: string;
  readonly $defs?: Readonly<Record<string, JsonSchema>>;
  readonly title?: string;
  readonly description?: string;
  readonly type?: string | readonly string[];
  readonly const?: unknown;
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items?: JsonSchema;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly propertyNames?: JsonSchema;
  readonly oneOf?: readonly JsonSchema[];
}

const KNOWN = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'title',
  'description',
  'type',
  'const',
  'enum',
  'pattern',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'oneOf',
]);

export interface ValidateOptions {
  /** Accept properties the schema does not name (a newer minor version's additions). */
  readonly allowUnknownProperties?: boolean;
}

/** The first problem found, as "path: what", or undefined when `value` satisfies `schema`. */
export function validate(root: JsonSchema, value: unknown, options: ValidateOptions = {}): string | undefined {
  return check(root, root, value, '$', options);
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function hasType(v: unknown, t: string): boolean {
  switch (t) {
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    default:
      return typeOf(v) === t;
  }
}

function resolve(root: JsonSchema, ref: string): JsonSchema {
  const m = /^#\/\$defs\/([A-Za-z0-9_]+)$/.exec(ref);
  const s = m ? root.$defs?.[m[1]] : undefined;
  if (!s) throw new Error(`schema: unresolvable $ref '${ref}'`);
  return s;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function check(root: JsonSchema, s: JsonSchema, v: unknown, path: string, o: ValidateOptions): string | undefined {
  for (const k of Object.keys(s)) if (!KNOWN.has(k)) throw new Error(`schema: keyword '${k}' is not supported`);
  if (s.$ref !== undefined) {
    const r = check(root, resolve(root, s.$ref), v, path, o);
    if (r) return r;
  }
  if (s.type !== undefined) {
    const types = typeof s.type === 'string' ? [s.type] : s.type;
    if (!types.some((t) => hasType(v, t))) return `${path}: is ${typeOf(v)}, not ${types.join(' or ')}`;
  }
  if ('const' in s && !same(v, s.const)) return `${path}: must be ${JSON.stringify(s.const)}`;
  if (s.enum !== undefined && !s.enum.some((e) => same(e, v)))
    return `${path}: must be one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  if (typeof v === 'string' && s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(v))
    return `${path}: '${v.length > 40 ? `${v.slice(0, 40)}…` : v}' does not match ${s.pattern}`;
  if (typeof v === 'number') {
    if (s.minimum !== undefined && v < s.minimum) return `${path}: ${v} is below ${s.minimum}`;
    if (s.maximum !== undefined && v > s.maximum) return `${path}: ${v} is above ${s.maximum}`;
  }
  if (Array.isArray(v)) {
    if (s.minItems !== undefined && v.length < s.minItems) return `${path}: fewer than ${s.minItems} items`;
    if (s.maxItems !== undefined && v.length > s.maxItems) return `${path}: more than ${s.maxItems} items`;
    if (s.items)
      for (let i = 0; i < v.length; i++) {
        const r = check(root, s.items, v[i], `${path}[${i}]`, o);
        if (r) return r;
      }
  }
  if (typeOf(v) === 'object') {
    const obj = v as Record<string, unknown>;
    for (const k of s.required ?? []) if (!(k in obj)) return `${path}: '${k}' is required`;
    for (const [k, x] of Object.entries(obj)) {
      const p = `${path}.${k}`;
      if (s.propertyNames) {
        const r = check(root, s.propertyNames, k, `${path} key '${k}'`, o);
        if (r) return r;
      }
      const ps = s.properties?.[k];
      if (ps) {
        const r = check(root, ps, x, p, o);
        if (r) return r;
      } else if (s.additionalProperties === false) {
        if (!o.allowUnknownProperties) return `${path}: unknown property '${k}'`;
      } else if (typeof s.additionalProperties === 'object') {
        const r = check(root, s.additionalProperties, x, p, o);
        if (r) return r;
      }
    }
  }
  if (s.oneOf !== undefined) {
    const results = s.oneOf.map((b) => check(root, b, v, path, o));
    const passed = results.filter((r) => r === undefined).length;
    if (passed === 0) {
      // Report the branch whose `kind` (or type) matches, else all of them.
      const kind = typeOf(v) === 'object' ? (v as Record<string, unknown>).kind : undefined;
      const i = s.oneOf.findIndex((b) => {
        const d = b.$ref ? resolve(root, b.$ref) : b;
        return kind !== undefined && d.properties?.kind?.const === kind;
      });
      if (i >= 0) return results[i];
      return `${path}: matches none of its ${s.oneOf.length} forms (${results.join('; ')})`;
    }
    if (passed > 1) return `${path}: matches more than one form`;
  }
  return undefined;
}
