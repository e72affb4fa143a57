// Runs a command-line tool with a time limit and no shell; output as a Buffer.
import { execFile } from 'node:child_process';

export interface ToolResult {
  stdout: Buffer;
  stderr: string;
}

export class ToolError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export function runTool(command: string, args: readonly string[], options: { timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...args],
      { encoding: 'buffer', timeout: options.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024, env: options.env ?? process.env, windowsHide: true },
      (error, stdout, stderr) => {
        const err = stderr.toString('utf8');
        if (error) {
          const timedOut = (error as { killed?: boolean }).killed === true;
          const code = (error as { code?: unknown }).code;
          const why = code === 'ENOENT' ? `${command} is not installed` : timedOut ? `${command} took longer than ${options.timeoutMs} ms` : `${command} failed: ${err.trim().split('\n').slice(-3).join(' ') || error.message}`;
          reject(new ToolError(why, err, timedOut));
          return;
        }
        resolve({ stdout, stderr: err });
      },
    );
  });
}
