import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './compose-file';

/** infra/docker/Dockerfile read into its stages, enough to check what each image runs and as whom. */
export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

export const dockerfilePath = join(repoRoot, 'infra/docker/Dockerfile');

export function readDockerfile(path = dockerfilePath): { args: Record<string, string>; stages: Stage[] } {
  // Continuation lines joined, comments dropped.
  const lines = readFileSync(path, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line)!;
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest)!;
      stages.push({ name: name ?? `stage${stages.length}`, from, instructions: [] });
    } else if (upper === 'ARG' && !stages.length) {
      const [name, value] = rest.split('=');
      args[name] = value;
    } else {
      stages.at(-1)!.instructions.push({ keyword: upper, args: rest });
    }
  }
  return { args, stages };
}

/** A target's instructions with those of the stages it is built FROM first, as Docker applies them. */
export function chainOf(stages: Stage[], target: string): Instruction[] {
  const stage = stages.find((s) => s.name === target);
  if (!stage) throw new Error(`no stage ${target} in the Dockerfile`);
  const parent = stages.some((s) => s.name === stage.from) ? chainOf(stages, stage.from) : [];
  return [...parent, ...stage.instructions];
}

/** The last value of an exec-form instruction (CMD, ENTRYPOINT) in a chain, as an argument list. */
export function execFormOf(chain: Instruction[], keyword: string): string[] | undefined {
  const found = chain.filter((i) => i.keyword === keyword).at(-1);
  return found ? (JSON.parse(found.args) as string[]) : undefined;
}

/** ENV KEY=VALUE lines of a chain: the container's environment before compose adds its own. */
export function envOf(chain: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of chain) {
    if (keyword !== 'ENV') continue;
    for (const pair of args.split(/\s+/)) {
      const [name, ...value] = pair.split('=');
      env[name] = value.join('=');
    }
  }
  return env;
}
