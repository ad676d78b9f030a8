// Loaded into the service by bench/memory.ts --detail (node --require): on SIGUSR2 it writes its memory figures
// (process.memoryUsage, V8 heap spaces, malloc) to stderr.
const v8 = require('v8');
v8.setFlagsFromString('--expose-gc');
const gc = require('vm').runInNewContext('gc');
process.on('SIGUSR2', () => {
  const m = process.memoryUsage();
  const f = (b) => (b / 2 ** 20).toFixed(1);
  const lines = [`rss ${f(m.rss)} heapTotal ${f(m.heapTotal)} heapUsed ${f(m.heapUsed)} external ${f(m.external)} arrayBuffers ${f(m.arrayBuffers)}`];
  for (const s of v8.getHeapSpaceStatistics()) lines.push(`  ${s.space_name} size ${f(s.space_size)} used ${f(s.space_used_size)} phys ${f(s.physical_space_size)}`);
  const h = v8.getHeapStatistics();
  lines.push(`  malloced ${f(h.malloced_memory)} peak_malloced ${f(h.peak_malloced_memory)} external ${f(h.external_memory)} code+meta ${f(h.total_heap_size_executable)}`);
  gc();
  lines.push(`  after a full gc: heapUsed ${f(process.memoryUsage().heapUsed)} old_space used ${f(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size)}`);
  require('fs').writeSync(2, lines.join('\n') + '\n');
});
