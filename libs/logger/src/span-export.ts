import type * as OtelApi from '@opentelemetry/api';
import { childTraceContext, TraceContext } from './trace-context';

/**
 * Exports spans to an OpenTelemetry collector (OTLP/HTTP, JSON) when an endpoint is configured. The SDK is
 * imported only then: with no endpoint nothing is loaded and a span costs what `childTraceContext` costs.
 * Our own trace context stays the source of truth for logs; the exported span takes its ids from it
 * (same trace id, parent = the caller's span id) and hands its new span id back, so log lines and spans agree.
 */
export interface SpanExport {
  /** Ends the exporter after sending every finished span (call it last when the service stops). */
  shutdown(): Promise<void>;
}

export interface Span {
  /** The context to run the work in (its spanId is the exported span's id). */
  context: TraceContext;
  /** False when no endpoint is configured: `end` does nothing, so callers may skip their bookkeeping. */
  exported: boolean;
  end(outcome?: { failed?: boolean; name?: string; attributes?: Record<string, string | number> }): void;
}

let otel: { api: typeof OtelApi; tracer: OtelApi.Tracer } | undefined;

/** The collector's traces URL: the standard OTEL_EXPORTER_OTLP_ENDPOINT is a base URL to which /v1/traces is added. */
export function tracesUrlOf(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

export async function startSpanExport(options: {
  endpoint?: string;
  serviceName: string;
}): Promise<SpanExport> {
  const { endpoint, serviceName } = options;
  if (!endpoint) return { shutdown: async () => undefined };
  const [
    api,
    { OTLPTraceExporter },
    { BasicTracerProvider, BatchSpanProcessor },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    // Batched: a request never waits for the collector; a slow or absent collector only drops spans.
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrlOf(endpoint) }))],
  });
  otel = { api, tracer: provider.getTracer('pfs') };
  return {
    async shutdown() {
      otel = undefined;
      await provider.shutdown();
    },
  };
}

/** Starts this hop's span, child of `parent` (the caller's context) or the root of a new trace. */
export function startSpan(name: string, kind: 'server' | 'consumer', parent?: TraceContext): Span {
  if (!otel) return { context: childTraceContext(parent), exported: false, end: () => undefined };
  const { api, tracer } = otel;
  const parentContext = parent
    ? api.trace.setSpanContext(api.ROOT_CONTEXT, {
        traceId: parent.traceId,
        spanId: parent.spanId,
        traceFlags: parseInt(parent.flags, 16),
        isRemote: true,
      })
    : api.ROOT_CONTEXT;
  const span = tracer.startSpan(
    name,
    { kind: kind === 'server' ? api.SpanKind.SERVER : api.SpanKind.CONSUMER },
    parentContext,
  );
  const ids = span.spanContext();
  return {
    context: {
      traceId: ids.traceId,
      spanId: ids.spanId,
      flags: ids.traceFlags.toString(16).padStart(2, '0'),
    },
    exported: true,
    end(outcome = {}) {
      if (outcome.name) span.updateName(outcome.name);
      if (outcome.attributes) span.setAttributes(outcome.attributes);
      if (outcome.failed) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    },
  };
}
