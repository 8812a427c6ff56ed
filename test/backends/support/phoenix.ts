/**
 * A real Arize Phoenix (the version `scripts/backends/phoenix.sh` installs from PyPI), started on
 * 127.0.0.1 with free ports and a temporary working folder (its SQLite database): OTLP over HTTP
 * on its web port, OTLP over gRPC on its own, its REST API and UI on the web port.
 */
import { fileURLToPath } from 'node:url';
import { backendProgram, freePorts, startBackend, type BackendProcess } from './backend-process.js';

/** A running Phoenix and where to reach it. */
export interface Phoenix extends BackendProcess {
  /** Its web port: the UI, the REST API (`/v1/…`) and OTLP over HTTP (`/v1/traces`). */
  readonly url: string;
  /** OTLP over gRPC. */
  readonly otlpGrpc: string;
}

const serve = fileURLToPath(new URL('../../../scripts/backends/phoenix-serve.py', import.meta.url));

/** Starts Phoenix (installing it first when this machine has not yet: a minute or two, once). */
export async function startPhoenix(): Promise<Phoenix> {
  const python = backendProgram('phoenix');
  const [web, grpc] = await freePorts(2);
  const url = `http://127.0.0.1:${web}`;
  const started = await startBackend({
    name: 'phoenix',
    program: python,
    args: () => [serve],
    env: {
      PHOENIX_HOST: '127.0.0.1',
      PHOENIX_PORT: String(web),
      PHOENIX_GRPC_PORT: String(grpc),
      PHOENIX_TELEMETRY_ENABLED: 'false',
      PHOENIX_ALLOW_EXTERNAL_RESOURCES: 'false',
    },
    workingDirEnv: 'PHOENIX_WORKING_DIR',
    ready: async () => (await fetch(`${url}/healthz`)).ok,
    readyWithinMs: 120_000,
  });
  return { ...started, url, otlpGrpc: `http://127.0.0.1:${grpc}` };
}

/** The address of a trace's page in Phoenix's UI: the project's id is asked of its REST API. */
export async function phoenixTracePage(
  url: string,
  project: string,
  traceId: string,
): Promise<string> {
  const projects = (await (await fetch(`${url}/v1/projects`)).json()) as {
    data: { name: string; id: string }[];
  };
  const id = projects.data.find(each => each.name === project)?.id;
  if (id === undefined) throw new Error(`Phoenix has no project ${project}`);
  return `${url}/projects/${id}/traces/${traceId}`;
}

/** A span as Phoenix's REST API (`/v1/projects/{project}/spans`) returns it. */
export interface PhoenixSpan {
  readonly name: string;
  readonly context: { readonly trace_id: string; readonly span_id: string };
  readonly parent_id: string | null;
  readonly span_kind: string;
  readonly status_code: string;
  readonly attributes: Readonly<Record<string, unknown>>;
}

/**
 * A trace's spans from Phoenix's REST API, asked again until `spans` of them are there (Phoenix
 * inserts in batches) or `withinMs` passed.
 */
export async function readPhoenixTrace(
  url: string,
  project: string,
  traceId: string,
  spans: number,
  withinMs = 20_000,
): Promise<PhoenixSpan[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const answer = await fetch(
      `${url}/v1/projects/${encodeURIComponent(project)}/spans?limit=1000`,
    );
    const found = answer.ok
      ? ((await answer.json()) as { data: PhoenixSpan[] }).data.filter(
          span => span.context.trace_id === traceId,
        )
      : [];
    if (found.length >= spans || Date.now() > deadline) return found;
    await new Promise(resolve => setTimeout(resolve, 250));
  }
}
