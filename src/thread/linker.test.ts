// JWZ linking, run as one contract suite against every ThreadGraph implementation.

import { describe, expect, it } from 'vitest';
import { openArchive } from '../store/archive.js';
import { MessageStore } from '../store/message-store.js';
import { SqliteThreadGraph } from '../store/thread-graph.js';
import type { ThreadGraph } from './graph.js';
import { linkMessage } from './linker.js';
import { MemoryThreadGraph } from './memory-graph.js';

const implementations: Array<[string, () => ThreadGraph]> = [
  ['memory', () => new MemoryThreadGraph()],
  [
    'sqlite',
    () => {
      const archive = openArchive(':memory:');
      const inbox = new MessageStore(archive).inbox('work');
      return new SqliteThreadGraph(archive.db, inbox.id, inbox.name);
    },
  ],
];

const link = (graph: ThreadGraph, messageId: string, references: string[] = [], threadKeys: string[] = []) =>
  linkMessage(graph, { messageId, references, threadKeys });

describe.each(implementations)('linkMessage on the %s graph', (_name, newGraph) => {
  it('puts a reply in its parent thread and links the parent', () => {
    const graph = newGraph();
    const root = link(graph, 'a@x');
    const reply = link(graph, 'b@x', ['a@x']);
    expect(reply).toBe(root);
    expect(graph.getNode('b@x')?.parentId).toBe('a@x');
  });

  it('creates placeholders for parents that have not arrived and fills them later', () => {
    const graph = newGraph();
    const early = link(graph, 'c@x', ['a@x', 'b@x']);
    expect(graph.getNode('a@x')).toMatchObject({ present: false, threadId: early });
    expect(graph.getNode('b@x')).toMatchObject({ present: false, parentId: 'a@x' });
    expect(link(graph, 'a@x')).toBe(early);
    expect(graph.getNode('a@x')?.present).toBe(true);
  });

  it('merges two threads when a late message links them, the larger id surviving', () => {
    const graph = newGraph();
    const first = link(graph, 'a@x');
    link(graph, 'a2@x', ['a@x']);
    link(graph, 'a3@x', ['a@x']);
    const second = link(graph, 'c@x', ['b@x']);
    expect(second).not.toBe(first);
    const merged = link(graph, 'b@x', ['a@x']);
    expect(merged).toBe(first);
    expect(graph.getNode('c@x')?.threadId).toBe(first);
    expect(graph.getNode('b@x')?.parentId).toBe('a@x');
  });

  it('never closes a reference loop', () => {
    const graph = newGraph();
    link(graph, 'a@x', ['b@x']);
    link(graph, 'b@x', ['a@x']);
    expect(graph.getNode('a@x')?.parentId).toBe('b@x');
    expect(graph.getNode('b@x')?.parentId).toBeNull();
    link(graph, 'c@x', ['c@x', 'a@x', 'b@x', 'a@x']);
    expect(graph.getNode('c@x')?.parentId).not.toBe('c@x');
  });

  it('survives ten thousand references', () => {
    const graph = newGraph();
    const references = Array.from({ length: 10_000 }, (_, i) => `r${i}@x`);
    const thread = link(graph, 'big@x', references);
    expect(graph.getNode('big@x')?.parentId).toBe('r9999@x');
    expect(graph.getNode('r9999@x')?.threadId).toBe(thread);
  });

  it('joins messages sharing a provider thread key without any References', () => {
    const graph = newGraph();
    const first = link(graph, 'a@x', [], ['gm:1789']);
    expect(link(graph, 'b@x', [], ['gm:1789'])).toBe(first);
    expect(link(graph, 'c@x', [], ['gm:2000'])).not.toBe(first);
  });

  it('does not group by subject: unrelated messages get their own threads', () => {
    const graph = newGraph();
    expect(link(graph, 'a@x')).not.toBe(link(graph, 'b@x'));
  });

  it('lets a message override a parent guessed from another message', () => {
    const graph = newGraph();
    link(graph, 'c@x', ['a@x', 'b@x']);
    expect(graph.getNode('b@x')?.parentId).toBe('a@x');
    link(graph, 'b@x', ['z@x']);
    expect(graph.getNode('b@x')?.parentId).toBe('z@x');
  });
});
