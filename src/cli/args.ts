/** A small, strict argument reader: every flag a command takes is declared, anything else is an error. */

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ParsedArgs {
  readonly flags: ReadonlyMap<string, string | true>;
  readonly positional: readonly string[];
}

/** `valued` flags take the next argument; `boolean` flags stand alone. */
export function parseArgs(
  argv: readonly string[],
  spec: { valued: readonly string[]; boolean: readonly string[] },
): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-' || !a.startsWith('-')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = (eq >= 0 ? a.slice(0, eq) : a).replace(/^--?/, '');
    if (spec.valued.includes(name)) {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, v);
    } else if (spec.boolean.includes(name) && eq < 0) {
      flags.set(name, true);
    } else {
      throw new UsageError(`unknown option ${a}`);
    }
  }
  return { flags, positional };
}

export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}
