export type { ThreadGraph, ThreadNode } from './graph.js';
export { linkMessage, type ThreadInput, wouldLoop } from './linker.js';
export { MemoryThreadGraph, threadIdFromSeed } from './memory-graph.js';
