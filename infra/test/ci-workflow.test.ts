import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './support/compose-file';

/** .github/workflows/ci.yml: pinned actions, least permissions, the pnpm store cached, the image smoke job. */
const text = readFileSync(join(repoRoot, '.github/workflows/ci.yml'), 'utf8');
const workflow = parse(text) as {
  permissions: Record<string, string>;
  jobs: Record<string, { steps: { uses?: string; run?: string; with?: Record<string, string> }[] }>;
};
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

describe('GitHub Actions workflow', () => {
  it('pins every action by full commit SHA, with the released version in a comment', () => {
    const uses = text.split('\n').filter((line) => /\buses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
  });

  it('reads the repository only, and caches the pnpm store keyed on the lockfile', () => {
    expect(workflow.permissions).toEqual({ contents: 'read' });
    const cache = steps.find((step) => step.uses?.startsWith('actions/cache@'))!;
    expect(cache.with!.key).toContain("hashFiles('pnpm-lock.yaml')");
    expect(cache.with!.path).toContain('pnpm-store');
  });

  it('runs the test command, and builds and boots the images with compose', () => {
    expect(steps.some((step) => step.run === 'npm test')).toBe(true);
    const images = workflow.jobs.images.steps.map((step) => step.run ?? '').join('\n');
    expect(images).toContain('docker compose --profile tools build');
    expect(images).toContain('docker compose up -d --wait');
    expect(images).toContain('docker compose run --rm cli user:create');
  });
});
