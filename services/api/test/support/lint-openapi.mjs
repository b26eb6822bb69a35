// Lints an OpenAPI document read from stdin with Redocly's engine (what `redocly lint` runs) and the rules
// of services/api/redocly.yaml; prints the problems as JSON. A separate process because the engine is an
// ES module, which Jest's CommonJS runtime cannot load.
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { fileURLToPath } from 'node:url';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const config = await loadConfig({
  configPath: fileURLToPath(new URL('../../redocly.yaml', import.meta.url)),
});
const problems = await lintFromString({
  source: Buffer.concat(chunks).toString('utf8'),
  absoluteRef: 'openapi.json',
  config,
});
const found = problems.map((problem) => ({
  rule: problem.ruleId,
  severity: problem.severity,
  message: problem.message,
  where: problem.location.map((location) => location.pointer).join(' '),
}));
process.stdout.write(JSON.stringify(found));
