import type { BenchReport } from './bench-context';
import type { Measurement, Target } from './measure';

const pad = (value: string, width: number) => value.padStart(width);
const percent = (value: number, of: number) => `${Math.round((value / of) * 100)}%`;

/** The verdict on a row's target: ratios to a ceiling of the same run survive a noisy machine. */
function verdict(row: Measurement, target: Target | undefined, baseline: Measurement): string {
  if (!target) return '';
  if (!row.requests) return 'NO FIGURE (no request finished within the window)';
  if (target.kind === 'vsBare') {
    const ok = row.requestsPerSecond >= target.min * baseline.requestsPerSecond;
    return `${ok ? 'met' : 'MISSED'} (>= ${Math.round(target.min * 100)}% bare)`;
  }
  if (target.kind === 'vsCeiling') {
    const ok = !!row.ceiling && row.requestsPerSecond >= target.min * row.ceiling.requestsPerSecond;
    return `${ok ? 'met' : 'MISSED'} (>= ${Math.round(target.min * 100)}% ceiling)`;
  }
  return `${row.p99Ms <= target.maxMs ? 'met' : 'MISSED'} (p99 <= ${target.maxMs} ms)`;
}

/**
 * Prints each row beside the bare Express baseline of the same run and, when it has one, beside its own
 * ceiling (bare Express replaying the identical bytes and headers, measured just before it). `conn` is the
 * number of concurrent connections.
 */
export function printReport(baseline: Measurement, report: BenchReport): void {
  const lines = [
    `${'scenario'.padEnd(72)}${pad('conn', 5)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('vs bare', 9)}${pad('ceiling', 9)}${pad('c. p99', 9)}${pad('vs ceil', 9)}${pad('errors', 8)}  target`,
  ];
  for (const row of [baseline, ...report.rows]) {
    const { ceiling } = row;
    lines.push(
      `${row.name.padEnd(72)}${pad(String(row.connections), 5)}${pad(row.requestsPerSecond.toFixed(0), 9)}${pad(row.p50Ms.toFixed(1), 9)}${pad(row.p99Ms.toFixed(1), 9)}${pad(percent(row.requestsPerSecond, baseline.requestsPerSecond), 9)}${pad(ceiling ? ceiling.requestsPerSecond.toFixed(0) : '', 9)}${pad(ceiling ? ceiling.p99Ms.toFixed(1) : '', 9)}${pad(ceiling ? percent(row.requestsPerSecond, ceiling.requestsPerSecond) : '', 9)}${pad(String(row.errors + (ceiling?.errors ?? 0)), 8)}  ${verdict(row, row.target, baseline)}`,
    );
  }
  for (const note of report.notes) lines.push(`${note.name}: ${note.value}`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
