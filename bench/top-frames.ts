// Names the functions a CPU profile spent its time in (self time, and time including callees, per function), for
// docs/benchmarks.md. Run: npx tsx bench/top-frames.ts FILE.cpuprofile [--top N]
import fs from 'node:fs';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] }
const file = process.argv[2];
const top = Number(process.argv[process.argv.indexOf('--top') + 1]) || 25;
const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[] };
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n: Node) => {
  const url = n.callFrame.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
  const short = url.includes('node_modules/') ? url.slice(url.lastIndexOf('node_modules/') + 13) : url;
  return `${n.callFrame.functionName || '(anonymous)'} ${short}:${n.callFrame.lineNumber + 1}`;
};
const self = new Map<string, number>();
const total = new Map<string, number>();
const pkgSelf = new Map<string, number>();
for (const s of prof.samples) {
  const leaf = byId.get(s)!;
  self.set(name(leaf), (self.get(name(leaf)) ?? 0) + 1);
  const url = leaf.callFrame.url;
  const pkg = url.includes('node_modules/') ? url.slice(url.lastIndexOf('node_modules/') + 13).split('/').slice(0, url.includes('node_modules/@') ? 2 : 1).join('/') : url.startsWith('file://') ? 'fleetops (src)' : leaf.callFrame.functionName.startsWith('(') ? leaf.callFrame.functionName : 'node internals';
  pkgSelf.set(pkg, (pkgSelf.get(pkg) ?? 0) + 1);
  const seen = new Set<string>();
  for (let id: number | undefined = s; id !== undefined; id = parent.get(id)) {
    const k = name(byId.get(id)!);
    if (seen.has(k)) continue;
    seen.add(k);
    total.set(k, (total.get(k) ?? 0) + 1);
  }
}
const n = prof.samples.length;
const pct = (v: number) => `${((100 * v) / n).toFixed(1)} %`;
const print = (title: string, m: Map<string, number>, k: number) => {
  console.log(`\n${title}`);
  for (const [f, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, k)) console.log(`${pct(v).padStart(7)}  ${f}`);
};
print('self time by package', pkgSelf, 15);
print('self time by function', self, top);
print('time including callees, by function', total, top);
