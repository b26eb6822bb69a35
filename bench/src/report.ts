import type { BenchReport } from './bench-context';
import type { Measurement } from './measure';

const pad = (value: string, width: number) => value.padStart(width);

/** Prints each row beside the bare Express baseline of the same run: ratios survive a noisy machine. */
export function printReport(baseline: Measurement, report: BenchReport): void {
  const lines = [
    `${'scenario'.padEnd(44)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('vs bare', 9)}${pad('errors', 8)}`,
  ];
  for (const row of [baseline, ...report.rows]) {
    const ratio = `${Math.round((row.requestsPerSecond / baseline.requestsPerSecond) * 100)}%`;
    lines.push(
      `${row.name.padEnd(44)}${pad(row.requestsPerSecond.toFixed(0), 10)}${pad(row.p50Ms.toFixed(1), 9)}${pad(row.p99Ms.toFixed(1), 9)}${pad(ratio, 9)}${pad(String(row.errors), 8)}`,
    );
  }
  for (const note of report.notes) lines.push(`${note.name}: ${note.value}`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
