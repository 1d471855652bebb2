// Minimal --flag value parser with clear errors (no dependency needed for two CLIs).
export interface FlagSpec {
  /** 'string' | 'number' | 'boolean' (boolean flags take no value); 'list' collects repeated values. */
  type: 'string' | 'number' | 'boolean' | 'list';
  help: string;
  default?: string | number | boolean;
}

export type ParsedFlags = { positional: string[]; values: Record<string, string | number | boolean | string[] | undefined> };

export class UsageError extends Error {}

export function parseFlags(argv: string[], specs: Record<string, FlagSpec>): ParsedFlags {
  const values: ParsedFlags['values'] = {};
  for (const [name, spec] of Object.entries(specs)) values[name] = spec.type === 'list' ? [] : spec.default;
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = specs[name];
    if (!spec) throw new UsageError(`unknown option --${name}`);
    if (spec.type === 'boolean') {
      values[name] = true;
      continue;
    }
    const raw = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (raw === undefined) throw new UsageError(`--${name} needs a value`);
    if (spec.type === 'number') {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got ${JSON.stringify(raw)}`);
      values[name] = n;
    } else if (spec.type === 'list') {
      (values[name] as string[]).push(raw);
    } else {
      values[name] = raw;
    }
  }
  return { positional, values };
}

export function usage(title: string, specs: Record<string, FlagSpec>): string {
  const lines = [title, '', 'Options:'];
  for (const [name, spec] of Object.entries(specs)) {
    const value = spec.type === 'boolean' ? '' : spec.type === 'number' ? ' N' : ' VALUE';
    const def = spec.default !== undefined && spec.type !== 'boolean' ? ` (default ${spec.default})` : '';
    const left = `  --${name}${value}`;
    // Names longer than the column still get two spaces before their help.
    lines.push((left.length > 26 ? `${left}  ` : left.padEnd(28)) + spec.help + def);
  }
  return lines.join('\n');
}
