import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './processes';

// Runs a TypeScript helper of the benches in its own Node process (through swc), so the load it
// generates or the baseline it serves does not share an event loop with what is measured.

/** Runs `script` to the end and returns the last JSON line it printed on stdout. */
export function runScriptForJson<T>(script: string, args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, '-r', '@swc-node/register', script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').filter((l) => l.startsWith('{')).pop();
      if (code !== 0 || !line) return reject(new Error(`${script} exited ${code}: ${err.slice(-2000) || out.slice(-2000)}`));
      try {
        resolve(JSON.parse(line) as T);
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}

export interface ServingScript {
  child: ChildProcess;
  /** The first JSON line the script printed (its address, for example). */
  hello: Record<string, unknown>;
  stop(): Promise<void>;
}

/** Starts a long-running helper and resolves with the first JSON line it prints. */
export function startServingScript(script: string, args: string[] = [], env: Record<string, string> = {}): Promise<ServingScript> {
  return new Promise<ServingScript>((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    const stop = async (): Promise<void> => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    };
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const nl = out.indexOf('\n');
      if (nl >= 0 && out.startsWith('{')) {
        try {
          resolve({ child, hello: JSON.parse(out.slice(0, nl)) as Record<string, unknown>, stop });
        } catch (e) {
          reject(e as Error);
        }
      }
    });
    void exited.then(() => reject(new Error(`${script} exited before it was ready: ${err.slice(-2000)}`)));
  });
}
