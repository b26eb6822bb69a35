import { readFileSync } from 'node:fs';
import type { WorkerConfig } from '../config';
import { ApnsProvider } from './apns.provider';
import { FcmProvider, FcmServiceAccount } from './fcm.provider';
import type { PushProviders } from './push-provider';
import { WnsProvider } from './wns.provider';

type PushConfig = Pick<
  WorkerConfig,
  | 'APNS_KEY_FILE'
  | 'APNS_KEY_ID'
  | 'APNS_TEAM_ID'
  | 'APNS_TOPIC'
  | 'APNS_URL'
  | 'FCM_SERVICE_ACCOUNT_FILE'
  | 'FCM_URL'
  | 'WNS_CLIENT_ID'
  | 'WNS_CLIENT_SECRET'
  | 'WNS_TOKEN_URL'
  | 'WNS_CHANNEL_HOSTS'
>;

function requireAll(provider: string, values: Record<string, string | undefined>): void {
  const missing = Object.entries(values)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length) throw new Error(`${provider} is configured, but ${missing.join(', ')} is not set`);
}

function readSecretFile(name: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${name}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function readServiceAccount(path: string): FcmServiceAccount {
  const text = readSecretFile('FCM_SERVICE_ACCOUNT_FILE', path);
  let account: Partial<FcmServiceAccount>;
  try {
    account = JSON.parse(text) as Partial<FcmServiceAccount>;
  } catch {
    throw new Error(`FCM_SERVICE_ACCOUNT_FILE: ${path} is not JSON`);
  }
  const missing = (['project_id', 'client_email', 'private_key', 'token_uri'] as const).filter(
    (field) => typeof account[field] !== 'string' || !account[field],
  );
  if (missing.length) throw new Error(`FCM_SERVICE_ACCOUNT_FILE: ${path} lacks ${missing.join(', ')}`);
  return account as FcmServiceAccount;
}

/**
 * The push providers the operator configured (docs/exports.md, "Push"), built once at boot: a missing
 * companion setting or an unreadable key file stops the worker with a reason, never a push later.
 */
export function createPushProviders(config: PushConfig): PushProviders {
  const providers: PushProviders = {};
  if (config.APNS_KEY_FILE) {
    requireAll('APNs (APNS_KEY_FILE)', {
      APNS_KEY_ID: config.APNS_KEY_ID,
      APNS_TEAM_ID: config.APNS_TEAM_ID,
      APNS_TOPIC: config.APNS_TOPIC,
    });
    providers.apple = new ApnsProvider({
      url: config.APNS_URL,
      privateKey: readSecretFile('APNS_KEY_FILE', config.APNS_KEY_FILE),
      keyId: config.APNS_KEY_ID!,
      teamId: config.APNS_TEAM_ID!,
      topic: config.APNS_TOPIC!,
    });
  }
  if (config.FCM_SERVICE_ACCOUNT_FILE) {
    const fcm = new FcmProvider({
      url: config.FCM_URL,
      serviceAccount: readServiceAccount(config.FCM_SERVICE_ACCOUNT_FILE),
    });
    providers.google = fcm;
    providers.apple_fcm = fcm;
  }
  if (config.WNS_CLIENT_ID || config.WNS_CLIENT_SECRET) {
    requireAll('WNS', { WNS_CLIENT_ID: config.WNS_CLIENT_ID, WNS_CLIENT_SECRET: config.WNS_CLIENT_SECRET });
    providers.windows = new WnsProvider({
      clientId: config.WNS_CLIENT_ID!,
      clientSecret: config.WNS_CLIENT_SECRET!,
      tokenUrl: config.WNS_TOKEN_URL,
      channelHosts: config.WNS_CHANNEL_HOSTS,
    });
  }
  return providers;
}

export async function closePushProviders(providers: PushProviders): Promise<void> {
  await Promise.all([...new Set(Object.values(providers))].map((provider) => provider!.close()));
}
