/**
 * The trace library's tables and the views it documents. Tables hold what the index read: the
 * files (how far each was read) and one row per event with the fields the views need, extracted
 * once. Views are what users query: `runs`, `sessions`, `agents`, `llm_calls`, `tool_calls`,
 * `handoffs`, `feature_events`, `feedback`, `evaluations` and `events`, each row with its run id (a session's with its
 * session id), file and byte offset.
 */

import { SUPPORTED_TRACE_SCHEMA_VERSIONS } from '@agent-trace/core';
import { maxNestingDepth } from '../jsonl/nesting-depth.js';

/** The tables, made on every opening for writing. */
export const librarySchema = `
CREATE TABLE IF NOT EXISTS trace_files (
  file_id INTEGER PRIMARY KEY, path VARCHAR NOT NULL UNIQUE, indexed_bytes BIGINT NOT NULL,
  head BLOB NOT NULL, skipped_lines BIGINT NOT NULL, first_skipped BIGINT, skipped_why VARCHAR,
  not_utf8_at BIGINT);
ALTER TABLE trace_files ADD COLUMN IF NOT EXISTS skipped_why VARCHAR;
ALTER TABLE trace_files ADD COLUMN IF NOT EXISTS not_utf8_at BIGINT;
CREATE TABLE IF NOT EXISTS trace_events (
  file_id INTEGER NOT NULL, "offset" BIGINT NOT NULL, length INTEGER NOT NULL,
  run VARCHAR NOT NULL, session VARCHAR, seq INTEGER, event VARCHAR NOT NULL, time TIMESTAMP,
  agent VARCHAR, span_id VARCHAR, parent_span_id VARCHAR,
  name VARCHAR, provider VARCHAR, stop_reason VARCHAR, status VARCHAR, duration_ms DOUBLE,
  tok_prompt BIGINT, tok_completion BIGINT, cost_usd DOUBLE, unpriced_calls INTEGER,
  llm_calls INTEGER, tool_calls INTEGER, tool_errors INTEGER, steps INTEGER,
  from_agent VARCHAR, to_agent VARCHAR, depth INTEGER, mode VARCHAR, call_id VARCHAR,
  attempt INTEGER, finish_reason VARCHAR, handed_off_to VARCHAR,
  error_type VARCHAR, error_message VARCHAR, input VARCHAR, output VARCHAR);
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS feature VARCHAR;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS refusal VARCHAR;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS conversation VARCHAR;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS turn INTEGER;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS conversation_role VARCHAR;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS score DOUBLE;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS label VARCHAR;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS given_by VARCHAR;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS source VARCHAR;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS feedback_id VARCHAR;
ALTER TABLE trace_events ADD COLUMN IF NOT EXISTS release VARCHAR;
CREATE TABLE IF NOT EXISTS library_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);
CREATE TEMP TABLE IF NOT EXISTS staged_lines (
  file_id INTEGER, "offset" DOUBLE, length INTEGER, line VARCHAR);
CREATE TEMP TABLE IF NOT EXISTS staged_files (
  file_id INTEGER, path VARCHAR, indexed_bytes DOUBLE, head VARCHAR, not_utf8_at DOUBLE);
`;

/** The shape `json_transform` reads each line into: one parse a line, every field at once. */
const lineShape = JSON.stringify({
  nested_too_deep: 'BOOLEAN',
  v: 'INTEGER',
  run: 'VARCHAR',
  session: 'VARCHAR',
  seq: 'INTEGER',
  event: 'VARCHAR',
  time: 'VARCHAR',
  agent: 'VARCHAR',
  span_id: 'VARCHAR',
  parent_span_id: 'VARCHAR',
  tool: 'VARCHAR',
  model: 'VARCHAR',
  provider: 'VARCHAR',
  to: 'VARCHAR',
  from: 'VARCHAR',
  name: 'VARCHAR',
  workflow: 'VARCHAR',
  guardrail: 'VARCHAR',
  stop_reason: 'VARCHAR',
  status: 'VARCHAR',
  verdict: 'VARCHAR',
  duration_ms: 'DOUBLE',
  tok_prompt: 'BIGINT',
  tok_completion: 'BIGINT',
  cost_usd: 'DOUBLE',
  cost: { usd: 'DOUBLE', unpriced_calls: 'INTEGER' },
  counts: { llm_calls: 'INTEGER', tool_calls: 'INTEGER', tool_errors: 'INTEGER' },
  steps: 'JSON',
  tool_calls: 'JSON',
  depth: 'INTEGER',
  mode: 'VARCHAR',
  call_id: 'VARCHAR',
  attempt: 'INTEGER',
  finish_reason: 'VARCHAR',
  handed_off_to: 'VARCHAR',
  error: { type: 'VARCHAR', message: 'VARCHAR', feature: 'VARCHAR', refusal: 'VARCHAR' },
  feature: 'VARCHAR',
  target: 'VARCHAR',
  conversation: { id: 'VARCHAR', turn: 'INTEGER', role: 'VARCHAR' },
  data: 'JSON',
  content: 'VARCHAR',
  input: 'JSON',
  output: 'JSON',
  args: 'JSON',
  result: 'JSON',
  text: 'VARCHAR',
  id: 'VARCHAR',
  score: 'DOUBLE',
  label: 'VARCHAR',
  comment: 'VARCHAR',
  by: 'VARCHAR',
  source: 'VARCHAR',
  explanation: 'VARCHAR',
  release: 'VARCHAR',
});

/** A JSON value as text: a string as it is, anything else as its JSON. */
const asText = (column: string) =>
  `CASE WHEN json_type(${column}) = 'VARCHAR' THEN ${column} ->> '$' ELSE ${column}::VARCHAR END`;

/**
 * Parses the staged lines, once each: a line that is not JSON parses to null. The lines that are
 * not trace events (null, or no run or event) stay out of `trace_events` and are counted.
 */
export const parseStagedLines = `
CREATE OR REPLACE TEMP TABLE parsed_lines AS
SELECT file_id, "offset"::BIGINT AS "offset", length,
  try(json_transform(line, '${lineShape}')) AS j
FROM staged_lines`;

/** The schema versions the index reads, as an SQL list. */
const versions = SUPPORTED_TRACE_SCHEMA_VERSIONS.join(', ');

/** A parsed line that is not an event this agent-trace reads. */
const notAnEvent = `j IS NULL OR j.run IS NULL OR j.event IS NULL OR j.v IS NULL OR j.v NOT IN (${versions})`;

/** Why a parsed line is not an event, in words. */
const whyNotAnEvent = `CASE WHEN j IS NULL THEN 'not JSON, or a field of the wrong type'
  WHEN j.nested_too_deep THEN 'arrays and objects nested more than ${maxNestingDepth} levels deep'
  WHEN j.run IS NULL OR j.event IS NULL THEN 'not a trace event (no run or event)'
  ELSE 'trace schema version ' || coalesce(j.v::VARCHAR, '(none)') || ' (this agent-trace reads ${versions}; a newer one wrote it)' END`;

/**
 * The parsed lines that are not trace events this agent-trace reads, per file: how many, the
 * first's offset and why.
 */
export const skippedParsedLines = `
SELECT file_id, count(*) AS n, min("offset") AS first, arg_min(${whyNotAnEvent}, "offset") AS why
FROM parsed_lines WHERE ${notAnEvent} GROUP BY file_id`;

/**
 * Records how far the staged files are read, with their lines that were not events: one
 * statement for the batch.
 */
export const recordStagedFiles = `
INSERT INTO trace_files
  (file_id, path, indexed_bytes, head, skipped_lines, first_skipped, skipped_why, not_utf8_at)
SELECT f.file_id, f.path, f.indexed_bytes::BIGINT, f.head, coalesce(s.n, 0), s.first, s.why,
  f.not_utf8_at::BIGINT
FROM staged_files f LEFT JOIN (${skippedParsedLines.trim()}) s USING (file_id)
ON CONFLICT (file_id) DO UPDATE SET indexed_bytes = excluded.indexed_bytes, head = excluded.head,
  skipped_lines = trace_files.skipped_lines + excluded.skipped_lines,
  first_skipped = coalesce(trace_files.first_skipped, excluded.first_skipped),
  skipped_why = coalesce(trace_files.skipped_why, excluded.skipped_why),
  not_utf8_at = coalesce(trace_files.not_utf8_at, excluded.not_utf8_at)`;

/** Moves the parsed events into `trace_events`, with the fields the views read. */
export const insertParsedEvents = `
INSERT INTO trace_events
SELECT file_id, "offset", length, j.run, j.session, j.seq, j.event,
  TRY_CAST(j.time AS TIMESTAMP), j.agent, j.span_id, j.parent_span_id,
  CASE WHEN j.event LIKE 'llm_%' OR j.event = 'agent_start' THEN j.model
       WHEN j.event LIKE 'handoff_%' THEN j."to"
       WHEN j.event LIKE 'workflow_step_%' OR j.event LIKE 'span_%' OR j.event = 'retry' THEN j.name
       WHEN j.event LIKE 'workflow_%' THEN j.workflow
       WHEN j.event = 'guardrail' THEN j.guardrail
       WHEN j.event IN ('feature', 'evaluation') THEN j.name
       WHEN j.event = 'transform' THEN j.target
       ELSE j.tool END,
  j.provider, j.stop_reason, coalesce(j.status, j.verdict), j.duration_ms,
  j.tok_prompt, j.tok_completion, coalesce(j.cost_usd, j.cost.usd), j.cost.unpriced_calls,
  j.counts.llm_calls,
  coalesce(j.counts.tool_calls, CASE WHEN j.event = 'agent_end' THEN TRY_CAST(j.tool_calls AS INTEGER) END),
  j.counts.tool_errors,
  CASE WHEN j.event = 'agent_end' THEN TRY_CAST(j.steps AS INTEGER) END,
  j."from", j."to", j.depth, j.mode, j.call_id, j.attempt, j.finish_reason, j.handed_off_to,
  j.error.type, j.error.message,
  CASE WHEN j.event IN ('tool_start', 'tool_end') THEN ${asText('j.args')}
       WHEN j.event = 'feature' THEN ${asText('j.data')}
       WHEN j.input IS NOT NULL THEN ${asText('j.input')} END,
  CASE WHEN j.event = 'tool_end' THEN ${asText('j.result')}
       WHEN j.event = 'llm_end' THEN j.text
       WHEN j.event = 'transform' THEN j.content
       WHEN j.event = 'feedback' THEN j.comment
       WHEN j.event = 'evaluation' THEN j.explanation
       WHEN j.output IS NOT NULL THEN ${asText('j.output')} END,
  coalesce(j.feature, j.error.feature), j.error.refusal, j.conversation.id, j.conversation.turn,
  j.conversation.role, j.score, j.label, j.by, j.source, j.id, j.release
FROM parsed_lines
WHERE NOT (${notAnEvent})`;

/** The views users query. `file` is the path under the library's folder. */
export const libraryViews = `
CREATE OR REPLACE VIEW events AS
SELECT e.run, e.session, e.seq, e.event, e.time, e.agent, e.span_id, e.parent_span_id, e.name,
  e.duration_ms, e.error_type, f.path AS file, e."offset", e.length
FROM trace_events e JOIN trace_files f USING (file_id);

CREATE OR REPLACE VIEW runs AS
WITH starts AS (
  SELECT file_id, run, arg_min(session, seq) AS session, arg_min(agent, seq) AS entry_agent,
    min(time) AS started_at, arg_min("offset", seq) AS "offset", arg_min(input, seq) AS input,
    arg_min(conversation, seq) AS conversation, arg_min(turn, seq) AS turn,
    arg_min(conversation_role, seq) AS conversation_role, arg_min(release, seq) AS release
  FROM trace_events WHERE event = 'run_start' GROUP BY file_id, run),
ends AS (
  SELECT file_id, run, arg_max(time, seq) AS ended_at, arg_max(stop_reason, seq) AS stop_reason,
    sum(duration_ms) AS duration_ms, arg_max(tok_prompt, seq) AS tok_prompt,
    arg_max(tok_completion, seq) AS tok_completion, arg_max(cost_usd, seq) AS cost_usd,
    arg_max(unpriced_calls, seq) AS unpriced_calls, arg_max(llm_calls, seq) AS llm_calls,
    arg_max(tool_calls, seq) AS tool_calls, arg_max(tool_errors, seq) AS tool_errors,
    arg_max(output, seq) AS output, arg_max(error_type, seq) AS error_type,
    arg_max(error_message, seq) AS error_message
  FROM trace_events WHERE event = 'run_end' GROUP BY file_id, run)
SELECT s.run, s.session, s.entry_agent, s.started_at, e.ended_at, e.stop_reason, e.duration_ms,
  e.tok_prompt, e.tok_completion,
  -- A cost with calls of unpriced models is unknown (NULL), not what the priced ones cost.
  CASE WHEN e.unpriced_calls > 0 THEN NULL ELSE e.cost_usd END AS cost_usd,
  e.unpriced_calls, e.llm_calls, e.tool_calls,
  e.tool_errors, e.error_type, e.error_message, s.input, e.output, s.conversation, s.turn,
  s.conversation_role, s.release, f.path AS file, s."offset"
FROM starts s LEFT JOIN ends e USING (file_id, run) JOIN trace_files f USING (file_id);

CREATE OR REPLACE VIEW sessions AS
SELECT session, arg_min(entry_agent, started_at) AS entry_agent, count(*) AS runs,
  max(turn) AS turns, arg_max(stop_reason, started_at) AS outcome,
  -- A session with a run of unknown cost has an unknown cost (NULL).
  CASE WHEN count(*) = count(cost_usd) THEN sum(cost_usd) END AS cost_usd,
  sum(duration_ms) AS duration_ms, min(started_at) AS first_at, max(ended_at) AS last_at,
  sum(tok_prompt) AS tok_prompt, sum(tok_completion) AS tok_completion
FROM runs GROUP BY session;

CREATE OR REPLACE VIEW agents AS
SELECT s.run, s.agent, s.name AS model, s.provider, s.time AS started_at, e.stop_reason,
  e.steps, e.tool_calls, e.tok_prompt, e.tok_completion,
  CASE WHEN e.unpriced_calls > 0 THEN NULL ELSE e.cost_usd END AS cost_usd, e.duration_ms,
  e.handed_off_to, e.error_type, e.output, f.path AS file, s."offset", s.span_id
FROM trace_events s
LEFT JOIN trace_events e ON e.file_id = s.file_id AND e.run = s.run AND e.span_id = s.span_id
  AND e.event = 'agent_end'
JOIN trace_files f ON f.file_id = s.file_id
WHERE s.event = 'agent_start';

CREATE OR REPLACE VIEW llm_calls AS
SELECT run, agent, name AS model, provider, time, finish_reason, tok_prompt, tok_completion,
  cost_usd, duration_ms, attempt, error_type, error_message, output AS text, f.path AS file,
  "offset", span_id
FROM trace_events JOIN trace_files f USING (file_id) WHERE event = 'llm_end';

CREATE OR REPLACE VIEW tool_calls AS
SELECT run, agent, name AS tool, call_id, time, input AS args, output AS result, error_type,
  error_message, feature AS refused_by, refusal, duration_ms, attempt, f.path AS file, "offset",
  span_id
FROM trace_events JOIN trace_files f USING (file_id) WHERE event = 'tool_end';

CREATE OR REPLACE VIEW feature_events AS
SELECT run, session, seq, time, agent, feature, event AS kind, name, input AS data,
  output AS content, call_id, f.path AS file, "offset", parent_span_id AS span_id
FROM trace_events JOIN trace_files f USING (file_id) WHERE event IN ('feature', 'transform');

CREATE OR REPLACE VIEW feedback AS
SELECT run, session, agent, time, score, label, output AS comment, given_by, source,
  feedback_id AS id, f.path AS file, "offset", parent_span_id AS span_id
FROM trace_events JOIN trace_files f USING (file_id) WHERE event = 'feedback';

CREATE OR REPLACE VIEW evaluations AS
SELECT run, session, agent, time, name AS scorer, score, label, output AS explanation,
  error_message AS error, cost_usd, f.path AS file, "offset", parent_span_id AS span_id
FROM trace_events JOIN trace_files f USING (file_id) WHERE event = 'evaluation';

CREATE OR REPLACE VIEW handoffs AS
SELECT run, from_agent, to_agent, depth, mode, time, duration_ms, error_type, f.path AS file,
  "offset", span_id
FROM trace_events JOIN trace_files f USING (file_id) WHERE event = 'handoff_end';
`;
