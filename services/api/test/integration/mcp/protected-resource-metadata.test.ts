import { MCP_SCOPES } from '@pfs/contracts';
import { testLogger } from '@pfs/testing';
import type { Express } from 'express';
import request from 'supertest';
import { buildApiApp } from '../../../src/app';
import { loadApiConfig } from '../../../src/config';
import { ApiDependencies, createApiDependencies } from '../../../src/dependencies';

/** RFC 9728: the API names its authorization server, and its 401s point at that document. */
describe('OAuth 2.0 protected resource metadata', () => {
  let deps: ApiDependencies;
  let api: Express;
  const env = { BASE_URL: 'https://api.example.test', AUTH_URL: 'https://auth.example.test' };

  beforeAll(async () => {
    deps = await createApiDependencies(loadApiConfig({ ...process.env, ...env }), testLogger());
    api = buildApiApp(deps);
  });
  afterAll(async () => {
    await deps.close();
  });

  it.each([
    ['/.well-known/oauth-protected-resource', 'https://api.example.test'],
    ['/.well-known/oauth-protected-resource/mcp', 'https://api.example.test/mcp'],
  ])(
    'when %s is read without a token, then it names the resource and the authorization server',
    async (path, resource) => {
      const answer = await request(api).get(path).expect(200);
      expect(answer.body).toEqual({
        resource,
        authorization_servers: ['https://auth.example.test'],
        scopes_supported: [...MCP_SCOPES],
        bearer_methods_supported: ['header'],
        resource_name: 'PFS (Personal Finance Service)',
        resource_documentation: 'https://api.example.test/docs',
      });
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    },
  );

  it('when /mcp is called without a token, then 401 whose challenge names the /mcp metadata', async () => {
    const answer = await request(api).post('/mcp').send({}).expect(401);
    expect(answer.headers['www-authenticate']).toMatch(
      /^Bearer realm="pfs", resource_metadata="https:\/\/api\.example\.test\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
  });

  it('when another route is called with an unknown token, then the challenge names the API metadata and invalid_token', async () => {
    const answer = await request(api).get('/entries').set('Authorization', 'Bearer nope').expect(401);
    expect(answer.headers['www-authenticate']).toContain(
      'resource_metadata="https://api.example.test/.well-known/oauth-protected-resource", error="invalid_token"',
    );
  });

  it('when /openapi.json is read, then it publishes POST /mcp and the two metadata documents, marked as protocol paths', async () => {
    const doc = (await request(api).get('/openapi.json').expect(200)).body;
    expect(doc.paths['/mcp'].post).toMatchObject({
      operationId: 'mcp.post',
      'x-pfs-protocol': 'mcp',
      security: [{ oauth2: [] }, { personalToken: [] }],
    });
    expect(Object.keys(doc.paths['/mcp'].post.responses)).toEqual(
      expect.arrayContaining(['200', '401', '429']),
    );
    expect(doc.paths['/.well-known/oauth-protected-resource'].get.security).toEqual([]);
    expect(doc.paths['/.well-known/oauth-protected-resource/mcp'].get.operationId).toBe(
      'mcp.protectedResourceMcp',
    );
    expect(doc.tags).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'mcp' })]));
  });
});
