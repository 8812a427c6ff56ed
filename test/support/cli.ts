import { runCli } from '@agent-trace/cli';

/** Runs the `agent-trace` command in-process, without a terminal, and returns what it printed. */
export async function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    stdout: text => out.push(text),
    stderr: text => err.push(text),
    env,
    isTTY: false,
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}
