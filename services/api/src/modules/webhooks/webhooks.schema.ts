import { WEBHOOK_EVENT_TYPES } from '@pfs/contracts';
import type { JsonSchema, ResourceDefinition } from '@pfs/resource-api';
import { pageParams } from '../../http/list-query';

export const webhooksSchema: ResourceDefinition = {
  name: 'webhooks',
  title: 'Webhook',
  description:
    "An HTTPS address told about changes to the user's data, signed per the Standard Webhooks specification (docs/webhooks.md). Each webhook belongs to the user and the application that registered it; registering or reading one needs the read scope of every event's area (entry.*, export.*, import.*: entries:r; account.*: accounts:r; budget.*: budgets:r; category.*: categories:r; tag.*: tags:r).",
  properties: {
    id: { type: 'string', readOnly: true },
    url: {
      type: 'string',
      format: 'uri',
      maxLength: 2048,
      description:
        'Where events are POSTed: https (http only outside production); never a loopback, private, link-local, multicast or unspecified address, checked after DNS resolution and again at every delivery.',
    },
    events: {
      type: 'array',
      items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
      minItems: 1,
      uniqueItems: true,
    },
    description: { type: 'string', maxLength: 200 },
    enabled: {
      type: 'boolean',
      description:
        'False after sustained delivery failure (see disabled_reason) or when set so; PUT true to resume.',
    },
    disabled_reason: { type: 'string', readOnly: true },
    secret: {
      type: 'string',
      readOnly: true,
      description: 'The signing secret (whsec_…): in the answer to the create only, never again.',
    },
    created: { type: 'string', format: 'date-time', readOnly: true },
    modified: { type: 'string', readOnly: true },
  },
  createRequired: ['url', 'events'],
  updateRequired: ['url', 'events'],
};

const attempt: JsonSchema = {
  type: 'object',
  properties: {
    date: { type: 'string', format: 'date-time' },
    status_code: { type: 'integer', description: "The receiver's HTTP status; absent when no answer came." },
    latency_ms: { type: 'integer' },
    error: { type: 'string', description: 'Why the attempt failed, when it did.' },
  },
};

export const webhookDeliveriesSchema: ResourceDefinition = {
  name: 'webhook-deliveries',
  title: 'Webhook delivery',
  description:
    'One event sent to one webhook: the payload as sent and every attempt. Status pending (being sent or waiting for a retry), succeeded, failed (retries exhausted) or cancelled (the webhook was disabled).',
  properties: {
    id: { type: 'string', readOnly: true },
    webhook: { type: 'string', readOnly: true },
    message_id: { type: 'string', readOnly: true, description: 'The webhook-id header of every attempt.' },
    type: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES], readOnly: true },
    status: { type: 'string', enum: ['pending', 'succeeded', 'failed', 'cancelled'], readOnly: true },
    created: { type: 'string', format: 'date-time', readOnly: true },
    completed: { type: 'string', format: 'date-time', readOnly: true },
    payload: { type: 'object', readOnly: true },
    attempts: { type: 'array', items: attempt, readOnly: true },
  },
  createRequired: [],
};

export const deliveriesListQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageParams(50),
  },
};

export const webhooksListQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageParams(),
  },
};
