import type { BenchContext } from './bench-context';

export interface BenchSuite {
  /** Short name to select it: `npm run bench -- me`. */
  name: string;
  run(context: BenchContext): Promise<void>;
}
