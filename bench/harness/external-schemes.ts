// Peers the bench runs beside our schemes but does not ship: implementations a user builds from their own
// checkout and names on the command line. They are not in @pcc-stream/protocol's registry, which lists what the
// origin and the player serve; a scenario may name them, the CLI refuses them without their option, and a suite
// that lists them skips them (with a note in summary.md) when the option is absent.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const EXTERNAL_SCHEMES = [
  {
    name: 'pcc-uspace',
    option: '--uspace',
    description: 'PCC-Uspace, the PCC authors\' user-space Vivace over UDT (its own sender and receiver; bulk scenarios only)',
  },
] as const;

export type ExternalSchemeName = (typeof EXTERNAL_SCHEMES)[number]['name'];
export const EXTERNAL_SCHEME_NAMES: readonly ExternalSchemeName[] = EXTERNAL_SCHEMES.map((s) => s.name);

export function isExternalScheme(name: string): name is ExternalSchemeName {
  return (EXTERNAL_SCHEME_NAMES as readonly string[]).includes(name);
}

export function externalScheme(name: ExternalSchemeName): (typeof EXTERNAL_SCHEMES)[number] {
  return EXTERNAL_SCHEMES.find((s) => s.name === name)!;
}

/** Why a suite's external scheme did not run, kept in the results directory for summary.md. */
const SKIPPED_FILE = 'skipped-schemes.json';

export function recordSkippedSchemes(outDir: string, skipped: Readonly<Record<string, string>>): void {
  if (Object.keys(skipped).length > 0) writeFileSync(join(outDir, SKIPPED_FILE), `${JSON.stringify(skipped, null, 2)}\n`);
}

/** summary.md lines naming each skipped scheme and why (none when nothing was skipped). */
export function skippedSchemesMarkdown(outDir: string): string[] {
  const path = join(outDir, SKIPPED_FILE);
  if (!existsSync(path)) return [];
  const skipped = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
  return ['### Skipped schemes', '', ...Object.entries(skipped).map(([scheme, why]) => `- \`${scheme}\`: ${why}`), ''];
}

export interface ExternalSelection<S extends { name: string; schemes: readonly string[] }> {
  scenarios: S[];
  /** scheme → why it did not run. */
  skipped: Record<string, string>;
}

/**
 * Applies the rule for external schemes to a plan's scenarios: one whose option was not given (`given` holds the
 * options that were) is an error where the user named it (a scenario file, `--schemes`), and is dropped, with a
 * note, from the scenarios of a suite (`suiteScenarioNames`). Scenarios left without a scheme are dropped.
 */
export function selectExternalSchemes<S extends { name: string; schemes: readonly string[] }>(
  scenarios: readonly S[], suiteScenarioNames: ReadonlySet<string>, namedOnCommandLine: readonly string[], given: ReadonlySet<string>,
): ExternalSelection<S> {
  const skipped: Record<string, string> = {};
  const missing = EXTERNAL_SCHEMES.filter((s) => !given.has(s.option));
  for (const scheme of missing) {
    const hint = `${scheme.name} is ${scheme.description}: give ${scheme.option} DIR with your build (bench/harness/README.md)`;
    if (namedOnCommandLine.includes(scheme.name)) throw new Error(`--schemes ${scheme.name}: ${hint}`);
    const inFile = scenarios.find((sc) => !suiteScenarioNames.has(sc.name) && sc.schemes.includes(scheme.name));
    if (inFile) throw new Error(`scenario ${inFile.name} names ${hint}`);
    if (scenarios.some((sc) => sc.schemes.includes(scheme.name))) skipped[scheme.name] = `not run: no ${scheme.option} DIR given (${scheme.description})`;
  }
  const dropped = new Set<string>(missing.map((s) => s.name));
  const kept = scenarios
    .map((sc) => ({ ...sc, schemes: sc.schemes.filter((s) => !dropped.has(s)) }))
    .filter((sc) => sc.schemes.length > 0);
  return { scenarios: kept, skipped };
}
