import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from './compose-file';

export const k8sDir = join(repoRoot, 'infra/k8s');

/** A Kubernetes object read from infra/k8s, with the file it came from. */
export interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  // Shapes differ by kind; the schema validation checks them, the tests read a few fields.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export function readManifests(): Manifest[] {
  return readdirSync(k8sDir)
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(k8sDir, file), 'utf8'))
        .map((document) => document.toJS() as Omit<Manifest, 'file'> | null)
        .filter((manifest): manifest is Omit<Manifest, 'file'> => manifest !== null)
        .map((manifest) => ({ ...manifest, file })),
    );
}

/**
 * Validates one object against the Kubernetes OpenAPI schema of its apiVersion and kind, as shipped by the
 * pinned `kubernetes-models` package (its ajv-compiled validators). Returns the problems, none when valid.
 */
export function schemaProblems(manifest: Manifest): string[] {
  const { file: _file, ...object } = manifest;
  let Model: new (data: unknown) => { validate(): void };
  try {
    // The package lays its models out by apiVersion: kubernetes-models/apps/v1/Deployment.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    Model = require(`kubernetes-models/${manifest.apiVersion}/${manifest.kind}`)[manifest.kind];
  } catch {
    return [`no Kubernetes schema for ${manifest.apiVersion} ${manifest.kind}`];
  }
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}
