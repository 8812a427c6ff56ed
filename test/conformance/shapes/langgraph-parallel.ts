import { langgraphParallel } from './bridges.js';

export default langgraphParallel.build();
