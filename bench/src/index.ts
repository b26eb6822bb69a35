/** For suites and tools that need the bench building blocks. */
export type { BenchContext } from './bench-context';
export type { BenchSuite } from './bench-suite';
export { measure } from './measure';
export type { Measurement, MeasureOptions } from './measure';
export { cpuMillisOf, peakRssBytesOf, startServiceProcess } from './service-process';
