import type { FakeScriptedStep } from '../fake-llm-step.js';

/**
 * What a model does, for property tests: a finite `prefix` of steps, then `loop` repeated forever
 * (an empty loop ends the script). Endless tool calls, oscillation and ping-pong are loops.
 */
export interface Behaviour {
  readonly prefix: readonly FakeScriptedStep[];
  readonly loop: readonly FakeScriptedStep[];
}

/** The step a behaviour takes at call `index` (0-based), or undefined past a finite script. */
export function stepAt(behaviour: Behaviour, index: number): FakeScriptedStep | undefined {
  if (index < behaviour.prefix.length) return behaviour.prefix[index];
  if (behaviour.loop.length === 0) return undefined;
  return behaviour.loop[(index - behaviour.prefix.length) % behaviour.loop.length];
}

/** A behaviour as a FakeLLM script to paste into a test: the loop is written out `repeats` times. */
export function formatBehaviour(
  behaviour: Behaviour,
  { agent, repeats = 3 }: { agent: string; repeats?: number },
): string {
  const line = (step: FakeScriptedStep): string => `  ${JSON.stringify(step)},`;
  const lines = behaviour.prefix.map(line);
  if (behaviour.loop.length > 0) {
    lines.push(
      `  // the next ${behaviour.loop.length} step${behaviour.loop.length === 1 ? '' : 's'} repeat forever; written out ${repeats} times:`,
    );
    for (let round = 0; round < repeats; round++) lines.push(...behaviour.loop.map(line));
  }
  return `// agent '${agent}'\nfakeLLM([\n${lines.join('\n')}\n])`;
}
