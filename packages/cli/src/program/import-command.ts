import type { AddCommand } from './command-context.js';
import { commandModules as load } from './command-modules.js';

/** `agent-trace import`: GenAI spans from an OTLP JSON file or Jaeger back into a trace. */
export const addImport: AddCommand = (program, { onResult }) => {
  program
    .command('import')
    .description(
      "Turn OpenTelemetry GenAI spans into an agent-trace trace: from an OTLP JSON file (the Collector's file exporter) or a Jaeger query service.",
    )
    .argument('[spans]', 'an OTLP JSON file, one ExportTraceServiceRequest a line')
    .requiredOption('--out <trace.jsonl>', 'where to write the trace')
    .option('--jaeger <url>', "Jaeger's query service, e.g. http://localhost:16686")
    .option('--trace-id <id>', 'with --jaeger: the trace to import')
    .option('--service <name>', "with --jaeger: import the service's traces")
    .option('--since <duration>', 'with --service: how far back, e.g. 30m, 2h, 7d', '1h')
    .option('--limit <n>', 'with --service: at most this many traces', '20')
    .option(
      '--store <dir>',
      "keep the file's evaluation events (an eval's scores) with the runs they judge as an experiment in this store",
    )
    .option('--eval <name>', "with --store: the name of the experiment's eval", 'imported')
    .option(
      '--strict',
      'refuse a file with a line that is not JSON (default: skip it, import the rest, name it)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace import spans.json --out traces/imported.jsonl\n  agent-trace import --jaeger http://localhost:16686 --trace-id 4bf92f3577b34da6a3ce929d0e0e4736 --out traces/run.jsonl\n  agent-trace import --jaeger http://localhost:16686 --service support-desk --since 2h --out traces/desk.jsonl\n  agent-trace import export.json --out traces/evals.jsonl --store .agent-trace --eval refunds\n\nExit codes: 0 written, 1 written but invalid, 2 nothing read.',
    )
    .action(
      async (
        file: string | undefined,
        options: {
          out: string;
          jaeger?: string;
          traceId?: string;
          service?: string;
          since: string;
          limit: string;
          strict?: boolean;
          store?: string;
          eval: string;
        },
      ) => {
        const { importCommand } = await load.import();
        onResult(
          await importCommand({
            out: options.out,
            since: options.since,
            limit: Number(options.limit),
            strict: options.strict === true,
            ...(options.store === undefined ? {} : { store: options.store, eval: options.eval }),
            ...(file === undefined ? {} : { file }),
            ...(options.jaeger === undefined ? {} : { jaeger: options.jaeger }),
            ...(options.traceId === undefined ? {} : { traceId: options.traceId }),
            ...(options.service === undefined ? {} : { service: options.service }),
          }),
        );
      },
    );
};
