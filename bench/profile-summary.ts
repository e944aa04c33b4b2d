// `node dist/bench/profile-summary.js <file.cpuprofile> [top]`: where a CPU profile's time went,
// by package (node_modules/<package>, node: internals, the project's own folders) and by
// function (self time). Used to name a benchmark's bottleneck (bench/README.md).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node dist/bench/profile-summary.js <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** The package or folder a script URL belongs to. */
function owner(url: string): string {
  if (url === '') return '(native, GC, idle)';
  if (url.startsWith('node:')) return url.split('/')[0] as string;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1] as string;
  const own = /\/dist\/((?:apps|libs)\/[^/]+\/src\/[^/]+|bench\/[^/]+)/.exec(url);
  return own ? (own[1] as string) : url;
}

const packages = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const pkg = owner(url);
  packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}` : ''}`;
  functions.set(name, (functions.get(name) ?? 0) + us);
}
const print = (title: string, entries: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(
      `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}\n`,
    );
  }
};
process.stdout.write(`${file}: ${(total / 1000).toFixed(0)} ms sampled\n`);
print('self time by package or folder', packages);
print('self time by function', functions);
