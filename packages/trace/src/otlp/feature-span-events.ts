import type { TraceEventOf } from '@agent-trace/core';
import type { HrTime } from '@opentelemetry/api';
import type { TimedEvent } from '@opentelemetry/sdk-trace';
import { canonicalJson } from '@agent-trace/core/util';
import { ownAttributes } from './semconv.js';

/**
 * A feature's own event as a span event: named by its namespace (`scrub-emails.scrubbed`), with
 * the feature, its event name and its data (JSON) as attributes.
 */
export function featureSpanEvent(event: TraceEventOf<'feature'>, time: HrTime): TimedEvent {
  return {
    name: `${event.feature}.${event.name}`,
    time,
    attributes: {
      [ownAttributes.featureName]: event.feature,
      [ownAttributes.featureEvent]: event.name,
      ...(event.data === undefined
        ? {}
        : { [ownAttributes.featureData]: canonicalJson(event.data) }),
    },
    droppedAttributesCount: 0,
  };
}

/**
 * A feature's transform as a span event (`agent_trace.transform`): the feature, what it changed,
 * and, when content is captured, what a tool result became.
 */
export function transformSpanEvent(
  event: TraceEventOf<'transform'>,
  time: HrTime,
  content: ((value: unknown) => string) | undefined,
): TimedEvent {
  return {
    name: 'agent_trace.transform',
    time,
    attributes: {
      [ownAttributes.featureName]: event.feature,
      [ownAttributes.transformTarget]: event.target,
      [ownAttributes.transformChanged]: [...event.changed],
      ...(event.step === undefined ? {} : { [ownAttributes.step]: event.step }),
      ...(event.tool === undefined ? {} : { [ownAttributes.transformTool]: event.tool }),
      ...(event.hash === undefined ? {} : { [ownAttributes.transformHash]: event.hash }),
      ...(content === undefined || event.content === undefined
        ? {}
        : { [ownAttributes.transformContent]: content(event.content) }),
    },
    droppedAttributesCount: 0,
  };
}
