import { type TraceEvent, type TraceEventOf } from '@agent-trace/core';
import { describeCost, formatUsd } from '@agent-trace/core/cost';
import {
  errorText,
  featureEventText,
  isSpanNode,
  planReasons,
  reasoningText,
  transformText,
  type RunTree,
  type SpanNode,
} from '@agent-trace/trace/model';
import type { Style } from './style.js';

/** Options of {@link renderRunTree}. */
export interface RenderOptions {
  readonly style: Style;
  /** Longest rendering of arguments, results and text before `…`. @defaultValue 80 */
  readonly maxValueLength?: number;
}

/**
 * Renders one run as a tree: the run, its agents, their model calls (model, tokens, ms, what
 * the model answered) and tool calls (arguments, result or error, ms), the stop reason.
 */
export function renderRunTree(tree: RunTree, options: RenderOptions): string {
  const lines: string[] = [];
  const renderer = new TreeRenderer(options, lines);
  renderer.node(tree.root, '', '', true);
  return lines.join('\n');
}

class TreeRenderer {
  readonly #style: Style;
  readonly #maxLength: number;
  readonly #lines: string[];

  constructor(options: RenderOptions, lines: string[]) {
    this.#style = options.style;
    this.#maxLength = options.maxValueLength ?? 80;
    this.#lines = lines;
  }

  node(node: SpanNode | TraceEvent, prefix: string, childPrefix: string, isRoot = false): void {
    this.#lines.push(prefix + (isSpanNode(node) ? this.#span(node) : this.#point(node)));
    if (!isSpanNode(node)) return;
    const children = node.children;
    children.forEach((child, index) => {
      const last = index === children.length - 1;
      const branch = isRoot ? '' : childPrefix;
      this.node(child, branch + (last ? '└─ ' : '├─ '), branch + (last ? '   ' : '│  '));
    });
    if (isRoot) this.#lines.push(this.#summary(node));
  }

  #span(node: SpanNode): string {
    const { start, end } = node;
    switch (start.event) {
      case 'run_start':
        return this.#run(start);
      case 'agent_start':
        return this.#agent(start, end as TraceEventOf<'agent_end'> | undefined);
      case 'llm_start':
        return this.#llm(start, end as TraceEventOf<'llm_end'> | undefined);
      case 'tool_start':
        return this.#tool(start, end as TraceEventOf<'tool_end'> | undefined);
      case 'handoff_start':
        return this.#handoff(start, end as TraceEventOf<'handoff_end'> | undefined);
      case 'workflow_start':
        return this.#workflow(start, end as TraceEventOf<'workflow_end'> | undefined);
      case 'workflow_step_start':
        return this.#workflowStep(start, end as TraceEventOf<'workflow_step_end'> | undefined);
      case 'span_start':
        return this.#plain(start, end as TraceEventOf<'span_end'> | undefined);
      default:
        return start.event;
    }
  }

  #run(start: TraceEventOf<'run_start'>): string {
    const s = this.#style;
    const parts = [
      s.bold(`run ${start.run}`),
      s.dim(start.time),
      `entry ${s.cyan(start.agent)}`,
      start.resumed === undefined
        ? `input ${this.#quote(start.input)}`
        : s.yellow(`resumed after seq ${start.resumed.after_seq}`),
    ];
    if (start.forked_from !== undefined)
      parts.push(
        s.yellow(
          `forked from run ${start.forked_from.run} after step ${start.forked_from.after_step}`,
        ),
      );
    if (start.release !== undefined) parts.push(s.dim(`release ${start.release}`));
    if (start.conversation !== undefined)
      parts.splice(
        2,
        0,
        `turn ${start.conversation.turn} of conversation ${start.conversation.id}`,
      );
    else if (start.session !== start.run) parts.splice(2, 0, `session ${start.session}`);
    return parts.join('  ');
  }

  #agent(start: TraceEventOf<'agent_start'>, end: TraceEventOf<'agent_end'> | undefined): string {
    const s = this.#style;
    const parts = [
      `${s.bold('agent')} ${s.cyan(start.agent)}`,
      s.dim(`${start.provider}/${start.model}`),
    ];
    if (end === undefined) parts.push(this.#unended());
    else {
      parts.push(
        `${end.steps} step${end.steps === 1 ? '' : 's'}`,
        end.handed_off_to === undefined
          ? this.#stop(end.stop_reason)
          : `handed off to ${this.#style.cyan(end.handed_off_to)}`,
        this.#ms(end.duration_ms),
      );
    }
    return parts.join('  ');
  }

  #llm(start: TraceEventOf<'llm_start'>, end: TraceEventOf<'llm_end'> | undefined): string {
    const s = this.#style;
    const parts = [`${s.magenta('llm')} #${start.step}`, s.dim(start.model)];
    if (start.kept !== undefined)
      parts.push(s.dim(`request rewritten by a feature after message ${start.kept}`));
    if (end === undefined) return [...parts, this.#unended()].join('  ');
    parts.push(`${end.tok_prompt}→${end.tok_completion} tok`);
    if (end.cost_usd !== undefined) parts.push(formatUsd(end.cost_usd));
    if (end.cache_hit === true) parts.push(s.green('cache hit'));
    if (end.response_model !== undefined && end.response_model !== start.model)
      parts.push(s.dim(`answered by ${end.response_model}`));
    if (end.first_chunk_ms !== undefined) parts.push(s.dim(`first chunk ${end.first_chunk_ms} ms`));
    parts.push(this.#ms(end.duration_ms));
    if (end.error !== undefined) parts.push(s.red(`✗ ${this.#error(end.error)}`));
    else {
      const calls = end.tool_calls ?? [];
      const answer: string[] = [];
      const reasoning = reasoningText(end.reasoning);
      if (reasoning !== undefined) parts.push(s.dim(`reasoning ${this.#quote(reasoning)}`));
      if (end.text !== undefined && end.text !== '') answer.push(this.#quote(end.text));
      if (calls.length > 0) answer.push(`calls ${calls.map(call => call.tool).join(', ')}`);
      parts.push(`→ ${answer.length > 0 ? answer.join(' + ') : s.dim('(empty)')}`);
    }
    return parts.join('  ');
  }

  #tool(start: TraceEventOf<'tool_start'>, end: TraceEventOf<'tool_end'> | undefined): string {
    const s = this.#style;
    const head = `${s.yellow('tool')} ${s.bold(start.tool)} ${this.#value(start.args)}`;
    if (end === undefined) return `${head}  ${this.#unended()}`;
    const outcome =
      end.error !== undefined
        ? s.red(`✗ ${this.#error(end.error)}`)
        : `→ ${this.#value(end.result)}`;
    // A retry repeats the call's thought: it is shown with the first attempt only.
    const thought =
      start.thought === undefined || start.attempt !== undefined
        ? ''
        : `  ${s.dim(`thought: ${this.#quote(start.thought)}`)}`;
    return `${head}  ${outcome}  ${this.#ms(end.duration_ms)}${thought}`;
  }

  #handoff(
    start: TraceEventOf<'handoff_start'>,
    end: TraceEventOf<'handoff_end'> | undefined,
  ): string {
    const s = this.#style;
    const head = `${s.bold('handoff')} ${start.from} → ${s.cyan(start.to)}  depth ${start.depth}  ${s.dim(start.mode)}`;
    if (end === undefined) return `${head}  ${this.#unended()}`;
    const error = end.error === undefined ? '' : `  ${s.red(`✗ ${end.error.type}`)}`;
    return `${head}  ${this.#ms(end.duration_ms)}${error}`;
  }

  #workflow(
    start: TraceEventOf<'workflow_start'>,
    end: TraceEventOf<'workflow_end'> | undefined,
  ): string {
    const s = this.#style;
    const plan = start.plan_revision === undefined ? '' : `  plan ${start.plan_revision}`;
    const head = `${s.bold('workflow')} ${s.cyan(start.workflow)}  ${start.steps.length} steps${plan}`;
    if (end === undefined) return `${head}  ${this.#unended()}`;
    const counts = `${end.steps.completed} completed, ${end.steps.failed} failed, ${end.steps.skipped} skipped`;
    return `${head}  ${this.#stop(end.status)}  ${s.dim(counts)}  ${this.#ms(end.duration_ms)}`;
  }

  #workflowStep(
    start: TraceEventOf<'workflow_step_start'>,
    end: TraceEventOf<'workflow_step_end'> | undefined,
  ): string {
    const s = this.#style;
    const runs =
      start.runs.name === undefined ? start.runs.kind : `${start.runs.kind} ${start.runs.name}`;
    const items = start.items === undefined ? '' : `  ${start.items} items at once`;
    const head = `${s.bold('step')} ${s.cyan(start.name)}  ${s.dim(runs)}${items}`;
    if (end === undefined) return `${head}  ${this.#unended()}`;
    const tries = end.attempts > 1 ? `  ${end.attempts} attempts` : '';
    const outcome =
      end.status === 'completed'
        ? `${s.green('completed')} → ${this.#value(end.output)}`
        : end.status === 'skipped'
          ? s.dim(`skipped: ${end.reason ?? ''}`)
          : end.status === 'interrupted'
            ? s.yellow('waits for approval')
            : s.red(`✗ ${end.error === undefined ? 'failed' : this.#error(end.error)}`);
    return `${head}  ${outcome}${tries}  ${this.#ms(end.duration_ms)}`;
  }

  /** A plain span (another system's, kept by an import): its name, kind, service and attributes. */
  #plain(start: TraceEventOf<'span_start'>, end: TraceEventOf<'span_end'> | undefined): string {
    const s = this.#style;
    const parts = [`${s.dim('span')} ${s.bold(start.name)}`];
    if (start.span_kind !== undefined) parts.push(s.dim(start.span_kind));
    if (start.service !== undefined) parts.push(s.dim(start.service));
    if (start.attributes !== undefined && Object.keys(start.attributes).length > 0)
      parts.push(this.#value(start.attributes));
    if (end === undefined) parts.push(this.#unended());
    else {
      parts.push(this.#ms(end.duration_ms));
      if (end.error !== undefined) parts.push(s.red(`✗ ${this.#error(end.error)}`));
    }
    return parts.join('  ');
  }

  /** An error, its message cut to the line's length. */
  #error(error: TraceEventOf<'tool_end'>['error'] & object): string {
    return errorText({ ...error, message: this.#cut(error.message) });
  }

  #point(event: TraceEvent): string {
    const s = this.#style;
    if (event.event === 'plan') {
      const why = planReasons[event.reason];
      const verdict = event.verdict === 'accepted' ? s.green('accepted') : s.red('refused');
      const problems =
        event.problems === undefined ? '' : `: ${this.#cut(event.problems.join('; '))}`;
      return `${s.bold('plan')} ${event.revision} (after ${why}) ${verdict}${problems}`;
    }
    if (event.event === 'guardrail') {
      const verdict = event.verdict === 'block' ? s.red(event.verdict) : s.yellow(event.verdict);
      return `guardrail ${event.guardrail} (${event.stage}) ${verdict}: ${this.#cut(event.reason)}`;
    }
    if (event.event === 'retry') {
      const fallback = event.fallback === undefined ? '' : ` → fallback ${event.fallback}`;
      return `${s.yellow('retry')} ${event.target} ${event.name} attempt ${event.attempt} after ${event.delay_ms} ms (${event.error.type})${fallback}`;
    }
    if (event.event === 'approval_requested') {
      return `${s.yellow('waits for approval')}: ${event.kind} ${s.bold(event.tool)} ${this.#value(event.args)}  ${s.dim(event.call_id)}`;
    }
    if (event.event === 'approval_resolved') {
      const decision =
        event.decision === 'rejected' ? s.red(event.decision) : s.green(event.decision);
      const by = event.by === undefined ? '' : ` by ${event.by}`;
      const why = event.reason === undefined ? '' : `: ${this.#cut(event.reason)}`;
      const edited = event.args === undefined ? '' : ` → ${this.#value(event.args)}`;
      return `approval ${decision}${by}: ${s.bold(event.tool)}${edited}  ${s.dim(event.call_id)}${why}`;
    }
    if (event.event === 'rate_limit_wait') {
      const others = event.by_others === true ? ', behind other runs' : '';
      return `${s.yellow('rate limit')}: waited ${this.#ms(event.waited_ms)} for ${event.provider} (${event.reason}${others}) before calling ${event.model}`;
    }
    if (event.event === 'feature') return `${s.cyan('feature')} ${featureEventText(event)}`;
    if (event.event === 'transform') return `${s.yellow('transform')}: ${transformText(event)}`;
    if (event.event === 'malformed_answer') {
      return `${s.yellow('malformed answer')} ${event.count} (${event.problem}) of llm #${event.step}: ${this.#cut(event.message)}`;
    }
    return s.dim(`${event.event} (seq ${event.seq})`);
  }

  #summary(root: SpanNode): string {
    const s = this.#style;
    const end = root.end;
    if (end === undefined || end.event !== 'run_end') {
      return s.red(
        'stop: none — the run has no run_end (it was cut short); run `agent-trace validate` for details',
      );
    }
    const parts = [
      `stop: ${this.#stop(end.stop_reason)}`,
      `${end.counts.llm_calls} llm call${end.counts.llm_calls === 1 ? '' : 's'}`,
      `${end.counts.tool_calls} tool call${end.counts.tool_calls === 1 ? '' : 's'}${end.counts.tool_errors > 0 ? ` (${end.counts.tool_errors} failed)` : ''}`,
      `${end.tok_prompt}→${end.tok_completion} tok`,
      this.#ms(end.duration_ms),
    ];
    if (end.cost !== undefined) parts.push(describeCost(end.cost));
    if (end.limit !== undefined) parts.push(`limit ${end.limit.name} = ${end.limit.value}`);
    const lines = [parts.join(' · ')];
    if (end.detail !== undefined) lines.push(`why: ${end.detail}`);
    if (end.degraded_tools !== undefined) {
      lines.push(s.yellow(`degraded: went on without ${end.degraded_tools.join(', ')}`));
    }
    if (end.error !== undefined) {
      // An error whose type is `error` (an imported span's) already says so.
      const text = errorText(end.error);
      lines.push(s.red(/^error:/i.test(text) ? text : `error: ${text}`));
    }
    if (end.output !== undefined && end.output !== '')
      lines.push(`output: ${this.#quote(end.output)}`);
    return lines.join('\n');
  }

  #stop(reason: string): string {
    return reason === 'completed' ? this.#style.green(reason) : this.#style.red(reason);
  }

  #ms(durationMs: number): string {
    return this.#style.dim(
      durationMs >= 1000 ? `${(durationMs / 1000).toFixed(2)} s` : `${Math.round(durationMs)} ms`,
    );
  }

  #unended(): string {
    return this.#style.red('(no end event)');
  }

  #quote(text: string): string {
    return JSON.stringify(this.#cut(text.replace(/\s+/g, ' ')));
  }

  #value(value: unknown): string {
    if (value === undefined) return 'undefined';
    const text: string | undefined = JSON.stringify(value);
    return this.#cut(text ?? typeof value);
  }

  #cut(text: string): string {
    return text.length > this.#maxLength ? `${text.slice(0, this.#maxLength - 1)}…` : text;
  }
}
