import { ConfigError, defineConfig } from './define-config';
import { envBool, envPort, envUrl } from './fields';

const shape = {
  API_PORT: envPort(3000),
  BASE_URL: envUrl('http://127.0.0.1:3000'),
  REQUIRE_HTTPS: envBool(false),
};

describe('defineConfig', () => {
  it('when variables are absent or empty, then the documented defaults apply', () => {
    const config = defineConfig(shape, { API_PORT: '' });
    expect(config).toEqual({ API_PORT: 3000, BASE_URL: 'http://127.0.0.1:3000', REQUIRE_HTTPS: false });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('when variables are set, then they are parsed to their types', () => {
    const config = defineConfig(shape, {
      API_PORT: '8080',
      BASE_URL: 'https://api.example.com/',
      REQUIRE_HTTPS: 'true',
    });
    expect(config).toEqual({ API_PORT: 8080, BASE_URL: 'https://api.example.com', REQUIRE_HTTPS: true });
  });

  it('when a variable is invalid, then the error names each bad variable, its rule and the value', () => {
    let error: unknown;
    try {
      defineConfig(shape, { API_PORT: 'abc', BASE_URL: 'not a url', REQUIRE_HTTPS: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('API_PORT: must be an integer (got "abc")');
    expect(message).toContain('BASE_URL: must be an absolute URL (got "not a url")');
    expect(message).toContain('REQUIRE_HTTPS: must be true or false (got "maybe")');
  });

  it('when a port is out of range, then the rule is stated', () => {
    expect(() => defineConfig(shape, { API_PORT: '70000' })).toThrow(
      'API_PORT: must be at most 65535 (got "70000")',
    );
  });
});
