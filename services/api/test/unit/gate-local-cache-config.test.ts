import { isGateLocalCacheOn, loadApiConfig } from '../../src/config';

/** GATE_LOCAL_CACHE (docs/rate-limits.md): client-side caching is used with one Redis server only. */
const cluster = { REDIS_CLUSTER_NODES: '127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002' };

describe('GATE_LOCAL_CACHE', () => {
  it('when it is left at auto, then it is on with one Redis server and off on a cluster', () => {
    expect(isGateLocalCacheOn(loadApiConfig({}))).toBe(true);
    expect(isGateLocalCacheOn(loadApiConfig(cluster))).toBe(false);
  });

  it('when it is off, then it is off with one Redis server too', () => {
    expect(isGateLocalCacheOn(loadApiConfig({ GATE_LOCAL_CACHE: 'off' }))).toBe(false);
  });

  it('when it is on with a cluster, then the start fails with a message that says why', () => {
    expect(() => isGateLocalCacheOn(loadApiConfig({ ...cluster, GATE_LOCAL_CACHE: 'on' }))).toThrow(
      'GATE_LOCAL_CACHE=on needs one Redis server',
    );
  });

  it('when it has another value, then the config is refused naming the variable', () => {
    expect(() => loadApiConfig({ GATE_LOCAL_CACHE: 'sometimes' })).toThrow(/GATE_LOCAL_CACHE/);
  });
});
