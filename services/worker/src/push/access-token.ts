/**
 * An OAuth 2.0 access token fetched from a token endpoint (form POST) and reused until a minute before it
 * expires; `invalidate()` after the provider says it is no longer accepted (a 401). FCM and WNS both
 * authenticate this way, with different grants.
 */
export class CachedAccessToken {
  private token: { value: string; expiresAt: number } | undefined;

  constructor(
    private readonly provider: string,
    private readonly tokenUrl: string,
    private readonly form: () => Record<string, string>,
    private readonly timeoutMs = 10_000,
  ) {}

  async get(): Promise<string> {
    if (this.token && Date.now() < this.token.expiresAt) return this.token.value;
    const answer = await fetch(this.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(this.form()),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!answer.ok) throw new Error(`${this.provider} token endpoint answered ${answer.status}`);
    const body = (await answer.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new Error(`${this.provider} token endpoint gave no access_token`);
    this.token = {
      value: body.access_token,
      expiresAt: Date.now() + Math.max(0, (body.expires_in ?? 3600) - 60) * 1000,
    };
    return body.access_token;
  }

  invalidate(): void {
    this.token = undefined;
  }
}
