/**
 * `node --import @agent-trace/trace/register app.js`: every run of the process also exports its
 * spans to the OTLP endpoint in the environment (`TRACE_OTLP_ENDPOINT`, else
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `OTEL_EXPORTER_OTLP_ENDPOINT`), with no change to the
 * code, through one OTLP sink per process. Nothing is exported while no endpoint is set.
 */
import { registerEnvironmentExport } from './otlp/environment-sink.js';

registerEnvironmentExport();
