/**
 * One cell of the online-scoring bench in a process of its own (capped). Usage: node
 * online-scoring-worker.mjs <runs> <rounds> <model latency ms>; prints one JSON line.
 */
import { measureOnlineScoring } from '../online-scoring.js';

const [runs = '1000', rounds = '5', latency = '0'] = process.argv.slice(2);
process.stdout.write(
  `${JSON.stringify(await measureOnlineScoring(Number(runs), Number(rounds), Number(latency)))}\n`,
);
