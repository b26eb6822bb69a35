import type { BenchReport } from './bench-context';
import type { Measurement, Target } from './measure';

const pad = (value: string, width: number) => value.padStart(width);

/** The verdict on a row's target: ratios to the bare baseline of the same run survive a noisy machine. */
function verdict(row: Measurement, target: Target | undefined, baseline: Measurement): string {
  if (!target) return '';
  if (target.kind === 'vsBare') {
    const ok = row.requestsPerSecond >= target.min * baseline.requestsPerSecond;
    return `${ok ? 'met' : 'MISSED'} (>= ${Math.round(target.min * 100)}% bare)`;
  }
  return `${row.p99Ms <= target.maxMs ? 'met' : 'MISSED'} (p99 <= ${target.maxMs} ms)`;
}

/**
 * Prints each row beside the bare Express baseline of the same run. `conn` is the number of concurrent
 * connections: latency targets are judged at 1 (a single client's requests), throughput at 10.
 */
export function printReport(baseline: Measurement, report: BenchReport): void {
  const lines = [
    `${'scenario'.padEnd(58)}${pad('conn', 5)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('vs bare', 9)}${pad('errors', 8)}  target`,
  ];
  for (const row of [baseline, ...report.rows]) {
    const ratio = `${Math.round((row.requestsPerSecond / baseline.requestsPerSecond) * 100)}%`;
    lines.push(
      `${row.name.padEnd(58)}${pad(String(row.connections), 5)}${pad(row.requestsPerSecond.toFixed(0), 9)}${pad(row.p50Ms.toFixed(1), 9)}${pad(row.p99Ms.toFixed(1), 9)}${pad(ratio, 9)}${pad(String(row.errors), 8)}  ${verdict(row, row.target, baseline)}`,
    );
  }
  for (const note of report.notes) lines.push(`${note.name}: ${note.value}`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
