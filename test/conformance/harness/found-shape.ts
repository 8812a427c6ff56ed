/**
 * A program the generator found failing, as a row of the conformance matrix: it records itself,
 * builds today's code unchanged or with a change planted in its entry agent, and runs the same
 * checks as every hand-written row.
 */
import { buildProgram, type PlantedChange } from '../generator/build-program.js';
import { programRunOptions } from '../generator/program-options.js';
import { recordProgram } from '../generator/check-program.js';
import type { Program } from '../generator/program.js';
import type { Change, Shape } from './shape.js';

/** A found program as a row named `name`, whose module (`module`) exports it built. */
export function foundShape(name: string, module: string, program: Program): Shape {
  // A workflow may run other agents than the first: a change there would show nowhere.
  const runsFirst =
    program.workflow === undefined || program.workflow.agentSteps.some(step => step.agent === 0);
  const entry = runsFirst ? program.agents[0] : undefined;
  const tool = entry?.tools[0]?.name;
  // Near a cost limit, a longer request (instructions, a tool's description) can cost past it:
  // the rerun then stops for the budget before the changed call (as the generator's P4 allows),
  // so a priced program plants only what shortens the request.
  const grows = program.budget === undefined;
  const planted = (change?: Change): { change?: PlantedChange } =>
    change === 'instructions' || change === 'tool description' || change === 'tool removed'
      ? { change }
      : {};
  return {
    name,
    module,
    record: file => recordProgram(program, file),
    build: change => buildProgram(program, planted(change)),
    changes:
      entry === undefined
        ? {}
        : {
            ...(grows ? { instructions: { agent: entry.name } } : {}),
            ...(tool === undefined
              ? {}
              : {
                  ...(grows ? { 'tool description': { agent: entry.name, tool } } : {}),
                  'tool removed': { agent: entry.name, tool },
                }),
          },
    runOptions: programRunOptions(program),
    runs: program.secondTurn === undefined ? 1 : 2 + (program.moreTurns?.length ?? 0),
  };
}
