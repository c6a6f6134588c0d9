// Runs a Node program to its end, as an operator would from a shell, keeping what it printed.
import { spawn } from "node:child_process";

export type Run = { code: number | null; stdout: string; stderr: string; output: string };

/**
 * Runs `node ...args` and resolves when it exits; `output` is stdout and stderr interleaved as
 * they arrived. With `stdin` that text is piped in and closed; without it stdin is not connected.
 */
export function runNode(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; stdin?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr!.on("data", (chunk) => {
      stderr += chunk;
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, output }));
    if (options.stdin !== undefined) child.stdin!.end(options.stdin);
  });
}
