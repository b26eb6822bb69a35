import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { apiConfigShape } from '../../services/api/src/config';
import { authConfigShape } from '../../services/auth/src/config';
import { workerConfigShape } from '../../services/worker/src/config';
import { cliConfigShape } from './support/cli-shape';
import { k8sDir, Manifest, readManifests, schemaProblems } from './support/k8s-manifests';

/** infra/k8s is valid Kubernetes (schema-checked, no cluster here) and wires PFS the way the services expect. */
const manifests = readManifests();
const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const named = (kind: string, name: string) =>
  manifests.find((m) => m.kind === kind && m.metadata.name === name)!;
const shapes: Record<string, Record<string, unknown>> = {
  'pfs-auth': authConfigShape,
  'pfs-api': apiConfigShape,
  'pfs-worker': workerConfigShape,
  'pfs-migrate': cliConfigShape,
};
const containerOf = (workload: Manifest) => workload.spec.template.spec.containers[0];
const config = named('ConfigMap', 'pfs-config').data!;
const secretKeys = Object.keys(named('Secret', 'pfs-secrets').stringData!);

/** Every variable a workload's container gets: its env, and the ConfigMap it loads whole. */
function variablesOf(workload: Manifest): string[] {
  const container = containerOf(workload);
  const fromConfigMap = container.envFrom?.some((e: { configMapRef?: unknown }) => e.configMapRef)
    ? Object.keys(config)
    : [];
  return [...fromConfigMap, ...container.env.map((e: { name: string }) => e.name)];
}

describe('infra/k8s', () => {
  it.each(manifests.map((m) => [`${m.file}: ${m.kind} ${m.metadata.name}`, m]))(
    '%s is valid against the Kubernetes schema',
    (_label, manifest) => {
      expect(schemaProblems(manifest as Manifest)).toEqual([]);
    },
  );

  it('when an object is invalid, then the schema check says where', () => {
    const broken = { ...named('Deployment', 'pfs-api'), spec: { replicas: 'two' } } as Manifest;
    expect(schemaProblems(broken).join()).toMatch(/spec/);
  });

  it('kustomization.yaml applies every manifest except the migration Job, which runs first on its own', () => {
    const kustomization = parse(readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
    };
    const files = [...new Set(manifests.map((m) => m.file))].filter((f) => f !== 'job-migrate.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    expect(named('Job', 'pfs-migrate').file).toBe('job-migrate.yaml');
  });

  it.each(['pfs-auth', 'pfs-api', 'pfs-worker'])(
    '%s: liveness /health/live and readiness /health/ready on the port it listens on, requests and limits, non-root',
    (name) => {
      const deployment = named('Deployment', name);
      const container = containerOf(deployment);
      expect(container.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(container.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
      const listenPort = container.env.find(
        (e: { name: string }) => /_PORT$/.test(e.name) && !/METRICS/.test(e.name),
      );
      expect(Number(listenPort.value)).toBe(
        container.ports.find((p: { name: string }) => p.name === 'http').containerPort,
      );
      for (const kind of ['requests', 'limits'])
        expect(Object.keys(container.resources[kind]).sort()).toEqual(['cpu', 'memory']);
      expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
      expect(container.image).toMatch(/:\d+\.\d+\.\d+$/);
    },
  );

  it.each(Object.keys(shapes))(
    '%s: every variable it gets is one its config reads, secrets from the Secret',
    (name) => {
      const workload = manifests.find(
        (m) => m.metadata.name === name && (m.kind === 'Deployment' || m.kind === 'Job'),
      )!;
      const shape = shapes[name];
      const unread = variablesOf(workload).filter(
        (variable) => !(variable in shape) && !(variable in config),
      );
      expect(unread).toEqual([]);
      for (const env of containerOf(workload).env) {
        if (env.valueFrom) expect(secretKeys).toContain(env.valueFrom.secretKeyRef.key);
      }
      // Secrets never sit in the ConfigMap.
      expect(Object.keys(config).filter((key) => /SECRET|KEY|PASSWORD|DATABASE_URL/.test(key))).toEqual([]);
    },
  );

  it('ConfigMap keys are variables some service reads (a typo would be silently ignored)', () => {
    const known = new Set(Object.values(shapes).flatMap((shape) => Object.keys(shape)));
    expect(Object.keys(config).filter((key) => !known.has(key))).toEqual([]);
  });

  it('a PodDisruptionBudget covers each Deployment, and the HPA scales the api Deployment', () => {
    for (const deployment of ofKind('Deployment')) {
      const labels = deployment.spec.template.metadata.labels;
      const budgets = ofKind('PodDisruptionBudget').filter((pdb) =>
        Object.entries(pdb.spec.selector.matchLabels).every(([key, value]) => labels[key] === value),
      );
      expect([deployment.metadata.name, budgets.length]).toEqual([deployment.metadata.name, 1]);
    }
    const hpa = named('HorizontalPodAutoscaler', 'pfs-api');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'pfs-api' });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });

  it('the Ingress routes to Services that select a Deployment, and the migration Job runs the CLI migrate', () => {
    const backends = named('Ingress', 'pfs').spec.rules.flatMap(
      (rule: { http: { paths: { backend: { service: { name: string } } }[] } }) =>
        rule.http.paths.map((path) => path.backend.service.name),
    );
    expect(backends.sort()).toEqual(['pfs-api', 'pfs-auth']);
    for (const name of backends) {
      const selector = named('Service', name).spec.selector;
      expect(named('Deployment', name).spec.template.metadata.labels).toMatchObject(selector);
    }
    const job = containerOf(named('Job', 'pfs-migrate'));
    expect([job.image, job.args]).toEqual([expect.stringMatching(/pfs-cli:\d+\.\d+\.\d+$/), ['migrate']]);
  });
});
