import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Reads a V8 .cpuprofile (written by `node --cpu-prof`) and sums self time by package and by
// function, so a bench can say where a process spends its CPU without opening DevTools.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface ProfileShare {
  name: string;
  /** Share of the busy (non-idle) samples, in percent. */
  percent: number;
}

export interface ProfileSummary {
  file: string;
  busyPercentOfWall: number;
  byPackage: ProfileShare[];
  byFunction: ProfileShare[];
}

/** Where a frame's code lives: an npm package, our own code (app or lib), Node itself, or V8. */
export function ownerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node core';
  // Prisma 7's query compiler is the only WebAssembly module the apps load.
  if (url.startsWith('wasm://')) return '@prisma/client (query compiler, wasm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const ours = /(apps\/[^/]+|libs\/[^/]+)\//.exec(url);
  return ours ? `ours: ${ours[1]}` : url;
}

export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const totalSamples = profile.nodes.reduce((n, node) => n + (node.hitCount ?? 0), 0);
  const idle = profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').reduce((n, node) => n + (node.hitCount ?? 0), 0);
  const busy = Math.max(1, totalSamples - idle);
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (hits === 0 || functionName === '(idle)') continue;
    const owner = ownerOf(url, functionName);
    byPackage.set(owner, (byPackage.get(owner) ?? 0) + hits);
    const where = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where} [${owner}]`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  }
  const shares = (m: Map<string, number>): ProfileShare[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({ name, percent: Math.round((hits / busy) * 1000) / 10 }));
  return {
    file,
    busyPercentOfWall: Math.round(((totalSamples - idle) / Math.max(1, totalSamples)) * 1000) / 10,
    byPackage: shares(byPackage),
    byFunction: shares(byFunction),
  };
}

/** The newest .cpuprofile in a directory (node names them by time and pid). */
export function newestProfile(dir: string): string | undefined {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  files.sort();
  return files.length ? path.join(dir, files[files.length - 1]) : undefined;
}
