/** Headers of the connection, not of the representation: the replay server sets its own. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

/**
 * Asks the API once and stores its exact answer (status, headers, body bytes) on the bare server as the replay
 * `name`; returns the replay's URL, the ceiling of that scenario.
 */
export async function recordReplay(
  bareUrl: string,
  name: string,
  url: string,
  headers: Record<string, string>,
): Promise<string> {
  const answer = await fetch(url, { headers });
  if (answer.status >= 400) throw new Error(`${url} answered ${answer.status}: ${await answer.text()}`);
  const body = Buffer.from(await answer.arrayBuffer());
  const replayHeaders: Record<string, string> = {};
  answer.headers.forEach((value, key) => {
    if (!HOP_HEADERS.has(key)) replayHeaders[key] = value;
  });
  const stored = await fetch(`${bareUrl}/replay/${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: answer.status, headers: replayHeaders, body: body.toString('base64') }),
  });
  if (stored.status !== 204) throw new Error(`storing the replay ${name} failed: ${stored.status}`);
  return `${bareUrl}/replay/${name}`;
}
