// Paths on a command line mean what the user typed: relative to the directory the command was run in.
// npm runs a workspace's script inside the workspace folder and a nested `npm run` resets INIT_CWD to its own
// folder, so the root package.json's scripts pass the user's directory on as PCC_USER_CWD; INIT_CWD is what
// npm records for a direct `npm run`; without npm it is the process's own directory.
import { resolve } from 'node:path';

/** The directory the user ran the command in. */
export function userCwd(): string {
  return process.env.PCC_USER_CWD || process.env.INIT_CWD || process.cwd();
}

/** `path` as the user meant it: absolute paths as they are, relative ones against the user's directory. */
export function userPath(path: string): string {
  return resolve(userCwd(), path);
}
