// The command line every generator process shares (generator-process.ts starts them): one argument, the options as
// JSON; progress as JSON lines on stderr; one JSON summary line on stdout, then exit 0. Unreadable options: usage and
// exit 2, before anything is sent; a run that throws (a refused target or bound...): a `failed` line and exit 1.
export type GeneratorLog = (event: string, detail: Record<string, unknown>) => void;

export interface GeneratorCommand {
  /** The entry file, for the usage line (churn-main.ts...). */
  script: string;
  /** `component` of its progress lines. */
  component: string;
  /** An options JSON for the usage line. */
  example: string;
}

export async function generatorMain<O, S>(command: GeneratorCommand, run: (options: O, log: GeneratorLog) => Promise<S>): Promise<never> {
  let options: O;
  try {
    const raw = process.argv[2];
    if (!raw) throw new Error('the options JSON is missing');
    options = JSON.parse(raw) as O;
  } catch (error) {
    console.error(`${command.script}: ${error instanceof Error ? error.message : String(error)}\nusage: ${command.script} '${command.example}'`);
    process.exit(2);
  }
  const log: GeneratorLog = (event, detail) => console.error(JSON.stringify({ t: new Date().toISOString(), component: command.component, event, ...detail }));
  try {
    console.log(JSON.stringify(await run(options, log)));
  } catch (error) {
    // A refused target or option, or a failure mid-run: one line saying which, and no summary.
    log('failed', { error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  process.exit(0);
}
